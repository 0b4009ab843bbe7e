"""The memo of move bodies and view queries (shared/http/argmemo.py): a repeat gets what the
schema alone would give, as a fresh object, and errors never come from the memo."""

from __future__ import annotations

import pytest
from marshmallow import Schema, fields

from shared.http import argmemo
from tests.kit.helpers import assert_problem, auth, post_move, started_game


def _nested(depth: int) -> list[object]:
    value: list[object] = [1]
    for _ in range(depth):
        value = [value]
    return value


def test_a_kept_load_comes_back_as_a_fresh_copy():
    memo = argmemo.LoadMemo()
    value = {"type": "place", "pieces": [1, 2], "x": None, "f": 1.5, "ok": True}
    memo.put(b"body", value)
    first, second = memo.get(b"body"), memo.get(b"body")
    assert first == second == value
    assert first is not value and first["pieces"] is not value["pieces"]
    first["pieces"].append(3)
    first["type"] = "changed"
    assert memo.get(b"body") == value
    assert memo.get(b"other") is None


@pytest.mark.parametrize(
    "value",
    [
        {"t": (1, 2)},  # a tuple would come back a list
        {"t": {1, 2}},
        {1: "non-string key"},
        {"big": 2**70},
        {"nan": float("nan")},
        {"deep": _nested(40)},
    ],
)
def test_values_that_a_json_copy_would_change_are_not_kept(value):
    memo = argmemo.LoadMemo()
    memo.put(b"body", value)
    assert memo.get(b"body") is None


def test_the_memo_is_bounded():
    memo = argmemo.LoadMemo(entries=3, longest=8)
    memo.put(b"x" * 9, {"long": 1})
    assert memo.get(b"x" * 9) is None
    for i in range(5):
        memo.put(str(i).encode(), {"i": i})
    assert [memo.get(str(i).encode()) for i in range(5)] == [
        None,
        None,
        {"i": 2},
        {"i": 3},
        {"i": 4},
    ]


def test_only_marked_schemas_have_a_memo():
    class Plain(Schema):
        a = fields.Int()

    marked = argmemo.memoized(Plain())
    assert argmemo.memo_of(marked) is not None
    assert argmemo.memo_of(Plain()) is None
    assert argmemo.memo_of({"a": fields.Int()}) is None


def test_a_repeated_move_body_is_parsed_afresh_for_each_request(toy_app, toy_client, monkeypatch):
    """The engine may change the move it is given: the next request with the same body
    still gets the body as sent."""
    seen = []
    engine = toy_app.extensions["game_kit"].games.engine
    apply_move = engine.apply_move

    def meddling(state, seat, move):
        seen.append(dict(move))
        result = apply_move(state, seat, move)
        move["value"] = 99  # a later request must not see this
        move["extra"] = True
        return result

    monkeypatch.setattr(engine, "apply_move", meddling)  # the engine outlives the app
    body = {"type": "call", "value": 2}
    for _ in range(3):  # a miss, then kept answers twice
        game_id, _, tokens = started_game(toy_client, 2)
        seat = toy_client.get(f"/games/{game_id}").get_json()["to_act"][0]
        r = post_move(toy_client, game_id, tokens[seat], body)
        assert r.status_code == 200, r.get_json()
    assert seen == [{"type": "call", "value": 2}] * 3


def test_invalid_bodies_and_queries_fail_the_same_way_every_time(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    answers = []
    for _ in range(3):
        r = post_move(toy_client, game_id, tokens[0], {"type": "call", "value": 7})
        answers.append(
            {
                k: v
                for k, v in assert_problem(r, 422, "validation-error").items()
                if k != "request_id"
            }
        )
        r = toy_client.get(f"/games/{game_id}?include=secrets", headers=auth(tokens[0]))
        assert_problem(r, 422, "validation-error")
    assert answers[0] == answers[1] == answers[2]
    assert toy_client.get(f"/games/{game_id}?include=legal_moves").status_code == 200
    assert toy_client.get(f"/games/{game_id}?include=legal_moves").status_code == 200

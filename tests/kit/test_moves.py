"""Moves through the kit (toy game): turn order, validation, If-Match, Idempotency-Key,
races, version conflicts, secrets, and replaying a finished game from its log."""

from __future__ import annotations

import json
import threading
import types

import pytest

from tests.kit import toy_engine
from tests.kit.helpers import assert_problem, auth, post_move, started_game, view


def caller_token(client, game_id, tokens):
    return tokens[view(client, game_id)["to_act"][0]]


def test_legal_moves_are_postable_unchanged_and_only_for_the_seat_to_act(toy_client):
    game_id, host, tokens = started_game(toy_client, 3)
    caller = view(toy_client, game_id)["to_act"][0]
    for seat, token in enumerate(tokens):
        r = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(token))
        assert r.status_code == 200
        assert (r.get_json()["moves"] != []) == (seat == caller)
    assert_problem(toy_client.get(f"/games/{game_id}/legal-moves"), 401, "missing-token")
    r = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(host))
    assert_problem(r, 403, "seat-token-required")
    moves = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[caller]))
    r = post_move(toy_client, game_id, tokens[caller], moves.get_json()["moves"][-1])
    assert r.status_code == 200
    assert r.get_json()["game"]["state"]["called"] == 3


def test_move_answers_the_movers_view_and_stamped_events(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    before = view(toy_client, game_id)["version"]
    caller = view(toy_client, game_id)["to_act"][0]
    r = post_move(toy_client, game_id, tokens[caller], {"type": "call", "value": 2})
    assert r.status_code == 200
    assert r.headers["ETag"] == f'"{before + 1}"'
    body = r.get_json()
    assert body["game"]["version"] == before + 1 and body["game"]["you"] == caller
    assert body["events"] == [
        {
            "type": "called",
            "seat": caller,
            "value": 2,
            "version": before + 1,
            "id": f"{before + 1}-0",
        }
    ]


def test_move_errors(toy_client):
    game_id, host, tokens = started_game(toy_client, 2)
    caller = view(toy_client, game_id)["to_act"][0]
    other = 1 - caller
    url = f"/games/{game_id}/moves"
    assert_problem(toy_client.post(url, json={"type": "call", "value": 1}), 401, "missing-token")
    assert_problem(
        post_move(toy_client, game_id, "forged", {"type": "call", "value": 1}), 403, "invalid-token"
    )
    assert_problem(
        post_move(toy_client, game_id, host, {"type": "call", "value": 1}),
        403,
        "seat-token-required",
    )
    assert_problem(
        post_move(toy_client, game_id, tokens[other], {"type": "call", "value": 1}),
        409,
        "not-your-turn",
    )
    # the engine's own rejection, with its code
    assert_problem(
        post_move(toy_client, game_id, tokens[caller], {"type": "pick", "value": 1}),
        409,
        "wrong-phase",
    )
    for bad in (
        {"type": "call", "value": 4},
        {"type": "call", "value": "1"},
        {"type": "call"},
        {"type": "call", "value": 1, "extra": 0},
        {"type": "jump"},
        {"value": 1},
        {"type": ["call"]},
    ):
        assert_problem(post_move(toy_client, game_id, tokens[caller], bad), 422, "validation-error")
    r = toy_client.post(
        url, data="[1]", content_type="application/json", headers=auth(tokens[caller])
    )
    assert_problem(r, 422, "validation-error")
    r = toy_client.post(
        url, data="{bad", content_type="application/json", headers=auth(tokens[caller])
    )
    assert_problem(r, 400, "invalid-json")
    r = toy_client.post(
        url,
        data="x" * (64 * 1024 + 1),
        content_type="application/json",
        headers=auth(tokens[caller]),
    )
    assert_problem(r, 413, "payload-too-large")
    assert view(toy_client, game_id)["version"] == 4  # nothing above changed the game


def test_stale_if_match_is_412_and_changes_nothing(toy_client, redis_client):
    game_id, _, tokens = started_game(toy_client, 2)
    game = view(toy_client, game_id)
    token = tokens[game["to_act"][0]]
    move = {"type": "call", "value": 1}
    stale = f'"{game["version"] - 1}"'
    r = post_move(toy_client, game_id, token, move, **{"If-Match": stale})
    problem = assert_problem(r, 412, "version-mismatch")
    assert problem["version"] == game["version"]
    assert view(toy_client, game_id)["version"] == game["version"]
    assert redis_client.xlen(f"toy:{{{game_id}}}:events") == game["version"]
    r = post_move(toy_client, game_id, token, move, **{"If-Match": f'"{game["version"]}"'})
    assert r.status_code == 200
    # If-Match is honoured on every write, not only moves
    r = toy_client.delete(f"/games/{game_id}", headers={"If-Match": stale})
    assert r.status_code == 401  # the token is checked first
    assert view(toy_client, game_id)["status"] == "running"


def test_if_match_on_join_and_cancel(toy_client):
    r = toy_client.post("/games", json={"players": 2})
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    r = toy_client.post(
        f"/games/{game_id}/players", json={"name": "a"}, headers={"If-Match": '"7"'}
    )
    assert_problem(r, 412, "version-mismatch")
    r = toy_client.post(
        f"/games/{game_id}/players", json={"name": "a"}, headers={"If-Match": '"1"'}
    )
    assert r.status_code == 201
    r = toy_client.delete(f"/games/{game_id}", headers={**auth(host), "If-Match": '"1"'})
    assert_problem(r, 412, "version-mismatch")
    r = toy_client.delete(f"/games/{game_id}", headers={**auth(host), "If-Match": "*"})
    assert r.status_code == 200


def test_idempotency_key_replays_the_first_answer_and_applies_nothing(toy_client, redis_client):
    game_id, _, tokens = started_game(toy_client, 2)
    caller = view(toy_client, game_id)["to_act"][0]
    key = {"Idempotency-Key": "move-1"}
    first = post_move(toy_client, game_id, tokens[caller], {"type": "call", "value": 2}, **key)
    assert first.status_code == 200
    version = first.get_json()["game"]["version"]
    events = redis_client.xlen(f"toy:{{{game_id}}}:events")
    # a retry of the same move (keys in any order) gets the first answer, byte for byte
    for move in ({"type": "call", "value": 2}, {"value": 2, "type": "call"}):
        again = post_move(toy_client, game_id, tokens[caller], move, **key)
        assert again.status_code == 200
        assert again.get_data() == first.get_data()
    # the key with another move: 422, nothing applied (tests/kit/test_idempotency_reuse.py)
    reused = post_move(toy_client, game_id, tokens[caller], {"type": "call", "value": 3}, **key)
    assert_problem(reused, 422, "idempotency-key-reused")
    assert view(toy_client, game_id)["version"] == version
    assert redis_client.xlen(f"toy:{{{game_id}}}:events") == events
    # the same key from another seat is that seat's own key, and its own answer
    other = post_move(toy_client, game_id, tokens[1 - caller], {"type": "pick", "value": 1}, **key)
    assert other.status_code == 200 and other.get_json()["game"]["you"] == 1 - caller
    assert other.get_json()["game"]["version"] == version + 1
    # a rejected move stores nothing: the key stays free
    bad = post_move(
        toy_client,
        game_id,
        tokens[1 - caller],
        {"type": "pick", "value": 1},
        **{"Idempotency-Key": "k2"},
    )
    assert_problem(bad, 409, "not-your-turn")
    good = post_move(
        toy_client,
        game_id,
        tokens[caller],
        {"type": "pick", "value": 1},
        **{"Idempotency-Key": "k2"},
    )
    assert good.status_code == 200


def test_an_old_key_gets_its_first_answer_after_later_moves(toy_client, redis_client):
    """A late duplicate (a retry stuck in a proxy) is still recognised and answered with
    the first answer, rebuilt from the stored moves; the record itself stays tiny."""
    game_id, _, tokens = started_game(toy_client, 3, rounds=3)
    first: dict[str, tuple[int, bytes]] = {}
    sent: dict[str, dict] = {}
    for n in range(10):
        seat = view(toy_client, game_id)["to_act"][0]
        legal = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        sent[f"m{n}"] = legal.get_json()["moves"][0]
        r = post_move(toy_client, game_id, tokens[seat], sent[f"m{n}"],
                      **{"Idempotency-Key": f"m{n}"})  # fmt: skip
        assert r.status_code == 200
        first[f"m{n}"] = (seat, r.get_data())
    version = view(toy_client, game_id)["version"]
    for key, (seat, body) in first.items():
        again = post_move(toy_client, game_id, tokens[seat], sent[key],
                          **{"Idempotency-Key": key})  # fmt: skip
        assert again.status_code == 200 and again.get_data() == body, key
    assert view(toy_client, game_id)["version"] == version
    # each move's record (version, time, seat, move, 8 characters of key hash) is tiny
    lines = redis_client.get(f"toy:{{{game_id}}}:tail").split("\n")[1:]
    keyed = [line for line in lines if len(json.loads(line)) >= 5]
    assert len(keyed) == 10 and max(len(line) for line in keyed) < 80


@pytest.mark.parametrize("key", ["", "x" * 201, "has space", "é"])
def test_bad_idempotency_keys_are_rejected(toy_client, key):
    game_id, _, tokens = started_game(toy_client, 2)
    token = caller_token(toy_client, game_id, tokens)
    r = toy_client.post(
        f"/games/{game_id}/moves",
        json={"type": "call", "value": 1},
        headers={**auth(token), "Idempotency-Key": key.encode().decode("latin-1")},
    )
    assert_problem(r, 422, "validation-error")


def run_at_once(functions):
    """Run the callables in threads released together; their results in order."""
    barrier = threading.Barrier(len(functions))
    results = [None] * len(functions)

    def run(i):
        barrier.wait()
        results[i] = functions[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(functions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_twenty_racing_moves_for_one_turn_apply_once(toy_app, toy_client, redis_client):
    game_id, _, tokens = started_game(toy_client, 2)
    token = caller_token(toy_client, game_id, tokens)
    before = view(toy_client, game_id)["version"]

    def attempt(value):
        return lambda: post_move(
            toy_app.test_client(), game_id, token, {"type": "call", "value": value}
        )

    results = run_at_once([attempt(1 + i % 3) for i in range(20)])
    ok = [r for r in results if r.status_code == 200]
    assert len(ok) == 1
    for r in results:
        if r.status_code != 200:
            # the caller also picks next, so the engine says the phase moved on
            assert_problem(r, 409, "wrong-phase")
    assert view(toy_client, game_id)["version"] == before + 1
    events = toy_client.get(f"/games/{game_id}/events?after={before}").get_json()["events"]
    assert [e["type"] for e in events] == ["called"]
    assert events[0]["value"] == ok[0].get_json()["game"]["state"]["called"]


def test_simultaneous_picks_resolve_exactly_once(toy_app, toy_client):
    game_id, _, tokens = started_game(toy_client, 4, rounds=2)
    caller = view(toy_client, game_id)["to_act"][0]
    post_move(toy_client, game_id, tokens[caller], {"type": "call", "value": 2})
    before = view(toy_client, game_id)["version"]
    assert view(toy_client, game_id)["to_act"] == [0, 1, 2, 3]
    results = run_at_once(
        [
            (lambda t=t: post_move(toy_app.test_client(), game_id, t, {"type": "pick", "value": 2}))
            for t in tokens
        ]
    )
    assert [r.status_code for r in results] == [200] * 4
    versions = sorted(r.get_json()["game"]["version"] for r in results)
    assert versions == [before + 1, before + 2, before + 3, before + 4]
    events = toy_client.get(f"/games/{game_id}/events?after={before}").get_json()["events"]
    assert [e["type"] for e in events].count("round_resolved") == 1
    assert [e["type"] for e in events].count("picked") == 4
    assert events[-1]["type"] == "round_resolved" and events[-1]["version"] == before + 4
    state = view(toy_client, game_id)["state"]
    assert state["round"] == 2 and state["scores"] == events[-1]["cards"]


def interfering_engine(client, game_id, writes):
    """The toy engine, except that before each of its first apply_move calls another
    real move, ``writes[n] = (token, move)``, goes in through the API: a genuine write
    between the kit's read and its compare-and-set."""
    calls = {"n": 0}

    def apply_move(state, seat, move):
        if calls["n"] < len(writes):
            token, other_move = writes[calls["n"]]
            assert post_move(client, game_id, token, other_move).status_code == 200
        calls["n"] += 1
        return toy_engine.apply_move(state, seat, move)

    names = {
        k: getattr(toy_engine.ENGINE, k) for k in dir(toy_engine.ENGINE) if not k.startswith("_")
    }
    fake = types.SimpleNamespace(**{**names, "apply_move": apply_move})
    return fake, calls


def pick_phase(client, players):
    game_id, _, tokens = started_game(client, players)
    caller = view(client, game_id)["to_act"][0]
    post_move(client, game_id, tokens[caller], {"type": "call", "value": 1})
    return game_id, tokens, view(client, game_id)["version"]


def test_a_write_in_between_is_retried_on_the_fresh_game(make_app, toy_client):
    game_id, tokens, before = pick_phase(toy_client, 3)
    app = make_app("toy")
    fake, calls = interfering_engine(
        toy_client, game_id, [(tokens[1], {"type": "pick", "value": 1})]
    )
    app.extensions["game_kit"].games.engine = fake
    r = post_move(app.test_client(), game_id, tokens[0], {"type": "pick", "value": 3})
    assert r.status_code == 200 and calls["n"] == 2
    assert r.get_json()["game"]["version"] == before + 2
    assert r.get_json()["game"]["state"]["picked"] == [0, 1]


def test_endless_interference_ends_in_409_version_conflict(make_app, toy_client, redis_client):
    game_id, tokens, before = pick_phase(toy_client, 4)
    app = make_app("toy", CAS_RETRIES=2)
    writes = [(tokens[1], {"type": "pick", "value": 1}), (tokens[2], {"type": "pick", "value": 1})]
    fake, calls = interfering_engine(toy_client, game_id, writes)
    app.extensions["game_kit"].games.engine = fake
    r = post_move(app.test_client(), game_id, tokens[0], {"type": "pick", "value": 3})
    assert_problem(r, 409, "version-conflict")
    assert calls["n"] == 2
    game = view(toy_client, game_id)
    assert game["version"] == before + 2 and game["state"]["picked"] == [1, 2]
    ((last, _),) = redis_client.xrevrange(f"toy:{{{game_id}}}:events", count=1)
    assert last.startswith(f"{before + 2}-")

"""The Manhattan service through Flask's test client: options and move validation, the
engine's rejections, hidden information, and 20 racing moves for one turn."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest

from shared.store import load_doc
from tests.kit.helpers import assert_problem, auth, join, post_move, started_game, view

SEED = 6_120_783_349_851_002_467


def current(client, game_id):
    return view(client, game_id)["to_act"][0]


def test_create_defaults_to_four_seats_and_validates_options(manhattan_client):
    r = manhattan_client.post("/games", json={})
    assert r.status_code == 201
    assert r.get_json()["game"]["options"] == {
        "players": 4,
        "six_rounds": False,
        "promo_cards": False,
    }
    for bad, field in (
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"six_rounds": "yes"}, "six_rounds"),
        ({"promo_cards": 1}, "promo_cards"),
        ({"seed": 2**64}, "seed"),
        ({"rounds": 3}, "rounds"),
    ):
        problem = assert_problem(manhattan_client.post("/games", json=bad), 422, "validation-error")
        assert field in problem["errors"]["json"]


@pytest.mark.parametrize(
    "move",
    [
        {"type": "place", "city": 7, "lot": 1, "floors": 1},
        {"type": "place", "city": 1, "lot": 0, "floors": 1},
        {"type": "place", "city": 1, "lot": 1, "floors": 5},
        {"type": "place", "city": 1, "lot": 1},
        {"type": "place", "city": "1", "lot": 1, "floors": 1},
        {"type": "select", "pieces": [1, 1, 5]},
        {"type": "select", "pieces": []},
        {"type": "select", "pieces": "123"},
        {"type": "discard", "lot": 10},
        {"type": "forfeit", "floors": 0},
        {"type": "forfeit", "floors": 1, "city": 1},
        {"type": "build"},
    ],
)
def test_malformed_moves_are_422(manhattan_client, move):
    game_id, _, tokens = started_game(manhattan_client, 2, seed=3)
    r = post_move(manhattan_client, game_id, tokens[current(manhattan_client, game_id)], move)
    assert_problem(r, 422, "validation-error")


def test_rule_errors_come_back_as_409_with_the_engines_code(manhattan_client):
    game_id, _, tokens = started_game(manhattan_client, 2, seed=3)
    seat = current(manhattan_client, game_id)
    token = tokens[seat]
    r = post_move(manhattan_client, game_id, token, {"type": "select", "pieces": [1, 1]})
    assert_problem(r, 409, "invalid-selection")
    r = post_move(
        manhattan_client, game_id, token, {"type": "place", "city": 1, "lot": 1, "floors": 1}
    )
    assert_problem(r, 409, "wrong-phase")
    r = post_move(
        manhattan_client,
        game_id,
        tokens[1 - seat],
        {"type": "select", "pieces": [1, 1, 1, 1, 1, 1]},
    )
    assert_problem(r, 409, "not-your-turn")
    # then, in the build phase: a lot no card allows
    for s in (seat, 1 - seat):
        assert (
            post_move(
                manhattan_client,
                game_id,
                tokens[s],
                {"type": "select", "pieces": [1, 1, 2, 2, 3, 4]},
            ).status_code
            == 200
        )
    builder = current(manhattan_client, game_id)
    hand = view(manhattan_client, game_id, tokens[builder])["state"]["hand"]
    missing = sorted(set(range(1, 10)) - {c["lot"] for c in hand})[0]
    r = post_move(
        manhattan_client,
        game_id,
        tokens[builder],
        {"type": "place", "city": 1, "lot": missing, "floors": 1},
    )
    assert_problem(r, 409, "lot-not-on-card")
    assert view(manhattan_client, game_id)["version"] == 6  # created, 2 joins, start, 2 selects


def walk_int_lists(value, out):
    if isinstance(value, list):
        if value and all(type(v) is int for v in value):
            out.append(value)
        for v in value:
            walk_int_lists(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            walk_int_lists(v, out)
    return out


def contains_run(haystack, needle):
    return any(
        haystack[i : i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1)
    )


@pytest.mark.parametrize("delay", [0, 3])  # issue 41: a delayed spectator too
def test_hands_deck_and_seed_stay_hidden(manhattan_app, manhattan_client, redis_client, delay):
    body = {"players": 4, "seed": SEED, "spectator_delay": delay}
    created = manhattan_client.post("/games", json=body)
    game_id, host = created.get_json()["id"], created.get_json()["host_token"]
    tokens = [join(manhattan_client, game_id, f"p{i}")[1] for i in range(4)]
    assert manhattan_client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    rng = random.Random(2)
    texts = []
    for _ in range(16):
        game = view(manhattan_client, game_id, host)  # live (a spectator may read behind)
        seat = game["to_act"][0]
        moves = manhattan_client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        r = post_move(
            manhattan_client, game_id, tokens[seat], rng.choice(moves.get_json()["moves"])
        )
        assert r.status_code == 200
        texts.append(r.get_data(as_text=True))
    state = load_doc(redis_client.get(f"mh:{{{game_id}}}:game"))["state"]
    for seat, token in enumerate(tokens):
        mine = view(manhattan_client, game_id, token)
        texts.append(json.dumps(mine))
        assert [c["card"] for c in mine["state"]["hand"]] == state["hands"][seat]
    spectator = view(manhattan_client, game_id)
    assert spectator["state"]["hand"] is None
    behind = view(manhattan_client, game_id, host)["version"] - spectator["version"]
    assert (behind > 0) == (delay > 0)  # the spectator reads 3 moves back
    texts += [
        json.dumps(spectator),
        manhattan_client.get(f"/games/{game_id}/events").get_data(as_text=True),
        manhattan_client.get(f"/games/{game_id}/log").get_data(as_text=True),
        manhattan_client.get(f"/games/{game_id}/score").get_data(as_text=True),
        manhattan_client.get("/games").get_data(as_text=True),
    ]
    assert len(state["deck"]) >= 8
    for text in texts:
        assert str(SEED) not in text and '"rng"' not in text and '"deck"' not in text
        assert '"hands"' not in text
        for numbers in walk_int_lists(json.loads(text), []):
            assert not contains_run(numbers, state["deck"][:8])
            assert not contains_run(numbers, state["deck"][-8:])


def test_twenty_racing_moves_for_one_turn_apply_exactly_once(manhattan_app, manhattan_client):
    game_id, _, tokens = started_game(manhattan_client, 4, seed=9)
    game = view(manhattan_client, game_id)
    seat, before = game["to_act"][0], game["version"]
    token = tokens[seat]
    moves = manhattan_client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).get_json()[
        "moves"
    ]
    assert len(moves) >= 20
    barrier = threading.Barrier(20)
    results: list[Any] = [None] * 20

    def race(i):
        client = manhattan_app.test_client()
        barrier.wait()
        results[i] = post_move(client, game_id, token, moves[i])

    threads = [threading.Thread(target=race, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    winners = [i for i, r in enumerate(results) if r.status_code == 200]
    assert len(winners) == 1
    for i, r in enumerate(results):
        if i not in winners:
            assert_problem(r, 409, "not-your-turn")
    after = view(manhattan_client, game_id)
    assert after["version"] == before + 1 and after["to_act"] != [seat]
    events = manhattan_client.get(f"/games/{game_id}/events?after={before}").get_json()["events"]
    assert [e["type"] for e in events] == ["pieces_selected"]
    assert events[0]["pieces"] == moves[winners[0]]["pieces"]


def _rewrite_state(redis_client, game_id: str, change) -> None:
    key = f"mh:{{{game_id}}}:game"
    doc = load_doc(redis_client.get(key))
    doc["state"] = change(doc["state"])
    redis_client.set(key, json.dumps(doc), keepttl=True)


def test_a_game_stored_by_the_old_code_plays_on(manhattan_client, redis_client):
    """A document written before issue 13 (short state names) is renamed on load: its
    view is the same and the next move applies (docs/reliability.md)."""
    from services.manhattan.rules.state import OLD_NAMES

    old_name = {field: short for short, field in OLD_NAMES.items()}
    game_id, _, tokens = started_game(manhattan_client, 2, seed=SEED)
    before = view(manhattan_client, game_id, tokens[0])
    _rewrite_state(redis_client, game_id, lambda s: {old_name.get(k, k): v for k, v in s.items()})
    assert view(manhattan_client, game_id, tokens[0]) == before
    seat = before["to_act"][0]
    legal = manhattan_client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
    r = post_move(manhattan_client, game_id, tokens[seat], legal.get_json()["moves"][0])
    assert r.status_code == 200, r.get_json()


def test_a_state_no_version_can_read_is_a_409_problem(manhattan_client, redis_client):
    game_id, _, tokens = started_game(manhattan_client, 2, seed=SEED)
    _rewrite_state(redis_client, game_id, lambda s: {"format": "from the future"})
    r = manhattan_client.get(f"/games/{game_id}", headers=auth(tokens[0]))
    assert_problem(r, 409, "unsupported-game-version")

"""The Wind City service through Flask's test client: options and move validation,
the secret card and plan, and the insurance market answered by every seat at once."""

from __future__ import annotations

import json
import random
import threading

import pytest

from shared.store import load_doc
from tests.kit.helpers import assert_problem, auth, post_move, started_game, view

SEED = 5_551_234_987_000_111_222
SECRET_KEYS = {"card", "actions", "kauf", "plan", "number"}


def play_until(client, game_id, tokens, stop, rng, host=None):
    """Random legal moves (first seat to act) until ``stop(view)`` holds; ``host``: the
    host's token, to read the game live (a delayed spectator reads it behind)."""
    for _ in range(2000):
        game = view(client, game_id, host)
        if stop(game):
            return game
        seat = game["to_act"][0]
        moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        r = post_move(client, game_id, tokens[seat], rng.choice(moves.get_json()["moves"]))
        assert r.status_code == 200, r.get_json()
    raise AssertionError("never got there")


def test_create_defaults_and_validates_options(windcity_client):
    r = windcity_client.post("/games", json={})
    assert r.status_code == 201
    assert r.get_json()["game"]["options"] == {
        "players": 5,
        "play_area": "used_sections",
        "score_money": True,
        "max_turns": 100,
    }
    for bad, field in (
        ({"players": 6}, "players"),
        ({"play_area": "all"}, "play_area"),
        ({"score_money": "no"}, "score_money"),
        ({"max_turns": 9}, "max_turns"),
        ({"max_turns": 10.5}, "max_turns"),
        ({"speed": 1}, "speed"),
    ):
        problem = assert_problem(windcity_client.post("/games", json=bad), 422, "validation-error")
        assert field in problem["errors"]["json"]


@pytest.mark.parametrize(
    "move",
    [
        {"type": "place_hurricane", "square": "M1"},
        {"type": "place_hurricane", "square": "A25"},
        {"type": "place_hurricane", "square": "a1"},
        {"type": "place_hurricane"},
        {"type": "place_house", "square": 7},
        {"type": "plan", "actions": [], "kauf": None, "renew": []},
        {"type": "plan", "actions": [1, 2, 3, 4], "kauf": None, "renew": []},
        {"type": "plan", "actions": [6], "kauf": None, "renew": []},
        {"type": "plan", "actions": [1], "kauf": "Z9", "renew": []},
        {"type": "insure"},
        {"type": "insure", "squares": ["C7"], "extra": True},
    ],
)
def test_malformed_moves_are_422(windcity_client, move):
    game_id, _, tokens = started_game(windcity_client, 2, seed=1)
    seat = view(windcity_client, game_id)["to_act"][0]
    assert_problem(post_move(windcity_client, game_id, tokens[seat], move), 422, "validation-error")


def test_rule_errors_are_409_with_the_engines_code(windcity_client):
    game_id, _, tokens = started_game(windcity_client, 2, seed=1)
    seat = view(windcity_client, game_id)["to_act"][0]
    r = post_move(windcity_client, game_id, tokens[seat], {"type": "place_house", "square": "C7"})
    assert_problem(r, 409, "wrong-phase")
    r = post_move(
        windcity_client, game_id, tokens[1 - seat], {"type": "place_hurricane", "square": "C1"}
    )
    assert_problem(r, 409, "not-your-turn")


def in_market(game):
    return game["state"]["phase"] == "insure" and len(game["to_act"]) >= 2


@pytest.mark.parametrize("delay", [0, 3])  # issue 41: a delayed spectator too
def test_the_drawn_card_and_the_plan_stay_secret_until_resolved(
    windcity_client, redis_client, delay
):
    body = {"players": 4, "seed": SEED, "spectator_delay": delay}
    created = windcity_client.post("/games", json=body)
    game_id, host = created.get_json()["id"], created.get_json()["host_token"]
    tokens = [
        windcity_client.post(f"/games/{game_id}/players", json={"name": f"p{i}"}).get_json()[
            "token"
        ]
        for i in range(4)
    ]
    windcity_client.post(f"/games/{game_id}/start", headers=auth(host))
    version0 = view(windcity_client, game_id)["version"]
    game = play_until(windcity_client, game_id, tokens, in_market, random.Random(3), host)
    state = load_doc(redis_client.get(f"wc:{{{game_id}}}:game"))["state"]
    active = game["state"]["active"]
    assert state["plan"] is not None and state["card"] is not None
    mine = view(windcity_client, game_id, tokens[active])["state"]["you"]
    assert mine["card"]["number"] == state["card"]
    assert mine["plan"]["actions"] == state["plan"]["actions"]
    texts = []
    for seat, token in enumerate(tokens):
        if seat != active:
            you = view(windcity_client, game_id, token)["state"]["you"]
            assert you["seat"] == seat and you["card"] is None and you["plan"] is None
            texts.append(json.dumps(view(windcity_client, game_id, token)))
    spectator = view(windcity_client, game_id)
    assert spectator["state"].get("you") is None
    behind = view(windcity_client, game_id, host)["version"] - spectator["version"]
    assert (behind > 0) == (delay > 0)  # the spectator reads 3 moves back
    texts.append(json.dumps(spectator))
    events = windcity_client.get(f"/games/{game_id}/events?after={version0}").get_json()["events"]
    last_reveal = max((i for i, e in enumerate(events) if e["type"] == "turn_revealed"), default=-1)
    for event in events[last_reveal + 1 :]:
        assert not SECRET_KEYS & set(event), event
    texts += [
        json.dumps(events),
        windcity_client.get(f"/games/{game_id}/log").get_data(as_text=True),
        windcity_client.get(f"/games/{game_id}/score").get_data(as_text=True),
    ]
    for text in texts:
        assert str(SEED) not in text and '"rng"' not in text and '"deck"' not in text


def test_every_seat_answers_the_insurance_market_at_once_and_it_resolves_once(
    windcity_app, windcity_client
):
    game_id, _, tokens = started_game(windcity_client, 5, seed=12)
    game = play_until(
        windcity_client,
        game_id,
        tokens,
        lambda g: in_market(g) and len(g["to_act"]) >= 3,
        random.Random(8),
    )
    before, pending = game["version"], game["to_act"]
    turn = game["state"]["turn"]
    barrier = threading.Barrier(len(pending))
    results = {}

    def answer(seat):
        client = windcity_app.test_client()
        barrier.wait()
        results[seat] = post_move(client, game_id, tokens[seat], {"type": "insure", "squares": []})

    threads = [threading.Thread(target=answer, args=(s,)) for s in pending]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert {s: r.status_code for s, r in results.items()} == {s: 200 for s in pending}
    versions = sorted(r.get_json()["game"]["version"] for r in results.values())
    assert versions == list(range(before + 1, before + 1 + len(pending)))
    events = windcity_client.get(f"/games/{game_id}/events?after={before}").get_json()["events"]
    kinds = [e["type"] for e in events]
    assert kinds.count("insured") == len(pending)
    assert kinds.count("turn_revealed") == 1
    # the resolution happened inside the last answer's write
    reveal = next(e for e in events if e["type"] == "turn_revealed")
    assert reveal["version"] == before + len(pending)
    after = view(windcity_client, game_id)
    assert after["state"]["turn"] == turn + 1 or after["status"] == "finished"

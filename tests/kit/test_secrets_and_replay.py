"""Nothing secret leaks (tokens, hashes, seed, RNG, other seats' cards and picks), and a
finished game replays from its log to the same score (toy game)."""

from __future__ import annotations

import json
import random
from typing import Any

from shared.store import load_doc
from tests.kit import toy_engine
from tests.kit.helpers import auth, post_move, started_game

SEED = 7_319_428_601_553_187_211


def play_to_the_end(client, game_id, tokens, rng, bodies):
    """Random legal moves until the game is over; every response body goes to ``bodies``."""
    while True:
        game = client.get(f"/games/{game_id}").get_json()
        bodies.append(("spectator", json.dumps(game)))
        if game["status"] != "running":
            return game
        seat = rng.choice(game["to_act"])
        moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        bodies.append((seat, moves.get_data(as_text=True)))
        r = post_move(client, game_id, tokens[seat], rng.choice(moves.get_json()["moves"]))
        assert r.status_code == 200, r.get_json()
        bodies.append((seat, r.get_data(as_text=True)))
        for other, token in enumerate(tokens):
            bodies.append(
                (other, client.get(f"/games/{game_id}", headers=auth(token)).get_data(as_text=True))
            )


def test_no_response_or_event_leaks_a_secret(toy_client, redis_client):
    created = toy_client.post("/games", json={"players": 3, "rounds": 2, "seed": SEED})
    game_id, host = created.get_json()["id"], created.get_json()["host_token"]
    joined = [toy_client.post(f"/games/{game_id}/players", json={"name": n}) for n in "abc"]
    tokens = [j.get_json()["token"] for j in joined]
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    doc = load_doc(redis_client.get(f"toy:{{{game_id}}}:game"))
    hashes = [doc["host"], *(p["token_hash"] for p in doc["players"])]
    bodies: list[Any] = []
    # while it runs: nobody sees the seed, the RNG, a hash or a token not their own
    rng = random.Random(1)
    game = toy_client.get(f"/games/{game_id}").get_json()
    caller = game["to_act"][0]
    post_move(toy_client, game_id, tokens[caller], {"type": "call", "value": 2})
    picker = (caller + 1) % 3
    post_move(toy_client, game_id, tokens[picker], {"type": "pick", "value": 3})
    state = load_doc(redis_client.get(f"toy:{{{game_id}}}:game"))["state"]
    for seat, token in enumerate(tokens):
        mine = toy_client.get(f"/games/{game_id}", headers=auth(token)).get_json()["state"]
        assert mine["my_card"] == state["cards"][seat]
        assert mine["my_pick"] == (3 if seat == picker else None)
    spectator = toy_client.get(f"/games/{game_id}").get_json()["state"]
    assert spectator["my_card"] is None and spectator["picked"] == [picker]
    events = toy_client.get(f"/games/{game_id}/events").get_json()["events"]
    picked = [e for e in events if e["type"] == "picked"]
    assert picked == [{"type": "picked", "seat": picker, "version": 7, "id": "7-0"}]
    running = [
        toy_client.get(f"/games/{game_id}/log").get_data(as_text=True),
        toy_client.get(f"/games/{game_id}/score").get_data(as_text=True),
        toy_client.get("/games").get_data(as_text=True),
        json.dumps(events),
    ]
    assert "seed" not in json.loads(running[0]) and "moves" not in json.loads(running[0])
    play_to_the_end(toy_client, game_id, tokens, rng, bodies)
    for text in running + [b for _, b in bodies]:
        assert (
            str(SEED) not in text
            or "seed" in text
            and json.loads(text).get("status") in ("finished", "cancelled")
        )
        assert '"rng"' not in text
        for secret in (host, *hashes):
            assert secret not in text
    for seat, text in bodies:
        for other, token in enumerate(tokens):
            assert token not in text, (seat, other)
    # once over, the log tells the seed and the moves
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert log["seed"] == SEED and log["status"] == "finished"


def test_a_finished_game_replays_from_its_log_to_the_same_score(toy_client):
    game_id, _, tokens = started_game(toy_client, 4, rounds=3)
    final = play_to_the_end(toy_client, game_id, tokens, random.Random(5), [])
    assert final["status"] == "finished" and final["to_act"] == []
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert [e["type"] for e in log["events"]][-1] == "game_finished"
    options = dict(log["options"])
    state = toy_engine.setup(options.pop("players"), options, log["seed"])
    versions = []
    for entry in log["moves"]:
        state, _ = toy_engine.apply_move(state, entry["seat"], entry["move"])
        versions.append(entry["version"])
    assert versions == sorted(set(versions)) and versions[-1] == final["version"]
    score = toy_client.get(f"/games/{game_id}/score").get_json()
    assert score["score"] == toy_engine.score(state)
    assert score["result"] == toy_engine.result(state) == final["result"]
    assert toy_engine.is_over(state)

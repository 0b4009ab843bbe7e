"""Commit, then reveal: a seed the service picks is committed to at creation (every view
and listing entry carries the commitment) and revealed with its salt once the game is
over, never before; a seed chosen by the creator says so, and can be refused."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from shared.store import load_doc
from tests.kit import toy_engine
from tests.kit.helpers import assert_problem, auth, create, started_game, view
from tests.kit.test_secrets_and_replay import play_to_the_end

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _commit(seed: int, salt: str) -> str:
    """The documented encoding (docs/api.md), written out independently of the service."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def _heads(client, game_id: str, tokens: list[str]) -> list[dict]:
    """Every public head of the game: spectator and seat views, listing entry, log."""
    views = [view(client, game_id)] + [view(client, game_id, t) for t in tokens]
    listed = [g for g in client.get("/games").get_json()["games"] if g["id"] == game_id]
    log = client.get(f"/games/{game_id}/log").get_json()
    return [*views, *listed, log]


def test_a_picked_seed_is_committed_to_everywhere_and_revealed_once_over(toy_client, redis_client):
    created = toy_client.post("/games", json={"players": 3, "rounds": 2})
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    commitment = created.get_json()["game"]["seed_commitment"]
    assert HEX64.match(commitment) and created.get_json()["game"]["seed_chosen"] is False
    tokens = [
        toy_client.post(f"/games/{game_id}/players", json={"name": n}).get_json()["token"]
        for n in ("a", "b", "c")
    ]
    toy_client.post(f"/games/{game_id}/start", headers=auth(created.get_json()["host_token"]))
    stored = load_doc(redis_client.get(f"toy:{{{game_id}}}:game"))
    seed, salt = stored["seed"], stored["salt"]
    assert re.fullmatch(r"[0-9a-f]{32}", salt) and _commit(seed, salt) == commitment
    bodies: list = []
    for head in _heads(toy_client, game_id, tokens):
        assert head["seed_commitment"] == commitment and head["seed_chosen"] is False
        assert "seed" not in head and "salt" not in head  # not while it runs
        bodies.append(("head", json.dumps(head)))
    final = play_to_the_end(toy_client, game_id, tokens, random.Random(3), bodies)
    assert final["status"] == "finished"
    # no view, listing, log while running or move answer told the salt or the seed
    assert len(bodies) > 20
    assert not any(salt in text or str(seed) in text for _, text in bodies)
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert log["seed_commitment"] == commitment
    assert (log["seed"], log["salt"]) == (seed, salt)
    assert _commit(log["seed"], log["salt"]) == log["seed_commitment"]
    # ... and the revealed seed replays to the same result
    options = dict(log["options"])
    state = toy_engine.setup(options.pop("players"), options, log["seed"])
    for entry in log["moves"]:
        state, _ = toy_engine.apply_move(state, entry["seat"], entry["move"])
    assert toy_engine.result(state) == final["result"]


@pytest.mark.parametrize("start", [False, True])
def test_a_cancelled_game_reveals_its_seed_too(toy_client, start):
    if start:
        game_id, host, _ = started_game(toy_client, 2)
    else:
        game_id, host = create(toy_client, players=2)
    running = toy_client.get(f"/games/{game_id}/log").get_json()
    assert "seed" not in running and "salt" not in running
    assert toy_client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert _commit(log["seed"], log["salt"]) == log["seed_commitment"]


def test_commitments_differ_between_games(toy_client):
    commitments = {
        toy_client.post("/games", json={}).get_json()["game"]["seed_commitment"] for _ in range(5)
    }
    assert len(commitments) == 5


def test_a_chosen_seed_says_so_and_has_no_commitment(toy_client):
    game_id, host, tokens = started_game(toy_client, 2, seed=42)
    for head in _heads(toy_client, game_id, tokens):
        assert head["seed_chosen"] is True and head["seed_commitment"] is None
    toy_client.delete(f"/games/{game_id}", headers=auth(host))
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert log["seed"] == 42 and log["salt"] is None


def test_chosen_seeds_can_be_refused(make_app, redis_client):
    client = make_app("toy", ALLOW_CHOSEN_SEED="0").test_client()
    r = client.post("/games", json={"players": 2, "seed": 7})
    body = assert_problem(r, 422, "option-not-allowed")
    assert "ALLOW_CHOSEN_SEED" in body["detail"]
    assert client.get("/games").get_json()["games"] == []
    assert redis_client.dbsize() == 0
    ok = client.post("/games", json={"players": 2})
    assert ok.status_code == 201 and ok.get_json()["game"]["seed_chosen"] is False


def test_chosen_seeds_are_allowed_by_default(toy_client):
    assert toy_client.post("/games", json={"seed": 7}).status_code == 201


def test_games_stored_before_commitments_still_load(toy_client, redis_client):
    game_id, host, tokens = started_game(toy_client, 2)
    key = f"toy:{{{game_id}}}:game"
    doc = load_doc(redis_client.get(key))
    for field in ("salt", "seed_commitment", "seed_chosen"):
        del doc[field]
    redis_client.set(key, json.dumps(doc, separators=(",", ":")), keepttl=True)
    # older code wrote it: this process never held it (a version's document never changes)
    for head in _heads(toy_client, game_id, tokens):
        assert head["seed_commitment"] is None and head["seed_chosen"] is False
    assert toy_client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert log["seed"] == doc["seed"] and log["salt"] is None


def test_the_openapi_document_shows_the_fields(toy_client):
    schemas = toy_client.get("/openapi.json").get_json()["components"]["schemas"]
    for name in ("View", "Summary", "Log"):
        props = schemas[name]["properties"]
        assert {"seed_commitment", "seed_chosen"} <= set(props), name
    assert {"seed", "salt", "moves"} <= set(schemas["Log"]["properties"])


def test_the_documented_example_holds_for_the_service_and_the_verifier():
    """docs/api.md's worked example, computed by the service's code and the CLI's."""
    from clients.cli import verify
    from shared.games import fairness

    docs = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    salt = "000102030405060708090a0b0c0d0e0f"
    example = _commit(42, salt)
    assert fairness.commitment(42, salt) == verify.commitment(42, salt) == example
    assert f"`42:{salt}`\nto `{example}`" in docs

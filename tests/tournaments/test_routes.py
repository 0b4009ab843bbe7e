"""The tournament routes (shared/http/resources/tournaments.py) on the toy game: create
(a clock required), register, withdraw, the host's start, the worker's rounds and the
paged standings; problems for bad input."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from shared.usecases import tournament_rounds
from tests.kit.helpers import auth
from tests.tournaments.test_rounds import run


def new_player(client: FlaskClient, name: str) -> tuple[str, str]:
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["key"]


def doc_entries(client: FlaskClient, tid: str) -> dict[str, Any]:
    return dict(client.get(f"/tournaments/{tid}").get_json()["entries"])


SPEC: dict[str, Any] = {
    "name": "Weekly",
    "rounds": 2,
    "table_size": 4,
    "clock": {"turn_seconds": 30},
    "bots": ["random"] * 6,
}


def test_a_tournament_from_creation_to_standings(toy_app: Flask, toy_client: FlaskClient) -> None:
    host, host_key = new_player(toy_client, "Host")
    r = toy_client.post("/tournaments", json=SPEC, headers=auth(host_key))
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    assert r.headers["Location"] == f"/tournaments/{tid}"
    ann, ann_key = new_player(toy_client, "Ann")
    bob, bob_key = new_player(toy_client, "Bob")
    for key in (ann_key, bob_key):
        r = toy_client.post(f"/tournaments/{tid}/players", headers=auth(key))
        assert r.status_code == 200, r.get_json()
    r = toy_client.delete(f"/tournaments/{tid}/players/me", headers=auth(bob_key))
    assert r.status_code == 200 and bob not in r.get_json()["entries"]
    assert ann in r.get_json()["entries"]
    r = toy_client.post(f"/tournaments/{tid}/start", headers=auth(ann_key))
    assert r.status_code == 403 and r.get_json()["code"] == "not-host"
    r = toy_client.post(f"/tournaments/{tid}/start", headers=auth(host_key))
    assert r.status_code == 200
    games = toy_app.extensions["game_kit"].games
    tournament_rounds.advance(games, tid)
    r = toy_client.post(f"/tournaments/{tid}/players", headers=auth(bob_key))
    assert r.status_code == 409 and r.get_json()["code"] == "tournament-started"
    assert doc_entries(toy_client, tid)[ann]["rating"] == 1000  # a new player's rating
    mid = toy_client.get(f"/tournaments/{tid}/standings").get_json()
    assert mid["round"] == 1 and all(row["points"] == 0 for row in mid["items"])
    # Ann's seat: her table's game holds her, bound to her player
    doc = toy_client.get(f"/tournaments/{tid}").get_json()
    assert doc["place_points"]["4"] == [6, 4, 2, 0]  # the defaults, as the page shows them
    (table,) = [t for t in doc["history"][0]["tables"] if ann in t["players"]]
    game = toy_client.get(f"/games/{table['game']}").get_json()
    assert game["status"] == "running"
    # nobody plays for Ann: her seat times out and the takeover bot plays (here forced)
    games.settings["CLOCK_MIN_TURN_SECONDS"] = 0
    final = run(games, tid, steps=60, timeouts=True)
    assert final["status"] == "finished"
    # Ann never played: the takeover bot played her seats, she scored as they placed and
    # after MISSED_LIMIT missed games she was withdrawn
    assert final["entries"][ann]["missed"] == 2 and final["entries"][ann]["withdrawn"]
    first = toy_client.get(f"/tournaments/{tid}/standings?limit=3").get_json()
    assert len(first["items"]) == 3 and first["next_cursor"] == "3"
    rest = toy_client.get(f"/tournaments/{tid}/standings?limit=50&cursor=3").get_json()
    assert rest["next_cursor"] is None
    rows = first["items"] + rest["items"]
    assert [row["place"] for row in rows] == list(range(1, 8))
    assert {row["player"] for row in rows} == set(final["entries"])
    assert all(len(row["games"]) == 2 for row in rows if row["byes"] == 0)
    listed = toy_client.get("/tournaments").get_json()
    assert [item["id"] for item in listed["items"]] == [tid]
    assert listed["items"][0]["players"] == len(final["entries"])  # a count, not the entries
    assert "entries" not in listed["items"][0]


def test_bad_tournaments_are_problems_not_errors(toy_client: FlaskClient) -> None:
    _, key = new_player(toy_client, "Host")
    no_clock = {k: v for k, v in SPEC.items() if k != "clock"}
    r = toy_client.post("/tournaments", json=no_clock, headers=auth(key))
    assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json"
    r = toy_client.post("/tournaments", json={**SPEC, "table_size": 9}, headers=auth(key))
    assert r.status_code == 422
    r = toy_client.post("/tournaments", json=SPEC)
    assert r.status_code == 401
    assert toy_client.get("/tournaments/nope").status_code == 404
    assert toy_client.get("/tournaments/0123456789abcdef/standings").status_code == 404
    assert toy_client.get("/tournaments?cursor=x").status_code == 422


def test_a_tournament_read_again_while_unchanged_is_a_bodiless_304(
    toy_client: FlaskClient,
) -> None:
    _, host_key = new_player(toy_client, "Host")
    tid = toy_client.post("/tournaments", json=SPEC, headers=auth(host_key)).get_json()["id"]
    first = toy_client.get(f"/tournaments/{tid}")
    version = first.get_json()["version"]
    assert first.headers["ETag"] == f'"{version}"'
    same = toy_client.get(f"/tournaments/{tid}", headers={"If-None-Match": f'"{version}"'})
    assert same.status_code == 304 and same.data == b"" and same.headers["ETag"] == f'"{version}"'
    _, ann_key = new_player(toy_client, "Ann")
    toy_client.post(f"/tournaments/{tid}/players", headers=auth(ann_key))  # a change
    moved = toy_client.get(f"/tournaments/{tid}", headers={"If-None-Match": f'"{version}"'})
    assert moved.status_code == 200 and moved.get_json()["version"] > version
    assert len(moved.get_json()["entries"]) == len(SPEC["bots"]) + 1  # the bots and Ann
    missing = toy_client.get("/tournaments/t0000000000", headers={"If-None-Match": '"1"'})
    assert missing.status_code == 404

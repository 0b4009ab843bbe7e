"""An API key's tenant as a tournament's host (issue 43): a platform's backend with its
API key alone (no ``X-Player``) creates, starts and ends a tournament and removes
players; another key is not its host, and only the tenant's own players play in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from clients.cli import admin
from shared.usecases import tournament_rounds
from tests.kit.helpers import assert_problem, auth

SPEC: dict[str, Any] = {"rounds": 1, "table_size": 2, "clock": {"turn_seconds": 30}}


@pytest.fixture
def platform(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[Flask, str, str]:
    keys = tmp_path / "keys.json"
    acme, _ = admin.add(keys, "acme", 0, 0)
    globex, _ = admin.add(keys, "globex", 0, 0)
    return make_app("toy", API_KEYS_FILE=str(keys)), acme, globex


def user(client: FlaskClient, key: str, external: str) -> tuple[str, dict[str, str]]:
    r = client.post("/players", json={"name": external, "external_id": external}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], {**auth(key), "X-Player": external}


def test_a_platform_hosts_with_its_api_key_alone(platform) -> None:
    app, acme, globex = platform
    client = app.test_client()
    r = client.post("/tournaments", json=SPEC, headers=auth(acme))
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["id"]
    ann, as_ann = user(client, acme, "ann")
    bob, as_bob = user(client, acme, "bob")
    cid, as_cid = user(client, acme, "cid")
    _, as_zed = user(client, globex, "zed")
    for headers in (as_ann, as_bob, as_cid):
        assert client.post(f"/tournaments/{tid}/players", headers=headers).status_code == 200
    # another platform's player never sits with acme's
    r = client.post(f"/tournaments/{tid}/players", headers=as_zed)
    assert_problem(r, 403, "tournament-other-tenant")
    # neither another key nor acme's own player is the host
    for headers in (auth(globex), as_ann, as_zed):
        assert_problem(client.post(f"/tournaments/{tid}/start", headers=headers), 403, "not-host")
        r = client.delete(f"/tournaments/{tid}/players/{bob}", headers=headers)
        assert_problem(r, 403, "not-host")
        assert_problem(client.post(f"/tournaments/{tid}/end", headers=headers), 403, "not-host")
    assert_problem(client.post(f"/tournaments/{tid}/start"), 401, "player-key-required")
    assert_problem(
        client.post(f"/tournaments/{tid}/start", headers=auth("bgk_nope")),
        403,
        "player-key-required",
    )
    r = client.delete(f"/tournaments/{tid}/players/{cid}", headers=auth(acme))
    assert r.status_code == 200 and sorted(r.get_json()["entries"]) == sorted([ann, bob])
    assert client.post(f"/tournaments/{tid}/start", headers=auth(acme)).status_code == 200
    kit = app.extensions["game_kit"].games
    tournament_rounds.advance(kit, tid)
    doc = client.get(f"/tournaments/{tid}").get_json()
    (table,) = doc["history"][0]["tables"]
    game = kit.writes.load(table["game"])
    assert sorted(p["player"] for p in game["players"]) == sorted([ann, bob])
    r = client.delete(f"/tournaments/{tid}/players/{bob}", headers=auth(acme))  # mid-round
    assert r.status_code == 200 and r.get_json()["entries"][bob]["withdrawn"]
    r = client.post(f"/tournaments/{tid}/end", headers=auth(acme))
    assert r.status_code == 200 and r.get_json()["end_requested"]


def test_each_platform_s_tournament_seats_its_own_players_only(platform) -> None:
    app, acme, globex = platform
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    tenants: dict[str, str] = {}
    made = []
    for key, name in ((acme, "a"), (globex, "g")):
        tid = client.post("/tournaments", json=SPEC, headers=auth(key)).get_json()["id"]
        for n in range(4):
            pid, headers = user(client, key, f"{name}{n}")
            tenants[pid] = name
            assert client.post(f"/tournaments/{tid}/players", headers=headers).status_code == 200
        assert client.post(f"/tournaments/{tid}/start", headers=auth(key)).status_code == 200
        made.append(tid)
    for tid in made:
        tournament_rounds.advance(kit, tid)
        for table in client.get(f"/tournaments/{tid}").get_json()["history"][0]["tables"]:
            seated = [p["player"] for p in kit.writes.load(table["game"])["players"]]
            assert len({tenants[p] for p in seated}) == 1, "never two platforms at a table"

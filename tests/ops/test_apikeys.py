"""API keys: off by default; when API_KEYS_FILE is set, enforced on creating and listing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from flask import Flask

from clients.cli import admin
from tests.kit.helpers import stored_text

OPTIONS = {"players": 2}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def keys_file(tmp_path: Path) -> Path:
    return tmp_path / "keys.json"


def test_off_by_default(manhattan_client) -> None:
    assert manhattan_client.post("/games", json=OPTIONS).status_code == 201
    assert manhattan_client.get("/games").status_code == 200


def test_keys_enforced_and_each_key_sees_only_its_games(
    make_app: Callable[..., Flask], keys_file: Path, redis_client: redis.Redis
) -> None:
    acme, _ = admin.add(keys_file, "acme", 0, 0)
    globex, globex_entry = admin.add(keys_file, "globex", 0, 0)
    client = make_app("manhattan", API_KEYS_FILE=str(keys_file)).test_client()

    missing = client.post("/games", json=OPTIONS)
    assert missing.status_code == 401
    assert missing.content_type == "application/problem+json"
    assert missing.json["code"] == "api-key-required"
    assert "WWW-Authenticate" in missing.headers
    wrong = client.post("/games", json=OPTIONS, headers=bearer("bgk_not-a-key"))
    assert (wrong.status_code, wrong.json["code"]) == (403, "invalid-api-key")
    assert client.get("/games").status_code == 401

    mine = {client.post("/games", json=OPTIONS, headers=bearer(acme)).json["id"] for _ in range(3)}
    theirs = client.post("/games", json=OPTIONS, headers=bearer(globex)).json["id"]
    listed = client.get("/games", headers=bearer(acme)).json["games"]
    assert {g["id"] for g in listed} == mine
    assert [g["id"] for g in client.get("/games", headers=bearer(globex)).json["games"]] == [theirs]
    # pages of a key's own listing
    page = client.get("/games?limit=2", headers=bearer(acme)).json
    rest = client.get(f"/games?cursor={page['next_cursor']}", headers=bearer(acme)).json
    assert {g["id"] for g in page["games"] + rest["games"]} == mine

    # the game records its key's id, never the key; nothing stores the key itself
    doc = stored_text(redis_client, f"mh:{{{theirs}}}:game")
    assert f'"owner":"{globex_entry["id"]}"' in doc
    for name in redis_client.keys("*"):
        kind = redis_client.type(name)
        dump = {
            "string": lambda n: stored_text(redis_client, n),
            "zset": lambda n: str(redis_client.zrange(n, 0, -1)),
            "hash": lambda n: str(redis_client.hgetall(n)),
            "list": lambda n: str(redis_client.lrange(n, 0, -1)),
            "stream": lambda n: str(redis_client.xrange(n)),
        }[str(kind)](name)
        assert acme not in dump and globex not in dump

    # seat and host tokens work as before on a keyed game
    created = client.post("/games", json=OPTIONS, headers=bearer(acme)).json
    gid = created["id"]
    assert client.post(f"/games/{gid}/players", json={"name": "ann"}).status_code == 201
    assert client.post(f"/games/{gid}/players", json={"name": "bob"}).status_code == 201
    start = client.post(f"/games/{gid}/start", headers=bearer(created["host_token"]))
    assert start.status_code == 200


def test_revoking_takes_effect_without_restart(
    make_app: Callable[..., Flask], keys_file: Path
) -> None:
    key, entry = admin.add(keys_file, "acme", 0, 0)
    client = make_app("manhattan", API_KEYS_FILE=str(keys_file)).test_client()
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201
    # the admin command as an operator runs it
    env = {**os.environ, "API_KEYS_FILE": str(keys_file)}
    cli = [sys.executable, "-m", "clients.cli", "admin", "keys"]
    subprocess.run([*cli, "revoke", entry["id"]], env=env, check=True, capture_output=True)
    listed = subprocess.run([*cli, "list"], env=env, check=True, capture_output=True, text=True)
    assert "revoked" in listed.stdout and entry["hash"] not in listed.stdout
    refused = client.post("/games", json=OPTIONS, headers=bearer(key))
    assert (refused.status_code, refused.json["code"]) == (403, "invalid-api-key")


def test_add_prints_the_key_once_and_stores_only_its_hash(keys_file: Path) -> None:
    env = {**os.environ, "API_KEYS_FILE": str(keys_file)}
    out = subprocess.run(
        [sys.executable, "-m", "clients.cli", "admin", "keys", "add", "--name", "acme"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    key = next(word for word in out.split() if word.startswith(admin.KEY_PREFIX))
    stored = keys_file.read_text()
    assert key not in stored and admin.hash_key(key) in stored
    assert oct(keys_file.stat().st_mode & 0o777) == "0o600"


def test_games_per_hour_quota(make_app: Callable[..., Flask], keys_file: Path) -> None:
    key, _ = admin.add(keys_file, "acme", 2, 0)
    client = make_app("manhattan", API_KEYS_FILE=str(keys_file)).test_client()
    # a refused create (bad options) does not use up the quota
    assert client.post("/games", json={"players": 9}, headers=bearer(key)).status_code == 422
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201
    over = client.post("/games", json=OPTIONS, headers=bearer(key))
    assert over.status_code == 429
    assert over.json["code"] == "quota-exceeded"
    assert 3590 <= int(over.headers["Retry-After"]) <= 3600
    assert over.json["request_id"] == over.headers["X-Request-Id"]
    assert len(client.get("/games", headers=bearer(key)).json["games"]) == 2


def test_live_games_quota(make_app: Callable[..., Flask], keys_file: Path) -> None:
    key, _ = admin.add(keys_file, "acme", 0, 2)
    client = make_app("manhattan", API_KEYS_FILE=str(keys_file)).test_client()
    first = client.post("/games", json=OPTIONS, headers=bearer(key)).json
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201
    over = client.post("/games", json=OPTIONS, headers=bearer(key))
    assert (over.status_code, over.json["code"]) == (429, "quota-exceeded")
    assert int(over.headers["Retry-After"]) >= 1
    # cancelling one frees its place
    gone = client.delete(f"/games/{first['id']}", headers=bearer(first["host_token"]))
    assert gone.status_code == 200
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201


def test_a_malformed_keys_file_stops_the_app_at_start(
    make_app: Callable[..., Flask], keys_file: Path
) -> None:
    keys_file.write_text("{not json")
    with pytest.raises(ValueError, match="API_KEYS_FILE"):
        make_app("manhattan", API_KEYS_FILE=str(keys_file))


def test_a_broken_edit_keeps_the_last_good_keys(
    make_app: Callable[..., Flask], keys_file: Path
) -> None:
    key, _ = admin.add(keys_file, "acme", 0, 0)
    client = make_app("manhattan", API_KEYS_FILE=str(keys_file)).test_client()
    time.sleep(0.01)
    keys_file.write_text('{"keys": [')  # a hand edit gone wrong
    assert client.post("/games", json=OPTIONS, headers=bearer(key)).status_code == 201


def test_without_keys_a_game_is_owned_by_its_address_for_the_worker_only(
    make_app: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    """Without keys a game's ``owner`` is its creator's address (the IPv6 /64, as the
    per-address limits count it): the worker shares itself fairly between owners. The
    listing stays public and no per-address listing or quota set is kept."""
    client = make_app("manhattan").test_client()
    for address, owner in [
        ("203.0.113.9", "addr:203.0.113.9"),
        ("2001:db8:1:2:aaaa::1", "addr:2001:db8:1:2::/64"),
        ("::ffff:198.51.100.4", "addr:198.51.100.4"),
    ]:
        created = client.post("/games", json=OPTIONS, environ_base={"REMOTE_ADDR": address})
        assert created.status_code == 201
        doc = stored_text(redis_client, f"mh:{{{created.get_json()['id']}}}:game")
        assert f'"owner":"{owner}"' in doc
    assert len(client.get("/games").get_json()["games"]) == 3
    assert redis_client.keys("mh:key:*") == []

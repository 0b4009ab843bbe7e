"""Redis out of memory (``maxmemory`` with ``noeviction``): writes are a clean ``503
storage-full`` with Retry-After, reads go on, readiness says so, nothing is half-done."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from services.manhattan.rules import ENGINE as engine
from tests.conftest import _factory
from tests.kit.helpers import assert_problem, auth, create, started_game, view
from tests.reliability.conftest import RedisServer, assert_consistent


def _app(server: RedisServer) -> Any:
    return _factory("manhattan")({"REDIS_URL": server.url, "TESTING": True})


def _fill(server: RedisServer, full: bool) -> None:
    """Make Redis refuse every write (1 byte of ``maxmemory``), or lift the limit."""
    client = server.client()
    client.config_set("maxmemory-policy", "noeviction")
    client.config_set("maxmemory", "1" if full else "0")
    client.close()


def _keys(server: RedisServer) -> list[str]:
    client = server.client()
    try:
        return sorted(str(key) for key in client.keys("mh:*"))
    finally:
        client.close()


def _acting_move(client: Any, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    token = tokens[view(client, game_id)["to_act"][0]]
    moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).get_json()["moves"]
    return token, moves[0]


def test_writes_are_503_storage_full_reads_go_on(own_redis: RedisServer) -> None:
    app = _app(own_redis)
    client = app.test_client()
    game_id, host, tokens = started_game(client, 2)
    open_id, _ = create(client)
    token, move = _acting_move(client, game_id, tokens)
    before = view(client, game_id)
    keys = _keys(own_redis)
    _fill(own_redis, True)
    try:
        writes = [
            client.post("/games", json={}),
            client.post(f"/games/{open_id}/players", json={"name": "late"}),
            client.post(f"/games/{game_id}/moves", json=move, headers=auth(token)),
            client.post(
                f"/games/{game_id}/moves",
                json=move,
                headers={**auth(token), "Idempotency-Key": "k1"},
            ),
            client.delete(f"/games/{game_id}", headers=auth(host)),
        ]
        for r in writes:
            assert_problem(r, 503, "storage-full")
            assert int(r.headers["Retry-After"]) > 0
        assert view(client, game_id) == before  # reads still answer, nothing changed
        assert client.get("/games").status_code == 200
        assert client.get(f"/games/{game_id}/events").status_code == 200
        r = client.get("/readyz")
        assert_problem(r, 503, "storage-full")
        assert int(r.headers["Retry-After"]) > 0
        assert client.get("/healthz").status_code == 200
        assert _keys(own_redis) == keys  # no half-created game anywhere
    finally:
        _fill(own_redis, False)
    assert client.get("/readyz").status_code == 200
    r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(token))
    assert r.status_code == 200, r.get_json()
    assert_consistent(own_redis.client(), "mh", engine, game_id)


def test_a_create_that_fails_half_way_leaves_nothing(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The document is written, then Redis refuses the listing's ZADD: the create is a
    503, and neither the document nor a listed id remains."""
    app = _app(own_redis)
    client = app.test_client()
    kept, _ = create(client)
    store = app.extensions["game_kit"].games.store
    real_add = store.index_add

    def add_after_filling(game_id: str, created_us: int, max_age_s: int) -> None:
        _fill(own_redis, True)  # the document got in; memory runs out right now
        real_add(game_id, created_us, max_age_s)

    monkeypatch.setattr(store, "index_add", add_after_filling)
    try:
        assert_problem(client.post("/games", json={}), 503, "storage-full")
        ids = [g["id"] for g in client.get("/games").get_json()["games"]]
        assert ids == [kept]
        assert {k.split("{")[1].split("}")[0] for k in _keys(own_redis) if "{" in k} == {kept}
    finally:
        _fill(own_redis, False)


def test_readiness_is_a_write_not_a_ping(own_redis: RedisServer) -> None:
    """A read-only Redis (a replica) answers PING but refuses writes: not ready either."""
    client = _app(own_redis).test_client()
    assert client.get("/readyz").status_code == 200
    admin = own_redis.client()
    other = RedisServer()
    other.start()
    try:
        admin.replicaof("127.0.0.1", other.port)
        r = client.get("/readyz")
        assert_problem(r, 503, "storage-unavailable")
        assert_problem(client.post("/games", json={}), 503, "storage-unavailable")
        assert admin.ping()
    finally:
        admin.replicaof("NO", "ONE")
        admin.close()
        other.stop()
    assert client.get("/readyz").status_code == 200


def test_out_of_memory_is_what_redis_raises(own_redis: RedisServer) -> None:
    """The premise: redis-py raises OutOfMemoryError for scripts and plain writes alike."""
    client = own_redis.client()
    script = client.register_script("return redis.call('SET', KEYS[1], ARGV[1])")
    _fill(own_redis, True)
    try:
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            script(keys=["mh:x"], args=["1"])
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            client.zadd("mh:games", {"x": 1})
        assert client.delete("mh:nothing") == 0  # DEL frees memory: always allowed
    finally:
        _fill(own_redis, False)
        client.close()

"""The store's short path for its hot commands (shared/fastcall.py): the same replies
and errors as redis-py's ordinary path, redis-py's retry on a broken connection, and
no connection kept from the pool."""

from __future__ import annotations

import pytest
import redis
import redis.connection
import redis.exceptions

from shared import fastcall
from tests.kit.helpers import post_move, started_game, view


@pytest.fixture
def client(redis_client):
    """The test Redis's client: a plain ``Redis`` takes the short path, a
    ``RedisCluster`` (TEST_REDIS_CLUSTER=1) redis-py's own, with the same results."""
    return redis_client


def no_connection_kept(client) -> bool:
    """Every pooled connection is back in its pool (on a cluster, each node's pool)."""
    if isinstance(client, redis.RedisCluster):
        pools = [node.redis_connection.connection_pool for node in client.get_nodes()]
    else:
        pools = [client.connection_pool]
    return not any(pool._in_use_connections for pool in pools)


def test_replies_are_redis_pys_own(client):
    client.set("{t}a", "é" * 3)
    assert fastcall.call(client, "GET", "{t}a") == client.get("{t}a") == "ééé"
    assert fastcall.call(client, "GET", "{t}nothing") is None
    assert fastcall.call(client, "MGET", "{t}a", "{t}nothing") == ["ééé", None]
    sha = client.script_load("return {KEYS[1], ARGV[1], 3}")
    assert fastcall.call(client, "EVALSHA", sha, 1, "{t}k", 7) == ["{t}k", "7", 3]
    assert no_connection_kept(client)


def test_error_replies_raise_redis_pys_exceptions(client):
    with pytest.raises(redis.exceptions.NoScriptError):
        fastcall.call(client, "EVALSHA", "0" * 40, 1, "{t}k")
    client.rpush("list", "x")
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        fastcall.call(client, "GET", "list")
    assert fastcall.call(client, "GET", "list2") is None  # the connection still works
    assert no_connection_kept(client)


def test_a_broken_connection_is_retried_on_redis_pys_path(client, monkeypatch):
    client.set("a", "1")
    original = redis.connection.Connection.read_response
    failures: list[object] = []

    def breaking(self, *args, **kwargs):
        if not failures:
            failures.append(self)
            self.disconnect()
            raise redis.exceptions.ConnectionError("reset by peer")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "read_response", breaking)
    assert fastcall.call(client, "GET", "a") == "1"
    assert len(failures) == 1
    assert no_connection_kept(client)


def test_connections_killed_by_the_server_are_replaced(client):
    client.set("a", "1")
    assert fastcall.call(client, "GET", "a") == "1"
    client.client_kill_filter(_type="normal", skipme=False)
    assert fastcall.call(client, "GET", "a") == "1"


def test_moves_survive_a_flushed_script_cache(toy_client, redis_client):
    """The write's EVALSHA on the short path: NOSCRIPT loads the script and runs it once."""
    game_id, _, tokens = started_game(toy_client, 2)
    redis_client.script_flush()
    seat = view(toy_client, game_id)["to_act"][0]
    r = post_move(toy_client, game_id, tokens[seat], {"type": "call", "value": 2})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["game"]["version"] == view(toy_client, game_id)["version"]
    assert [e["type"] for e in r.get_json()["events"]] == ["called"]


def pool_of(client, key: str):
    if isinstance(client, redis.RedisCluster):
        return client.get_node_from_key(key).redis_connection.connection_pool
    return client.connection_pool


def test_connections_are_reused_not_made_anew(client):
    client.set("{t}a", "1")
    pool = pool_of(client, "{t}a")
    fastcall.call(client, "GET", "{t}a")
    made = pool._created_connections
    for _ in range(20):
        assert fastcall.call(client, "GET", "{t}a") == "1"
    assert pool._created_connections == made and no_connection_kept(client)

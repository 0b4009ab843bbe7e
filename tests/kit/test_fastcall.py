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
def client(redis_client, redis_url):
    """A plain client like the store's (a cluster client takes the ordinary path)."""
    found = redis.Redis.from_url(redis_url.partition("?")[0], decode_responses=True)
    if not isinstance(redis_client, redis.Redis):
        pytest.skip("the short path is for a single Redis; Cluster takes redis-py's own")
    yield found
    found.close()


def test_replies_are_redis_pys_own(client):
    client.set("a", "é" * 3)
    assert fastcall.call(client, "GET", "a") == client.get("a") == "ééé"
    assert fastcall.call(client, "GET", "nothing") is None
    assert fastcall.call(client, "MGET", "a", "nothing") == ["ééé", None]
    sha = client.script_load("return {KEYS[1], ARGV[1], 3}")
    assert fastcall.call(client, "EVALSHA", sha, 1, "k", 7) == ["k", "7", 3]
    assert not client.connection_pool._in_use_connections


def test_error_replies_raise_redis_pys_exceptions(client):
    with pytest.raises(redis.exceptions.NoScriptError):
        fastcall.call(client, "EVALSHA", "0" * 40, 0)
    client.rpush("list", "x")
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        fastcall.call(client, "GET", "list")
    assert fastcall.call(client, "GET", "list2") is None  # the connection still works
    assert not client.connection_pool._in_use_connections


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
    assert not client.connection_pool._in_use_connections


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

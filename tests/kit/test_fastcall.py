"""The store's short path for its hot commands (shared/store/connection.py): the same replies
and errors as redis-py's ordinary path, redis-py's retry on a broken connection, and
no connection kept from the pool."""

from __future__ import annotations

import threading

import pytest
import redis
import redis.connection
import redis.exceptions

from shared.store import connection as fastcall
from tests.kit.helpers import post_move, started_game, view


@pytest.fixture
def client(redis_client):
    """The test Redis's client: a plain ``Redis`` takes the short path, a
    ``RedisCluster`` (TEST_REDIS_CLUSTER=1) redis-py's own, with the same results."""
    return redis_client


def lane_of(client):
    """The client's lane (``None``: redis-py's path, as for a ``RedisCluster``)."""
    return fastcall.lane_of(client) if type(client) is redis.Redis else None


def idle(client) -> int:
    lane = lane_of(client)
    return 0 if lane is None else len(lane.idle)


@pytest.fixture
def lane(client):
    """The plain client's lane, holding one idle socket after a GET of ``a`` (``"1"``)."""
    found = lane_of(client)
    if found is None:
        pytest.skip("Redis Cluster takes redis-py's path")
    client.set("a", "1")
    fastcall.call(client, "GET", "a")
    return found


def test_replies_are_redis_pys_own(client):
    client.set("{t}a", "é" * 3)
    assert fastcall.call(client, "GET", "{t}a") == client.get("{t}a") == "ééé"
    assert fastcall.call(client, "GET", "{t}nothing") is None
    assert fastcall.call(client, "MGET", "{t}a", "{t}nothing") == ["ééé", None]
    sha = client.script_load("return {KEYS[1], ARGV[1], 3}")
    assert fastcall.call(client, "EVALSHA", sha, 1, "{t}k", 7) == ["{t}k", "7", 3]
    big = "x" * 100_000  # a reply longer than a socket read
    client.set("{t}big", big)
    assert fastcall.call(client, "GET", "{t}big") == big


def test_error_replies_raise_redis_pys_exceptions(client):
    with pytest.raises(redis.exceptions.NoScriptError):
        fastcall.call(client, "EVALSHA", "0" * 40, 1, "{t}k")
    client.rpush("list", "x")
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        fastcall.call(client, "GET", "list")
    assert fastcall.call(client, "GET", "list2") is None  # the connection still works


def test_a_plain_client_takes_the_lane_and_other_settings_do_not(redis_url):
    if redis_url.startswith("redis://") and "cluster" not in redis_url:
        plain = redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=5)
        assert fastcall.lane_of(plain) is not None
    assert fastcall.lane_of(redis.Redis(unix_socket_path="/tmp/none.sock")) is None
    assert fastcall.lane_of(redis.Redis(protocol=3)) is None
    assert fastcall.lane_of(redis.Redis(ssl=True)) is None


def test_a_database_other_than_0_is_selected(client, redis_url):
    if lane_of(client) is None:
        pytest.skip("Redis Cluster has only database 0")
    other = redis.Redis.from_url(redis_url.rstrip("/0123456789") + "/3", decode_responses=True)
    other.set("{t}where", "three")
    assert fastcall.call(other, "GET", "{t}where") == "three"
    assert fastcall.call(client, "GET", "{t}where") is None
    other.flushdb()


def test_a_client_name_is_set_on_the_lanes_sockets(client, redis_url):
    if lane_of(client) is None:
        pytest.skip("Redis Cluster takes redis-py's path")
    named = redis.Redis.from_url(redis_url, decode_responses=True, client_name="lane-test")
    named.set("{t}a", "1")
    fastcall.call(named, "GET", "{t}a")
    lane = fastcall.lane_of(named)
    assert lane is not None and lane.idle
    port = lane.idle[-1].sock.getsockname()[1]
    (entry,) = [c for c in client.client_list() if c["addr"].endswith(f":{port}")]
    assert entry["name"] == "lane-test"


def test_sockets_are_reused_not_made_anew(client, monkeypatch):
    client.set("{t}a", "1")
    fastcall.call(client, "GET", "{t}a")
    opened: list[object] = []
    original = fastcall.Lane.open

    def opening(lane):
        opened.append(lane)
        return original(lane)

    monkeypatch.setattr(fastcall.Lane, "open", opening)
    for _ in range(20):
        assert fastcall.call(client, "GET", "{t}a") == "1"
    assert opened == []


def test_connections_killed_by_the_server_are_replaced(client):
    client.set("a", "1")
    assert fastcall.call(client, "GET", "a") == "1"
    lane = lane_of(client)
    if lane is None:  # Cluster: redis-py's own path, its own reconnects
        client.client_kill_filter(_type="normal", skipme=False)
    else:  # the lane's sockets only: redis-py's pool keeps a live one for the retry
        for conn in lane.idle:
            host, port = conn.sock.getsockname()[:2]
            client.client_kill_filter(addr=f"{host}:{port}")
    assert fastcall.call(client, "GET", "a") == "1"
    assert fastcall.call(client, "GET", "a") == "1"
    assert lane is None or all(conn.sock.fileno() != -1 for conn in lane.idle)


def test_a_broken_socket_is_closed_and_the_command_retried_on_redis_pys_path(
    client, lane, monkeypatch
):
    kept = lane.idle[-1]
    original = fastcall.Conn.ask
    failures: list[object] = []

    def breaking(conn, packed):
        if not failures:
            failures.append(conn)
            raise TimeoutError("timed out")
        return original(conn, packed)

    monkeypatch.setattr(fastcall.Conn, "ask", breaking)
    retried: list[tuple] = []
    execute = client.execute_command

    def executing(*args):
        retried.append(args)
        return execute(*args)

    monkeypatch.setattr(client, "execute_command", executing)
    assert fastcall.call(client, "GET", "a") == "1"
    assert failures == [kept] and retried == [("GET", "a")]
    assert kept.sock.fileno() == -1 and kept not in lane.idle


def test_a_socket_interrupted_mid_reply_is_never_used_again(client, lane, monkeypatch):
    """A greenlet killed while it waits (gevent raises in it) leaves a reply unread."""
    kept = lane.idle[-1]

    def interrupted(conn, packed):
        conn.sock.sendall(packed)  # the command went out, its reply is never read
        raise KeyboardInterrupt

    monkeypatch.setattr(fastcall.Conn, "ask", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fastcall.call(client, "GET", "a")
    monkeypatch.undo()
    assert kept.sock.fileno() == -1 and kept not in lane.idle
    client.set("b", "2")
    assert fastcall.call(client, "GET", "b") == "2"


def test_a_forked_process_opens_its_own_sockets(client, lane, monkeypatch):
    monkeypatch.setattr(fastcall, "getpid", lambda: lane.pid + 1)
    assert fastcall.call(client, "GET", "a") == "1"
    assert lane_of(client) is not lane and lane.idle  # the parent's sockets untouched


def test_idle_sockets_are_capped(client, lane, monkeypatch):
    monkeypatch.setattr(fastcall, "_IDLE_MAX", 2)
    conns = [lane.take() for _ in range(4)]
    for conn in conns:
        lane.give(conn)
    assert len(lane.idle) <= 2 and sum(c.sock.fileno() == -1 for c in conns) >= 2


def test_moves_survive_a_flushed_script_cache(toy_client, redis_client):
    """The write's EVALSHA on the short path: NOSCRIPT loads the script and runs it once."""
    game_id, _, tokens = started_game(toy_client, 2)
    redis_client.script_flush()
    seat = view(toy_client, game_id)["to_act"][0]
    r = post_move(toy_client, game_id, tokens[seat], {"type": "call", "value": 2})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["game"]["version"] == view(toy_client, game_id)["version"]
    assert [e["type"] for e in r.get_json()["events"]] == ["called"]


def test_threads_sharing_a_lane_each_read_their_own_replies(client):
    """gthread workers: many threads at once, every reply the one its thread asked for."""
    for n in range(8):
        client.set(f"{{t}}k{n}", f"v{n}" * (n * 500 + 1))
    wrong: list[tuple[int, object]] = []

    def ask(n: int) -> None:
        for _ in range(200):
            got = fastcall.call(client, "GET", f"{{t}}k{n}")
            if got != f"v{n}" * (n * 500 + 1):
                wrong.append((n, got))

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []

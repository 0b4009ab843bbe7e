"""Waking waiters through one subscription per process (shared/streaming/fanout.py): every waiter
woken with its own game's events, one subscription per game whatever the number of
waiters, none left once they leave, and no wake-up lost to a write that lands between
a waiter's read and its wait. Also runs on Redis Cluster (TEST_REDIS_CLUSTER=1)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from shared.store import GameStore
from shared.streaming import fanout
from tests.conftest import wait_until
from tests.kit.helpers import post_move, started_game, view


@pytest.fixture
def toy_app(make_app: Any) -> Flask:
    """The toy app with the fan-out on (``EVENTS_FANOUT``; off by default)."""
    app: Flask = make_app("toy", EVENTS_FANOUT=True)
    return app


@pytest.fixture
def toy_client(toy_app: Flask) -> Any:
    return toy_app.test_client()


def store_of(app: Flask) -> GameStore:
    store: GameStore = app.extensions["game_kit"].games.store
    return store


def call(client: Any, game_id: str, tokens: list[str], value: int) -> None:
    token = tokens[view(client, game_id)["to_act"][0]]
    r = post_move(client, game_id, token, {"type": "call", "value": value})
    assert r.status_code == 200, r.get_json()


def subscribers(client: Any, channel: str) -> int:
    """Subscribers of a sharded channel, asked of the node that serves it."""
    if isinstance(client, redis.RedisCluster):
        node = client.get_node_from_key(channel)
        reply = client.execute_command("PUBSUB SHARDNUMSUB", channel, target_nodes=node)
    else:
        reply = client.execute_command("PUBSUB SHARDNUMSUB", channel)
    if isinstance(reply, dict):
        return int(next(iter(reply.values())))
    flat = [x for item in reply for x in (item if isinstance(item, (list, tuple)) else [item])]
    return int(flat[1])  # [channel, count], however the client shapes it


def _blocked(client: Any) -> set[str]:
    """Ids of the connections blocked in a command (XREAD) now (single Redis only)."""
    if isinstance(client, redis.RedisCluster):
        return set()
    return {c["id"] for c in client.client_list() if "b" in c["flags"]}


def long_poll(app: Flask, game_id: str, after: int, wait: float, out: dict[str, Any]) -> None:
    started = time.monotonic()
    r = app.test_client().get(f"/games/{game_id}/events?after={after}&wait={wait}")
    out["seconds"] = time.monotonic() - started
    out["status"], out["body"] = r.status_code, r.get_json()


def test_many_waiters_on_one_and_on_many_games_share_one_subscription_per_game(
    toy_app: Flask, toy_client: Any, redis_client: Any
) -> None:
    games = [started_game(toy_client, 2) for _ in range(5)]
    blocked_before = _blocked(redis_client)
    per_game = [12, 3, 3, 3, 3]  # many waiters on one game, a few on each of the others
    versions = [view(toy_client, game_id)["version"] for game_id, _, _ in games]
    answers: list[tuple[int, dict[str, Any]]] = []
    threads = []
    for g, count in enumerate(per_game):
        for _ in range(count):
            out: dict[str, Any] = {}
            answers.append((g, out))
            args = (toy_app, games[g][0], versions[g], 20, out)
            threads.append(threading.Thread(target=long_poll, args=args))
    for thread in threads:
        thread.start()
    hub = fanout.fanout_of(store_of(toy_app))
    channels = [store_of(toy_app).keys(game_id)[1] for game_id, _, _ in games]
    wait_until(lambda: hub.counts()["waiters"] == sum(per_game), 10, "every waiter parked")
    assert hub.counts()["channels"] == len(games)
    wait_until(
        lambda: all(subscribers(redis_client, name) == 1 for name in channels),
        5,
        "one subscription per game",
    )
    # one pub/sub connection per node for all its channels (on Cluster: those that serve them)
    serving = (
        {redis_client.get_node_from_key(name).name for name in channels}
        if isinstance(redis_client, redis.RedisCluster)
        else {"redis"}
    )
    assert hub.counts()["nodes"] == len(serving)
    if not isinstance(redis_client, redis.RedisCluster):
        # the session's Redis is shared: earlier tests' channels may still linger on
        # their own connections, so look for the one that holds all of these channels
        clients = redis_client.client_list()
        assert sum(1 for c in clients if int(c.get("ssub", 0)) >= len(games)) == 1
        # none of these waiters blocked in an XREAD of its own (an earlier test's live
        # server may still hold a waiter blocked until its timeout: not counted)
        assert _blocked(redis_client) <= blocked_before

    for g, (game_id, _, tokens) in enumerate(games):
        call(toy_client, game_id, tokens, g % 3 + 1)
    for thread in threads:
        thread.join(10)
    for g, out in answers:
        assert out["status"] == 200, out
        assert out["seconds"] < 5, out  # woken, not timed out
        assert [(e["type"], e["value"]) for e in out["body"]["events"]] == [("called", g % 3 + 1)]

    wait_until(lambda: hub.counts()["channels"] == 0, 5, "every channel released")
    assert hub.counts()["waiters"] == 0
    wait_until(
        lambda: all(subscribers(redis_client, name) == 0 for name in channels),
        5,
        "no subscription left",
    )


def test_a_write_between_the_waiters_read_and_its_wait_still_wakes_it(
    toy_app: Flask, toy_client: Any, monkeypatch: Any
) -> None:
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    store = store_of(toy_app)
    read = store.events
    go, done = threading.Event(), threading.Event()
    empty_reads = 0

    def events(game: str, after: str, count: int, block_ms: int = 0) -> Any:
        nonlocal empty_reads
        found = read(game, after, count, block_ms)
        if threading.current_thread() is waiter and not found:
            empty_reads += 1
            if empty_reads == 2:  # the subscribed waiter's read: a move lands right now
                go.set()
                assert done.wait(10)
        return found

    monkeypatch.setattr(store, "events", events)
    out: dict[str, Any] = {}
    waiter = threading.Thread(target=long_poll, args=(toy_app, game_id, version, 10, out))
    waiter.start()
    assert go.wait(10)
    call(toy_client, game_id, tokens, 3)
    done.set()
    waiter.join(10)
    assert out["status"] == 200 and out["seconds"] < 5, out
    assert [(e["type"], e["value"]) for e in out["body"]["events"]] == [("called", 3)]


def test_waits_racing_moves_all_get_their_event(toy_app: Flask, toy_client: Any) -> None:
    """A waiter and a move started together, with jitter, many times over: every wait
    ends with the move's event long before its timeout."""
    rng = random.Random(3)
    for round_ in range(20):
        game_id, _, tokens = started_game(toy_client, 2)
        value = round_ % 3 + 1
        version = view(toy_client, game_id)["version"]
        out: dict[str, Any] = {}
        waiter = threading.Thread(target=long_poll, args=(toy_app, game_id, version, 10, out))
        waiter.start()
        time.sleep(rng.uniform(0, 0.01))
        call(toy_client, game_id, tokens, value)
        waiter.join(10)
        assert out["status"] == 200 and out["seconds"] < 5, (round_, out)
        assert [e["value"] for e in out["body"]["events"]] == [value]
    assert fanout.fanout_of(store_of(toy_app)).counts()["waiters"] == 0


def test_sse_stream_holds_one_subscription_and_leaves_none(
    toy_app: Flask, toy_client: Any, redis_client: Any
) -> None:
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    channel = store_of(toy_app).keys(game_id)[1]
    response = toy_app.test_client().get(
        f"/games/{game_id}/events?after={version}",
        headers={"Accept": "text/event-stream"},
        buffered=False,
    )
    chunks: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    assert "stream of game" in next(chunks).decode()
    got: list[str] = []

    def read_two() -> None:
        for chunk in chunks:
            text = chunk.decode()
            if text.startswith("id:"):
                got.append(text)
            if len(got) == 2:
                return

    reader = threading.Thread(target=read_two)
    reader.start()
    wait_until(lambda: subscribers(redis_client, channel) == 1, 5, "the stream subscribed")
    call(toy_client, game_id, tokens, 1)
    token = tokens[view(toy_client, game_id)["to_act"][0]]
    assert post_move(toy_client, game_id, token, {"type": "pick", "value": 2}).status_code == 200
    reader.join(10)
    assert [text.split("\n")[1] for text in got] == ["event: called", "event: picked"]
    response.close()
    hub = fanout.fanout_of(store_of(toy_app))
    wait_until(lambda: hub.counts()["channels"] == 0, 5, "the stream's channel released")
    wait_until(lambda: subscribers(redis_client, channel) == 0, 5, "no subscription left")


def test_a_stalled_reader_holds_up_no_waiter(
    toy_app: Flask, toy_client: Any, monkeypatch: Any
) -> None:
    """The reader alone touches the pub/sub connection: while it is stuck (a send that
    hangs on a broken connection), waiters still enter, answer at the end of their wait,
    and see a move by looking themselves."""
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    send = fanout._Node._send_changes
    stalled = threading.Event()
    stalled.set()

    def stuck(node: Any, conn: Any) -> None:
        deadline = time.monotonic() + 8
        while stalled.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        send(node, conn)

    monkeypatch.setattr(fanout._Node, "_send_changes", stuck)
    short: list[dict[str, Any]] = [{} for _ in range(5)]
    woken: dict[str, Any] = {}
    threads = [
        threading.Thread(target=long_poll, args=(toy_app, game_id, version, 1, out))
        for out in short
    ]
    threads.append(threading.Thread(target=long_poll, args=(toy_app, game_id, version, 6, woken)))
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    call(toy_client, game_id, tokens, 2)  # the waiters' subscription never got sent
    for thread in threads:
        thread.join(10)
    stalled.clear()
    for out in short:
        assert out["status"] == 200 and out["seconds"] < 2.5, out
    assert woken["status"] == 200 and woken["seconds"] < 2.5, woken  # not at 6 s
    assert [e["value"] for e in woken["body"]["events"]] == [2]

"""Waiters woken through each worker process's one subscription (shared/streaming/fanout.py) under
real gunicorn, gevent and gthread workers (and sync ones, one waiter each): long-polls
and an SSE stream get the move's event, no Redis connection sits blocked per waiter, no
subscription outlives its waiters, and waiters carry on across a Redis restart."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.conftest import ROOT, free_port
from tests.reliability.conftest import RedisServer, wait_until
from tests.reliability.player import Game, new_game, next_move, send_until_answered

WORKERS = 2


class Served:
    """The Manhattan service under gunicorn with ``worker_class`` workers."""

    def __init__(self, redis_url: str, worker_class: str) -> None:
        self.base = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "REDIS_URL": redis_url, "REDIS_SOCKET_TIMEOUT": "2"}
        env["EVENTS_FANOUT"] = "1"  # off by default
        env["SSE_HEARTBEAT_SECONDS"] = "2"  # a closed stream lets go of its wait sooner
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        # gunicorn turns a sync worker with threads into gthread: none for sync
        threads = [] if worker_class == "sync" else ["--threads", "16"]
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "gunicorn",
                "-k", worker_class, "-w", str(WORKERS), *threads,
                "-b", self.base.removeprefix("http://"),
                "--graceful-timeout", "2", "--log-level", "error",
                "services.manhattan.app:create_app()",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )  # fmt: skip
        wait_until(
            lambda: requests.get(f"{self.base}/readyz", timeout=1).status_code == 200,
            30,
            f"gunicorn ({worker_class}) serving",
        )

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(params=["gevent", "gthread"])
def served(request: pytest.FixtureRequest, own_redis: RedisServer) -> Iterator[Served]:
    service = Served(own_redis.url, request.param)
    try:
        yield service
    finally:
        service.stop()


def channel(game: Game) -> str:
    return f"mh:{{{game.id}}}:events"


def subscribers(own_redis: RedisServer, name: str) -> int:
    reply = own_redis.client().execute_command("PUBSUB SHARDNUMSUB", name)
    flat = [x for item in reply for x in (item if isinstance(item, (list, tuple)) else [item])]
    return int(flat[1])


def long_polls(base: str, game: Game, after: int, count: int, wait: float) -> list[dict[str, Any]]:
    """``count`` long-polls started in threads; each result dict fills in when answered."""
    results: list[dict[str, Any]] = [{} for _ in range(count)]

    def poll(out: dict[str, Any]) -> None:
        started = time.monotonic()
        try:
            r = requests.get(
                f"{base}/games/{game.id}/events?after={after}&wait={wait}", timeout=wait + 15
            )
            out["status"], out["body"] = r.status_code, r.json()
        except requests.RequestException as error:
            out["status"], out["body"] = None, repr(error)
        out["seconds"] = time.monotonic() - started

    for out in results:
        out["thread"] = threading.Thread(target=poll, args=(out,))
        out["thread"].start()
    return results


def play_one(base: str, game: Game) -> int:
    """One legal move; its version."""
    session = requests.Session()
    found = next_move(session, base, game, random.Random(1))
    assert found is not None
    seat, move = found
    r = send_until_answered(session, base, game, seat, move, time.monotonic() + 20)
    assert r.status_code == 200, r.text
    return int(r.json()["game"]["version"])


def assert_woken(results: list[dict[str, Any]], version: int) -> None:
    for out in results:
        out["thread"].join(20)
        assert out.get("status") == 200, out
        assert out["seconds"] < 15, out  # woken by the move, not at the end of the wait
        assert out["body"]["events"], out
        assert {e["version"] for e in out["body"]["events"]} == {version}


def test_long_polls_and_a_stream_are_woken_by_one_subscription_per_process(
    served: Served, own_redis: RedisServer
) -> None:
    base = served.base
    game = new_game(requests.Session(), base)
    version = requests.get(f"{base}/games/{game.id}", timeout=10).json()["version"]
    stream = requests.get(
        f"{base}/games/{game.id}/events?after={version}",
        headers={"Accept": "text/event-stream"},
        stream=True,
        timeout=30,
    )
    assert stream.status_code == 200
    results = long_polls(base, game, version, 8, 20)
    time.sleep(1.5)  # parked (a move before that would be read, not woken: also fine)
    assert 1 <= subscribers(own_redis, channel(game)) <= WORKERS
    clients = own_redis.client().client_list()
    assert not [c for c in clients if "b" in c["flags"]]  # no Redis connection blocked
    assert sum(1 for c in clients if int(c.get("ssub", 0))) <= WORKERS

    moved = play_one(base, game)
    assert_woken(results, moved)
    lines = stream.iter_lines(decode_unicode=True)
    assert any(line == f"id: {moved}-0" for line, _ in zip(lines, range(20), strict=False))
    stream.close()
    wait_until(lambda: subscribers(own_redis, channel(game)) == 0, 35, "subscriptions released")


@pytest.mark.appendfsync("always")
def test_waiters_carry_on_across_a_redis_restart(served: Served, own_redis: RedisServer) -> None:
    base = served.base
    game = new_game(requests.Session(), base)
    version = requests.get(f"{base}/games/{game.id}", timeout=10).json()["version"]
    results = long_polls(base, game, version, 6, 25)
    time.sleep(1.5)
    assert subscribers(own_redis, channel(game)) >= 1
    own_redis.kill()
    time.sleep(1)
    assert not any("status" in out for out in results)  # still waiting, not failed
    own_redis.start()
    wait_until(
        lambda: requests.get(f"{base}/readyz", timeout=2).status_code == 200, 20, "ready again"
    )
    # subscribed again (each process that holds waiters) before the move
    wait_until(lambda: subscribers(own_redis, channel(game)) >= 1, 10, "subscribed again")
    moved = play_one(base, game)
    assert_woken(results, moved)
    wait_until(lambda: subscribers(own_redis, channel(game)) == 0, 10, "subscriptions released")


def test_a_sync_workers_long_poll_is_woken_by_its_subscription(own_redis: RedisServer) -> None:
    """``GUNICORN_WORKER_CLASS=sync``: the waiting worker's reader is a real thread; the
    other worker serves the move that wakes it."""
    service = Served(own_redis.url, "sync")
    try:
        game = new_game(requests.Session(), service.base)
        version = requests.get(f"{service.base}/games/{game.id}", timeout=10).json()["version"]
        results = long_polls(service.base, game, version, 1, 20)
        wait_until(lambda: subscribers(own_redis, channel(game)) == 1, 10, "subscribed")
        clients = own_redis.client().client_list()
        assert not [c for c in clients if "b" in c["flags"]]  # no Redis connection blocked
        moved = play_one(service.base, game)
        assert_woken(results, moved)
        wait_until(lambda: subscribers(own_redis, channel(game)) == 0, 10, "released")
    finally:
        service.stop()

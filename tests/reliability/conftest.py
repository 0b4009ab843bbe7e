"""Dedicated Redis and gunicorn processes for fault tests (never the session's Redis).

- ``RedisServer``: a redis-server of the test's own on a free port, append-only, that a
  test may kill (``kill()`` = SIGKILL) and start again on the same port and data.
- ``Service``: a game under gunicorn (gevent workers) on a given Redis URL, with its
  master's and workers' pids, so a test can kill a worker and see the master replace it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from shared.engine import Engine
from shared.games import history
from shared.games.document import from_store
from shared.store import load_doc, parse_entries
from tests.conftest import APP_FACTORIES, ROOT, free_port, wait_until


class RedisServer:
    """A private redis-server with append-only persistence (``appendfsync`` chosen)."""

    def __init__(self, appendfsync: str = "everysec") -> None:
        self.appendfsync = appendfsync
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="rel-redis-")
        self.proc: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", self.dir,
                "--appendonly", "yes",
                "--appendfsync", self.appendfsync,
                "--save", "",
                "--loglevel", "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        probe = self.client()
        wait_until(lambda: bool(probe.ping()), 10, "redis-server")
        probe.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final fsync or save."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=2)


class Service:
    """``game`` under gunicorn on ``redis_url``; the test may kill its workers."""

    def __init__(self, game: str, redis_url: str, workers: int = 2, **env: str) -> None:
        self.game = game
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        environ = {
            **os.environ,
            "REDIS_URL": redis_url,
            "LOG_LEVEL": "ERROR",
            "REDIS_SOCKET_TIMEOUT": "2",
            **env,
        }
        environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT), environ.get("PYTHONPATH")])
        )
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "gunicorn",
                "-k", "gevent", "-w", str(workers),
                "-b", f"127.0.0.1:{self.port}",
                "--graceful-timeout", "2", "--log-level", "error",
                f"{APP_FACTORIES[game]}()",
            ],
            cwd=ROOT,
            env=environ,
            start_new_session=True,
        )  # fmt: skip
        self.workers = workers
        wait_until(
            lambda: self.proc.poll() is None and len(self.worker_pids()) == workers,
            20,
            "gunicorn workers",
        )
        wait_until(
            lambda: requests.get(f"{self.base}/healthz", timeout=1).status_code == 200,
            20,
            f"gunicorn serving {game}",
        )

    def worker_pids(self) -> set[int]:
        """The master's live children (its workers), from /proc."""
        pids = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == self.proc.pid and fields[0] != "Z":
                pids.add(int(entry.name))
        return pids

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def own_redis(request: pytest.FixtureRequest) -> Iterator[RedisServer]:
    """A Redis of this test's own (``appendfsync`` from ``@pytest.mark.appendfsync``)."""
    marker = request.node.get_closest_marker("appendfsync")
    server = RedisServer(marker.args[0] if marker else "everysec")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "appendfsync(mode): the own_redis fsync policy")


# -- consistency of a stored game ----------------------------------------------------


def stored(
    client: redis.Redis, prefix: str, game_id: str, engine: Engine | None = None
) -> tuple[dict, list, list]:
    """The raw document, moves and events of a game, read straight from Redis: the
    moves from its history; the events the stream still holds, or with ``engine`` all
    of them, rebuilt from the history by replay."""
    base = f"{prefix}:{{{game_id}}}"
    text: Any = client.get  # the clients decode responses: str or None
    doc = load_doc(text(f"{base}:game"))
    records = history.stored(text(f"{base}:tail"), text(f"{base}:hist"))
    moves = history.all_moves(records)
    if engine is None:
        entries: Any = client.xrange(f"{base}:events")  # decoded: str ids and fields
        read = parse_entries(entries)
        events = [(e["id"], {k: v for k, v in e.items() if k != "id"}) for e in read]
    else:
        rebuilt = (e for w in history.replay(engine, from_store(doc), records) for e in w.events)
        events = [(e["id"], {k: v for k, v in e.items() if k != "id"}) for e in rebuilt]
    return doc, moves, events


def assert_consistent(client: redis.Redis, prefix: str, engine: Engine, game_id: str) -> dict:
    """Version, document, moves list and event stream of a game agree: replaying the
    moves from the seed reproduces the stored state; the moves carry the versions after
    the start one by one; the last event's version is the document's."""
    doc, moves, events = stored(client, prefix, game_id, engine)
    version = doc["version"]
    versions = [e["version"] for _, e in events]
    assert versions == sorted(versions), "event versions go back"
    assert versions[-1] == version, (versions[-1], version)
    assert [eid.split("-")[0] for eid, _ in events] == [str(v) for v in versions]
    started = [e["version"] for _, e in events if e["type"] == "game_started"]
    if doc["state"] is None:
        assert moves == [] and not started
        return doc
    assert len(started) == 1
    assert [m["version"] for m in moves] == list(range(started[0] + 1, started[0] + 1 + len(moves)))
    state = engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
    for move in moves:
        state, _ = engine.apply_move(state, move["seat"], move["move"])
    assert state == doc["state"], "replaying the moves does not give the stored state"
    if doc["status"] != "cancelled":
        assert version == started[0] + len(moves)
    return doc

"""Shared fixtures: a private Redis, Flask apps of each game, and gunicorn-served games.

Everything runs against a real ``redis-server`` started here on a free port (never 6379)
in a temporary directory; under pytest-xdist each worker starts its own.

Fixtures (reuse them; names are stable):

- ``redis_url`` (session): URL of the private Redis, e.g. ``redis://127.0.0.1:41234/0``.
- ``redis_client`` (function): a client on it, **after flushing the database**; request it
  (the app fixtures do) to start a test from an empty store.
- ``manhattan_app`` / ``windcity_app`` (function): a fresh Flask app of the service
  against that Redis; ``manhattan_client`` / ``windcity_client``: its test client.
- ``make_app`` (function): ``make_app("manhattan"|"windcity", **config)`` for an app with
  other settings (e.g. ``SSE_MAX_SECONDS=1``).
- ``live_manhattan`` / ``live_windcity`` (session): base URL (``http://127.0.0.1:<port>``)
  of the service under real gunicorn (``-k gevent -w 2``) on that Redis, ready
  (``/readyz`` answered 200). These are not flushed between tests: create your own games.
  Their leaderboards count a player after one rated game (``LIVE_ENV``).

Markers (set here from what a test uses, so none is forgotten; ``pytest -m unit`` needs
no redis-server, gunicorn or Chromium; a ``unit`` test that opens a Redis connection all
the same fails, naming what to request):

- ``unit``: pure code only and quick (engines, codecs, schemas, the CLI's rendering);
- ``redis``: uses the private Redis (the app fixtures, ``redis_url``);
- ``live``: runs real processes: gunicorn, the worker, a proxy, the CLI against a server;
- ``browser``: drives Debian's Chromium through Playwright (``tests/web``);
- ``slow``: one test over ~10 s (whole-game runs, floods, restarts); ``-m "not slow"``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from flask import Flask
from flask.testing import FlaskClient

from bench.common import redis_cluster

ROOT = Path(__file__).resolve().parent.parent

# The CLI speaks its user's language (LC_ALL, LC_MESSAGES, LANG): the suite, and every
# program it starts, runs in English whatever the machine's locale; the tests of the
# languages set their own (tests/cli/test_languages.py).
os.environ["LC_ALL"] = "C.UTF-8"
APP_FACTORIES = {
    "manhattan": "services.manhattan.app:create_app",
    "windcity": "services.windcity.app:create_app",
    "toy": "tests.kit.toy_app:create_app",
}


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM a process this session started, then SIGKILL it if 10 s are not enough."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # not up yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# TEST_REDIS_CLUSTER=1: the session's Redis is a private three-node Redis Cluster
# (scripts/redis_cluster.sh on free ports) and ``redis_url`` carries ``?cluster=true``,
# which the kit reads as REDIS_CLUSTER; ``redis_client`` is then a ``RedisCluster``.
CLUSTER = os.environ.get("TEST_REDIS_CLUSTER", "").strip().lower() in {"1", "true", "yes", "on"}


class _ClusterClient(redis.RedisCluster):
    """A cluster client whose ``keys`` asks every primary, not just one node."""

    def keys(self, pattern: Any = "*", **kwargs: Any) -> Any:
        kwargs.setdefault("target_nodes", redis.RedisCluster.PRIMARIES)
        return super().keys(pattern, **kwargs)


def _redis_cluster() -> Iterator[str]:
    """A private three-node cluster for the session (bench.common.redis_cluster): its URL
    with ``?cluster=true``."""
    with redis_cluster() as (url, _, _):
        yield f"{url}?cluster=true"


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Start a private redis-server (append-only, no RDB snapshots) for this session."""
    if CLUSTER:
        yield from _redis_cluster()
        return
    program = shutil.which("redis-server")
    if program is None:
        pytest.fail("redis-server is not installed (make test installs it)")
    workdir = tempfile.mkdtemp(prefix="test-redis-")
    port = free_port()
    proc = subprocess.Popen(
        [
            program,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            workdir,
            "--appendonly",
            "yes",
            "--save",
            "",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
            "--stream-node-max-bytes",  # as deployed (docs/operations.md)
            "1024",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    probe = redis.Redis.from_url(url, socket_timeout=1)
    try:
        wait_until(lambda: bool(probe.ping()), 10, "redis-server")
        yield url
    finally:
        probe.close()
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)


def connect(redis_url: str, **kwargs: Any) -> Any:
    """A client for ``redis_url``: a cluster client when the session runs on a cluster."""
    if CLUSTER:
        return _ClusterClient.from_url(redis_url.split("?")[0], decode_responses=True, **kwargs)
    return redis.Redis.from_url(redis_url, decode_responses=True, **kwargs)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A client on the private Redis, flushed at the start of the test."""
    client = connect(redis_url)
    client.flushdb()
    yield client
    client.close()


def _factory(game: str) -> Callable[..., Flask]:
    module_name, _, attr = APP_FACTORIES[game].partition(":")
    module = __import__(module_name, fromlist=[attr])
    return getattr(module, attr)


@pytest.fixture
def make_app(redis_client: redis.Redis, redis_url: str) -> Callable[..., Flask]:
    """``make_app(game, **config)``: a fresh app of ``game`` on the (flushed) test Redis."""

    def make(game: str, **config: Any) -> Flask:
        app = _factory(game)({"REDIS_URL": redis_url, "TESTING": True, **config})
        return app

    return make


@pytest.fixture
def manhattan_app(make_app: Callable[..., Flask]) -> Flask:
    """A fresh Manhattan app on the flushed test Redis."""
    return make_app("manhattan")


@pytest.fixture
def manhattan_client(manhattan_app: Flask) -> FlaskClient:
    """Flask test client of ``manhattan_app``."""
    return manhattan_app.test_client()


@pytest.fixture
def windcity_app(make_app: Callable[..., Flask]) -> Flask:
    """A fresh Wind City app on the flushed test Redis."""
    return make_app("windcity")


@pytest.fixture
def windcity_client(windcity_app: Flask) -> FlaskClient:
    """Flask test client of ``windcity_app``."""
    return windcity_app.test_client()


def serve(
    game: str, redis_url: str, workers: int = 2, env_extra: dict[str, str] | None = None
) -> Iterator[str]:
    """Run ``game`` under gunicorn (gevent worker) on a free port; yield its base URL.
    ``env_extra``: more settings for the service (e.g. ``CLOCK_MIN_TURN_SECONDS``)."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "WARNING", **(env_extra or {})}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-k",
            "gevent",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--graceful-timeout",
            "2",
            "--log-level",
            "warning",
            f"{APP_FACTORIES[game]}()",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: (
                proc.poll() is None and requests.get(f"{base}/readyz", timeout=1).status_code == 200
            ),
            20,
            f"gunicorn serving {game}",
        )
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn for {game} exited with {proc.returncode}")
        yield base
    finally:
        stop(proc)


# The session's services: a player shows on a leaderboard after one rated game, and each
# leaderboard read takes a fresh snapshot (the ratings tests play one or two games).
LIVE_ENV = {"LEADERBOARD_MIN_GAMES": "1", "LEADERBOARD_SNAPSHOT_SECONDS": "0"}


@pytest.fixture(scope="session")
def live_manhattan(redis_url: str) -> Iterator[str]:
    """Base URL of Manhattan under gunicorn (gevent, 2 workers) on the test Redis."""
    yield from serve("manhattan", redis_url, env_extra=LIVE_ENV)


@pytest.fixture(scope="session")
def live_windcity(redis_url: str) -> Iterator[str]:
    """Base URL of Wind City under gunicorn (gevent, 2 workers) on the test Redis."""
    yield from serve("windcity", redis_url, env_extra=LIVE_ENV)


# -- markers --------------------------------------------------------------------------

# fixtures that start real processes (gunicorn, workers, a TCP proxy, a receiver)
LIVE_FIXTURES = {"live_manhattan", "live_windcity", "workers", "hooked_manhattan"}
LIVE_FIXTURES |= {"receiver", "proxy_to", "own_redis"}
BROWSER_FIXTURES = {"browser", "open_page"}
# modules whose tests start gunicorn or the worker themselves (``serve(...)``, Popen)
LIVE_MODULES = {
    "tests/cli/test_admin_moderation.py",
    "tests/cli/test_cli_live.py",
    "tests/cli/test_live_client.py",
    "tests/cli/test_make_run.py",
    "tests/cli/test_play_live.py",
    "tests/cli/test_tournament_cli.py",
    "tests/e2e/test_live.py",
    "tests/e2e/test_readme.py",
    "tests/fuzz/test_raw_http.py",
    "tests/kit/test_replicated_writes.py",
    "tests/markers/test_unit_guard.py",
    "tests/openapi/test_generated_client.py",
    "tests/ops/test_access_log.py",
    "tests/ops/test_gunicorn_conf.py",
    "tests/ops/test_live_ops.py",
    "tests/reliability/test_cluster_schedule.py",
    "tests/reliability/test_failover.py",
    "tests/reliability/test_gunicorn_edges.py",
    "tests/reliability/test_races.py",
    "tests/reliability/test_redis_restart.py",
    "tests/reliability/test_wait_flood.py",
    "tests/reliability/test_worker_death.py",
    "tests/test_deploy.py",
    "tests/webhooks/test_delivery.py",
    "tests/webhooks/test_analysis_live.py",
    "tests/worker/test_worker.py",
}
# modules whose tests take ~10 s or more (whole games, floods, restarts, builds, tsc)
SLOW_MODULES = {
    "tests/manhattan/test_rules_playout.py",
    "tests/windcity/test_rules_playout.py",
    "tests/cli/test_make_run.py",
    "tests/cli/test_play_live.py",
    "tests/e2e/test_readme.py",
    "tests/reliability/test_failover.py",
    "tests/reliability/test_races.py",
    "tests/reliability/test_redis_restart.py",
    "tests/reliability/test_wait_flood.py",
    "tests/reliability/test_worker_death.py",
    "tests/worker/test_tournament_live.py",
    "tests/test_packaging.py",
    "tests/openapi/test_typescript.py",
    "tests/webhooks/test_analysis_live.py",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, what in (
        ("unit", "pure code: no redis-server, gunicorn or Chromium"),
        ("redis", "uses the session's private redis-server"),
        ("live", "starts real processes: gunicorn, the worker, proxies"),
        ("browser", "drives Debian's Chromium through Playwright"),
        ("slow", "takes ~10 s or more"),
    ):
        config.addinivalue_line("markers", f"{name}: {what}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test by what it uses (see the module docstring)."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        if callspec is not None:  # a fixture named by a parameter (request.getfixturevalue)
            used |= {v for v in callspec.params.values() if isinstance(v, str)}
        module = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
        kinds = set()
        if used & BROWSER_FIXTURES or module.startswith("tests/web/") and "page" in used:
            kinds.add("browser")
        if used & LIVE_FIXTURES or module in LIVE_MODULES or "browser" in kinds:
            kinds.add("live")
        if "redis_url" in used or "live" in kinds:
            kinds.add("redis")
        if module in SLOW_MODULES:
            kinds.add("slow")
        if not kinds:
            kinds.add("unit")
        for kind in kinds:
            item.add_marker(kind)


def _unit_reached_redis(nodeid: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        pytest.fail(
            f"{nodeid} is marked unit but opened a Redis connection: request redis_url "
            "(or a fixture that does, e.g. redis_client) so that it is marked redis",
            pytrace=False,
        )

    return refuse


@pytest.fixture(autouse=True)
def _unit_tests_reach_no_redis(request: pytest.FixtureRequest, monkeypatch: Any) -> None:
    """In a test marked ``unit``, every way to a Redis connection (redis-py's and the
    store's own sockets, shared/store/connection.py) fails the test."""
    if request.node.get_closest_marker("unit") is None:
        return
    from shared.store.connection import Lane

    refuse = _unit_reached_redis(request.node.nodeid)
    for name in ("connect", "connect_check_health"):
        monkeypatch.setattr(redis.connection.AbstractConnection, name, refuse)
    monkeypatch.setattr(Lane, "open", refuse)

"""What the project's gunicorn.conf.py gives every worker: what it loaded frozen out of
the garbage collector's full passes (no 100 ms stalls under load), and with
``GUNICORN_REUSE_PORT=1`` a socket of its own (a taken port still refused)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import requests

from tests.conftest import ROOT, free_port, wait_until

APP = "tests.ops.probe_app:app"


def gunicorn(port: int, *args: str, **env: str) -> subprocess.Popen:
    full = {**os.environ, "WEB_CONCURRENCY": "2", "PYTHONPATH": str(ROOT)}
    for name in ("PROMETHEUS_MULTIPROC_DIR", "GUNICORN_REUSE_PORT", "GUNICORN_WORKER_CLASS"):
        full.pop(name, None)
    full.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), *args]
        + ["-b", f"127.0.0.1:{port}", APP],
        cwd=ROOT,
        env=full,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


@contextmanager
def serving(*args: str, **env: str) -> Iterator[str]:
    port = free_port()
    proc = gunicorn(port, *args, **env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: requests.get(base, timeout=1).ok, 30, "gunicorn")
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)


@pytest.fixture
def served() -> Iterator[str]:
    with serving() as base:
        yield base


def answers(base: str, connections: int) -> dict[int, int]:
    """Worker pid -> its freeze count, over ``connections`` new connections."""
    seen: dict[int, int] = {}
    for _ in range(connections):
        body = requests.get(base, timeout=5, headers={"Connection": "close"}).json()
        seen[body["pid"]] = body["frozen"]
    return seen


def listeners(port: int) -> int:
    """Listening TCP sockets on ``port`` (``/proc/net/tcp``, state 0A)."""
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    return sum(1 for row in rows if row[1].endswith(f":{port:04X}") and row[3] == "0A")


def test_by_default_the_workers_share_one_socket(served: str) -> None:
    assert listeners(int(served.rsplit(":", 1)[1])) == 1


def test_with_reuse_port_each_worker_listens_on_a_socket_of_its_own() -> None:
    """The kernel then spreads new connections evenly over the workers."""
    with serving(GUNICORN_REUSE_PORT="1") as base:
        assert listeners(int(base.rsplit(":", 1)[1])) == 2
        assert len(answers(base, 40)) == 2


def test_every_worker_freezes_what_it_loaded(served: str) -> None:
    seen: dict[int, int] = {}
    wait_until(lambda: bool(seen.update(answers(served, 10))) or len(seen) == 2, 30, "2 workers")
    # gunicorn, gevent and the app's imports: tens of thousands of objects each
    assert all(frozen > 10_000 for frozen in seen.values()), seen


def test_with_reuse_port_a_taken_port_is_refused_not_shared() -> None:
    """Even one taken by a server that shares its port (SO_REUSEPORT): another of ours."""
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = gunicorn(taken.getsockname()[1], GUNICORN_REUSE_PORT="1")
        try:
            _, err = proc.communicate(timeout=30)
        finally:  # a server that started after all is stopped
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    assert proc.returncode != 0
    assert "in use" in err, err

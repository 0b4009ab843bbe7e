"""Real processes for the worker's proofs: both games under gunicorn with turn clocks
allowed down to 1 s, and ``python -m shared.worker`` processes a test starts, kills
(SIGKILL) and restarts itself.

- ``clock_manhattan`` / ``clock_windcity`` (session): base URLs of the services with
  ``CLOCK_MIN_TURN_SECONDS=1`` on the session's Redis (single or Cluster).
- ``workers``: ``workers.start()`` starts a worker process and returns it; every worker
  still running is stopped (SIGTERM) at the end of the test.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.conftest import ROOT, serve, wait_until

CLOCK_ENV = {"CLOCK_MIN_TURN_SECONDS": "1"}


@pytest.fixture(scope="session")
def clock_manhattan(redis_url: str) -> Iterator[str]:
    yield from serve("manhattan", redis_url, env_extra=CLOCK_ENV)


@pytest.fixture(scope="session")
def clock_windcity(redis_url: str) -> Iterator[str]:
    yield from serve("windcity", redis_url, env_extra=CLOCK_ENV)


class WorkerProcess:
    """One ``python -m shared.worker --report`` process."""

    def __init__(self, redis_url: str, workdir: str, **settings: str) -> None:
        self.heartbeat = str(Path(workdir) / f"beat-{time.monotonic_ns()}")
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "LOG_LEVEL": "WARNING",
            "WORKER_POLL_SECONDS": "0.05",
            "WORKER_LEASE_SECONDS": "1",
            "WORKER_HEARTBEAT_FILE": self.heartbeat,
            "WORKER_ANALYSIS": "false",  # (a test about analyses turns them on)
            **settings,
        }
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shared.worker", "--report"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        wait_until(lambda: Path(self.heartbeat).exists(), 15, "the worker's first tick")

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> dict:
        """SIGTERM; the worker's report ``{"moves", "lags_ms"}``."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=15)
        assert self.proc.returncode == 0, out
        return json.loads(out.strip().splitlines()[-1])


class Workers:
    def __init__(self, redis_url: str, workdir: str) -> None:
        self.redis_url = redis_url
        self.workdir = workdir
        self.running: list[WorkerProcess] = []

    def start(self, **settings: str) -> WorkerProcess:
        worker = WorkerProcess(self.redis_url, self.workdir, **settings)
        self.running.append(worker)
        return worker


@pytest.fixture
def workers(redis_url: str, redis_client: redis.Redis) -> Iterator[Workers]:
    with tempfile.TemporaryDirectory() as workdir:
        pool = Workers(redis_url, workdir)
        yield pool
        for worker in pool.running:
            if worker.proc.poll() is None:
                worker.proc.kill()
                worker.proc.wait(10)

"""The project's gunicorn.conf.py freezes what a worker loaded before its first request:
full collections then skip the app's modules and tables (no 100 ms stalls under load)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import requests

from tests.conftest import ROOT, free_port, wait_until


def test_every_worker_freezes_what_it_loaded() -> None:
    port = free_port()
    env = {**os.environ, "WEB_CONCURRENCY": "2", "PYTHONPATH": str(ROOT)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
        + ["-b", f"127.0.0.1:{port}", "tests.ops.gc_probe_app:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    seen: dict[int, int] = {}
    try:

        def both_workers_answered() -> bool:
            # a new connection each time, so either worker may answer
            body = requests.get(f"http://127.0.0.1:{port}/", timeout=1).json()
            seen[body["pid"]] = body["frozen"]
            return len(seen) == 2

        wait_until(both_workers_answered, 30, "both gunicorn workers")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    # gunicorn, gevent and the app's imports: tens of thousands of objects each
    assert all(frozen > 10_000 for frozen in seen.values()), seen

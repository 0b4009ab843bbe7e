"""A pool process of the worker (a bot's decisions, an analysis) ends with the worker,
even when the worker is killed outright (shared/worker/pools.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, wait_until

# A worker in miniature: a pool process up and answering, then SIGKILL for the worker.
WORKER = """
import os, signal, sys
from shared.worker.pools import process_pool
pool = process_pool(1)
print(pool.submit(os.getpid).result(timeout=60), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie is gone
    except FileNotFoundError:
        return False


def test_a_killed_workers_pool_processes_exit(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    with out.open("w") as stdout:  # (a pipe would stay open as long as the pool process)
        worker = subprocess.run([sys.executable, "-c", WORKER], cwd=ROOT, env=env, stdout=stdout)
    assert worker.returncode == -9
    child = int(out.read_text().split()[0])
    try:
        wait_until(lambda: not _alive(child), 10, f"pool process {child} to exit")
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)

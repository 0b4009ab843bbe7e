"""The worker's process pools (a bot's decisions, a finished game's analysis) and the
one rule they share: a pool's processes end with the worker.

A ``ProcessPoolExecutor`` process waits on its call queue, whose pipe it holds both ends
of, so a worker killed (``SIGKILL``, an OOM kill, a crashed container's init) left its
pool processes waiting for ever. Each process here watches its parent and exits once it
is gone (it is re-parented: ``os.getppid()`` changes), within :data:`WATCH_SECONDS`.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

WATCH_SECONDS = 1.0
"""How often a pool process looks for its parent."""


def _watch_parent(parent: int, then: Callable[[], None] | None) -> None:  # pragma: no cover
    """In a pool process, first: exit when ``parent`` is gone; then ``then``."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if then is not None:
        then()


def process_pool(
    processes: int, initializer: Callable[[], None] | None = None
) -> ProcessPoolExecutor | None:
    """``processes`` spawned processes (the worker runs threads: never fork), each
    ending with this process, after ``initializer`` (a module-level function); ``None``
    for 0 (the caller works in its own process)."""
    if processes <= 0:
        return None
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_watch_parent,
        initargs=(os.getpid(), initializer),
    )

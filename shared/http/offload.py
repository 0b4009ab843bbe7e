"""A request's CPU-bound work off a gevent worker's event loop.

A gunicorn gevent worker serves all its requests on one thread: a search that computes
for up to ~110 ms there (a hint, shared/games/hints.py) stalls every other request of the
process (moves, long-polls, SSE) for that long. :func:`cpu_bound` runs such work in the
gevent hub's thread pool instead: the interpreter switches threads every
``sys.getswitchinterval()`` (5 ms), so the loop goes on serving while the search runs.
Outside gevent (tests' in-process apps, a sync worker), or with ``HINTS_OFF_LOOP`` off,
it is a plain call. ``python -m bench.hint_stall`` measures both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from flask import current_app

T = TypeVar("T")


def _gevent_loop() -> bool:
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent ships with the service
        return False
    return bool(monkey.is_module_patched("threading"))


def cpu_bound(work: Callable[[], T]) -> T:
    """``work()``, in the gevent hub's thread pool when this process runs gevent."""
    if not current_app.config["HINTS_OFF_LOOP"] or not _gevent_loop():
        return work()
    from gevent import get_hub

    return cast(T, get_hub().threadpool.apply(work))

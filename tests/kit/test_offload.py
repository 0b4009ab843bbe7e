"""A hint's search runs off a gevent worker's event loop (shared/http/offload.py): in
the hub's thread pool under gevent, a plain call elsewhere or when switched off."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from flask import Flask

from shared.http.offload import cpu_bound

UNDER_GEVENT = textwrap.dedent(
    """
    from gevent import monkey
    monkey.patch_all()
    import gevent
    os_thread = monkey.get_original("_thread", "get_ident")
    from flask import Flask
    from shared.http.offload import cpu_bound

    app = Flask("probe")
    ticks = []

    def ticker():  # another request's greenlet: it runs while the search computes
        while len(ticks) < 5:
            ticks.append(1)
            gevent.sleep(0.005)

    def search():
        seen = len(ticks)
        total = 0
        for i in range(3_000_000):
            total += i
        return os_thread(), seen

    for flag in (True, False):
        app.config["HINTS_OFF_LOOP"] = flag
        ticks.clear()
        other = gevent.spawn(ticker)
        gevent.sleep(0)
        with app.app_context():
            thread, seen = cpu_bound(search)
        ticked = len(ticks)
        other.join()
        print(flag, thread != os_thread(), ticked)
    """
)


def test_under_gevent_the_work_runs_in_a_thread_and_the_loop_goes_on() -> None:
    out = subprocess.run(
        [sys.executable, "-c", UNDER_GEVENT],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert out.returncode == 0, out.stderr
    on, off = (line.split() for line in out.stdout.strip().splitlines())
    # on: another thread, and the other greenlet ticked to its end while it computed
    assert on == ["True", "True", "5"], out.stdout
    # off: on the loop's own thread, and the other greenlet waited (one tick at most)
    assert off[:2] == ["False", "False"] and int(off[2]) <= 1, out.stdout


def test_outside_gevent_it_is_a_plain_call() -> None:
    app = Flask("probe")
    app.config["HINTS_OFF_LOOP"] = True
    with app.app_context():
        assert cpu_bound(threading.get_ident) == threading.get_ident()

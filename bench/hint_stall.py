"""What a hint's search costs the other requests of its web process (issue 42).

Run: ``python -m bench.hint_stall [--game manhattan] [--hints 30]``.

One gunicorn gevent worker (``WEB_CONCURRENCY=1``, served as ``make run`` serves it) on a
private Redis, twice: with ``HINTS_OFF_LOOP=0`` (the search runs on the worker's event
loop) and ``=1`` (in the gevent hub's thread pool: shared/http/offload.py). A prober
reads a game's view (``GET /games/{id}``) every 20 ms throughout; meanwhile a seat asks
``--hints`` hints one after another. Printed per mode: the prober's latency while hints
were computed (p50, p99, max) and the hints' own wall time (median). The baseline is
the prober on the same server before the first hint.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from typing import Any

import requests

from bench.common import gunicorn, redis_server

PROBE_EVERY = 0.02


def post(base: str, path: str, body: dict, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.post(f"{base}{path}", json=body, headers=headers, timeout=30)
    r.raise_for_status()
    return r.json()


def seat_to_act(base: str, hints: int) -> tuple[str, str]:
    """A started two-seat game allowing ``hints`` hints: its id and the token of the seat
    to act."""
    created = post(base, "/games", {"players": 2, "seed": 7, "hints": hints, "rated": False})
    game = created["id"]
    tokens = {}
    for name in ("Ann", "Bob"):
        joined = post(base, f"/games/{game}/players", {"name": name})
        tokens[joined["seat"]] = joined["token"]
    started = post(base, f"/games/{game}/start", {}, created["host_token"])
    return game, tokens[started["to_act"][0]]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


class Prober(threading.Thread):
    """Reads a game's view every :data:`PROBE_EVERY`, recording each latency with the
    phase it was taken in (``quiet`` or ``hints``)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.phase = "quiet"
        self.latencies: dict[str, list[float]] = {"quiet": [], "hints": []}
        self.stop = threading.Event()
        self.session = requests.Session()

    def run(self) -> None:
        while not self.stop.is_set():
            phase, began = self.phase, time.perf_counter()
            self.session.get(self.url, timeout=30).raise_for_status()
            self.latencies[phase].append(time.perf_counter() - began)
            time.sleep(PROBE_EVERY)


def measure(game: str, count: int, off_loop: bool) -> dict[str, Any]:
    env = {"WEB_CONCURRENCY": "1", "HINTS_OFF_LOOP": "1" if off_loop else "0"}
    with redis_server() as server, gunicorn(game, server.url, env=env) as service:
        game_id, token = seat_to_act(service.base, 20)
        prober = Prober(f"{service.base}/games/{game_id}")
        prober.start()
        time.sleep(2)  # the quiet baseline
        prober.phase = "hints"
        walls = []
        for n in range(count):
            if n and n % 20 == 0:
                game_id, token = seat_to_act(service.base, 20)
            began = time.perf_counter()
            post(service.base, f"/games/{game_id}/hint", {}, token)
            walls.append(time.perf_counter() - began)
        prober.stop.set()
        prober.join()
    return {"walls": walls, **prober.latencies}


def row(name: str, values: list[float]) -> str:
    ms = [1000 * v for v in values]
    return (
        f"  {name:28} p50 {statistics.median(ms):7.1f} ms  p99 {percentile(ms, 0.99):7.1f} ms"
        f"  max {max(ms):7.1f} ms  ({len(ms)} reads)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="manhattan", choices=("manhattan", "windcity"))
    parser.add_argument("--hints", type=int, default=30)
    args = parser.parse_args()
    print(f"python -m bench.hint_stall --game {args.game} --hints {args.hints}")
    for off_loop in (False, True):
        got = measure(args.game, args.hints, off_loop)
        print(
            f"HINTS_OFF_LOOP={int(off_loop)}: hint wall median "
            f"{1000 * statistics.median(got['walls']):.0f} ms over {len(got['walls'])} hints"
        )
        print(row("a view, before any hint", got["quiet"]))
        print(row("a view, while hints compute", got["hints"]))


if __name__ == "__main__":
    main()

"""What a hint's search costs the other requests of its web process (issue 42).

Run: ``python -m bench.hint_stall [--game windcity] [--hints 40] [--moves 20]``.

One gunicorn gevent worker (``WEB_CONCURRENCY=1``, served as ``make run`` serves it) on a
private Redis, twice: with ``HINTS_OFF_LOOP=0`` (the search runs on the worker's event
loop, so every other request of the process waits while it computes) and ``=1`` (in the
gevent hub's thread pool: shared/http/offload.py). A prober reads a game's view (``GET
/games/{id}``) every 20 ms throughout; meanwhile a seat asks ``--hints`` hints one after
another, in games ``--moves`` random moves in (20 hints a game, its allowance at most;
the same games in both modes). Printed per mode: the prober's latency while hints were
computed (p50, p99, max) against the baseline, the prober on the same server before
the first hint, and the hints' own wall time (median, max).
"""

from __future__ import annotations

import argparse
import random
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


def seat_to_act(base: str, hints: int, moves: int, rng: random.Random) -> tuple[str, str]:
    """A two-seat game allowing ``hints`` hints, ``moves`` random moves in: its id and the
    token of the seat to act."""
    created = post(base, "/games", {"players": 2, "hints": hints, "rated": False})
    game = created["id"]
    tokens = {}
    for name in ("Ann", "Bob"):
        joined = post(base, f"/games/{game}/players", {"name": name})
        tokens[joined["seat"]] = joined["token"]
    view = post(base, f"/games/{game}/start", {}, created["host_token"])
    for _ in range(moves):
        token = tokens[view["to_act"][0]]
        legal = get(base, f"/games/{game}/legal-moves", token)["moves"]
        view = post(base, f"/games/{game}/moves", rng.choice(legal), token)["game"]
    return game, tokens[view["to_act"][0]]


def get(base: str, path: str, token: str) -> Any:
    r = requests.get(f"{base}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    r.raise_for_status()
    return r.json()


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


def measure(game: str, count: int, moves: int, off_loop: bool) -> dict[str, Any]:
    rng = random.Random(7)
    env = {"WEB_CONCURRENCY": "1", "HINTS_OFF_LOOP": "1" if off_loop else "0"}
    with redis_server() as server, gunicorn(game, server.url, env=env) as svc:
        game_id, token = seat_to_act(svc.base, 20, moves, rng)
        prober = Prober(f"{svc.base}/games/{game_id}")
        prober.start()
        time.sleep(2)  # the quiet baseline
        prober.phase = "hints"
        walls = []
        for n in range(count):
            if n and n % 20 == 0:
                game_id, token = seat_to_act(svc.base, 20, moves, rng)
            began = time.perf_counter()
            post(svc.base, f"/games/{game_id}/hint", {}, token)
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
    parser.add_argument("--game", default="windcity", choices=("manhattan", "windcity"))
    parser.add_argument("--hints", type=int, default=40)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    print(
        f"python -m bench.hint_stall --game {args.game} --hints {args.hints} --moves {args.moves}"
    )
    for off_loop in (False, True):
        got = measure(args.game, args.hints, args.moves, off_loop)
        walls = [1000 * w for w in got["walls"]]
        print(
            f"HINTS_OFF_LOOP={int(off_loop)}: a hint's wall median "
            f"{statistics.median(walls):.0f} ms, max {max(walls):.0f} ms over {len(walls)} hints"
        )
        print(row("a view, before any hint", got["quiet"]))
        print(row("a view, while hints compute", got["hints"]))


if __name__ == "__main__":
    main()

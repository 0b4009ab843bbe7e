"""CPU of a move inside the app: the seat's read and its ``POST /moves``, in-process.

Run: ``python -m bench.move_cpu [--game manhattan] [--games 20] [--rounds 5]``.

The real app on a private Redis (no append-only file), bots playing random legal moves
with an ``Idempotency-Key`` each, as ``bench.load``'s generator does. Measured with
``time.process_time`` around the WSGI app only (not Flask's test client), best of
``--rounds`` rounds of fresh games: steadier on a shared machine than rates, and without
gunicorn's and gevent's share (``bench.load`` measures the whole). Redis's own time
per move comes from ``INFO commandstats`` (every command, the write script included).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from bench.common import redis_server
from bench.inproc import Bot, make_app


def run(game: str, games: int, rounds: int) -> dict[str, float]:
    spent: dict[str, float] = {"read": 0.0, "post": 0.0}
    calls: Counter[str] = Counter()
    best = {"read_us": 1e18, "post_us": 1e18, "redis_us_per_move": 1e18}
    with redis_server(appendonly=False) as server:
        app, _ = make_app(game, server.url)
        inner = app.wsgi_app

        def timed(environ: dict[str, Any], start_response: Any) -> Any:
            kind = "post" if environ["REQUEST_METHOD"] == "POST" else "read"
            start = time.process_time()
            try:
                return inner(environ, start_response)
            finally:
                spent[kind] += time.process_time() - start
                calls[kind] += 1

        app.wsgi_app = timed  # type: ignore[method-assign]
        client = server.client()
        for n in range(rounds):
            bots = [Bot(app, 4, seed) for seed in range(n * games, (n + 1) * games)]
            spent.update(read=0.0, post=0.0)
            calls.clear()
            client.config_resetstat()
            while any([bot.step() for bot in bots]):
                pass
            stats = client.info("commandstats")
            redis_us = sum(v["usec"] for k, v in stats.items() if k != "cmdstat_config|resetstat")
            best["read_us"] = min(best["read_us"], spent["read"] / calls["read"] * 1e6)
            best["post_us"] = min(best["post_us"], spent["post"] / calls["post"] * 1e6)
            best["redis_us_per_move"] = min(best["redis_us_per_move"], redis_us / calls["post"])
    return {k: round(v, 1) for k, v in best.items()}


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    out = run(args.game, args.games, args.rounds)
    print(
        f"`python -m bench.move_cpu --game {args.game}` (best of {args.rounds} rounds of "
        f"{args.games} games): app CPU per read {out['read_us']} µs, per POST "
        f"{out['post_us']} µs; Redis {out['redis_us_per_move']} µs per move"
    )
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

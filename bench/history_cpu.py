"""CPU that the compact history adds to a move (shared/games/records.py).

Run: ``python -m bench.history_cpu [--game manhattan] [--games 20] [--players 4]``.

The real app runs in-process on a private Redis; bots play random legal moves with an
``Idempotency-Key`` each (what the CLI sends). Measured with ``time.process_time``
(CPU of this process, not wall time, so neighbours on the machine matter less): the
whole ``POST /moves`` request, and inside it the history's own work, that is the
write's record, the rollover that compresses the tail into an archive chunk, and the
key's search in the tail. Also Redis's own CPU per write script call
(``INFO commandstats``, µs per EVALSHA).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from bench.common import redis_server
from bench.inproc import Bot, make_app
from shared.games import records, writes


def run(game: str, games: int, players: int) -> dict[str, float]:
    spent = {"history": 0.0, "posts": 0.0}
    calls = {"history": 0, "posts": 0}

    def timed(name: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
                calls[name] += 1

        return wrapper

    writes.records.next_write = timed("history", records.next_write)  # type: ignore[attr-defined]
    writes.records.find = timed("history", records.find)  # type: ignore[attr-defined]
    with redis_server(appendonly=False) as server:
        app, _ = make_app(game, server.url)
        client = server.client()
        bots = [Bot(app, players, seed, True) for seed in range(games)]
        evalsha0 = client.info("commandstats").get("cmdstat_evalsha", {"calls": 0, "usec": 0})
        for bot in bots:
            bot.post = timed("posts", bot.post)  # type: ignore[method-assign]
            while bot.step():
                pass
        evalsha = client.info("commandstats")["cmdstat_evalsha"]
    posts = calls["posts"]
    script_calls = evalsha["calls"] - evalsha0["calls"]
    return {
        "moves": posts,
        "post_cpu_us": round(spent["posts"] / posts * 1e6, 1),
        "history_cpu_us": round(spent["history"] / posts * 1e6, 1),
        "history_share": round(spent["history"] / spent["posts"] * 100, 1),
        "redis_us_per_write": round((evalsha["usec"] - evalsha0["usec"]) / script_calls, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    out = run(args.game, args.games, args.players)
    print(
        f"`python -m bench.history_cpu --game {args.game}`: {out['moves']} POST /moves; "
        f"CPU per POST {out['post_cpu_us']} µs, of which the history {out['history_cpu_us']} µs "
        f"({out['history_share']}%); Redis per write script {out['redis_us_per_write']} µs"
    )
    return out


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

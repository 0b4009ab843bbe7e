"""The load generator: gevent greenlets over raw keep-alive HTTP/1.1 sockets.

Run by the bench scripts as a separate process (pinned with ``taskset``), never
imported by them; prints one JSON line with its figures. One process, one core at most,
no requests/http.client overhead, JSON through orjson: a request costs the generator a few tens of
microseconds, so it does not starve the services it measures (its CPU use is reported).

Modes:
- ``floor``: ``--conns`` connections each GET the floor endpoint in a loop (closed loop).
- ``games``: ``--games`` games are created, joined by ``--players`` bots and started
  (untimed), then played: ``--mode closed`` every game plays its moves back to back to
  the end (maximum throughput); ``--mode open`` moves are *started* on a fixed schedule
  at ``--rate`` moves/s, each on an idle game, latency counted from the scheduled start
  (no coordinated omission). ``--waiters W`` adds W clients long-polling the events of
  idle started games the whole time.

A "move" is what a bot does for one turn: ``GET /games/{id}?include=legal_moves`` with the
seat's token, pick one at random, ``POST /games/{id}/moves`` with it (bearer token and an
``Idempotency-Key``, as the CLI client sends). The POST answer tells whose turn is next.

``--posts-only --game G``: each turn is the POST alone. The generator keeps its own copy of
every game (G's engine, set up with the game's seed and options, each accepted move
applied to it), so it knows the legal moves without asking; the server still checks each
move in full. A move the server refuses counts as an error.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402

from bench import loadgen_client  # noqa: E402
from bench.loadgen_client import TIMEOUT  # noqa: E402
from bench.loadgen_runs import ENGINES, run_floor, run_games  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=["floor", "games"])
    ap.add_argument("--base", required=True)
    ap.add_argument("--conns", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=["closed", "open"], default="closed")
    ap.add_argument("--rate", type=float, default=100)
    ap.add_argument("--waiters", type=int, default=0)
    ap.add_argument("--posts-only", action="store_true", help="closed loop of POSTs alone")
    ap.add_argument("--game", choices=sorted(ENGINES), help="the engine of --posts-only")
    ap.add_argument("--wait", type=float, default=30, help="longest long-poll wait, s")
    ap.add_argument("--settle", type=float, default=8, help="seconds for waiters to park")
    ap.add_argument("--timeout", type=float, default=TIMEOUT, help="per request, seconds")
    args = ap.parse_args()
    loadgen_client.TIMEOUT = args.timeout  # what Conn.request reads
    if args.posts_only and (args.mode != "closed" or args.game is None):
        ap.error("--posts-only needs --mode closed and --game")
    result = run_floor(args) if args.what == "floor" else run_games(args)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

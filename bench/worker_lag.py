"""Bot-move lag of the worker: from the moment a move is due to the moment it is played.

Run: ``python -m bench.worker_lag [--games 1000] [--seconds 20] [--rate 100] [--workers 1]``.

A private Redis; ``--games`` Manhattan games, each of one human seat and three bot seats
(random, greedy, random) with a turn clock (``--turn-seconds``, default 10), all running
at once. The bench plays the human seats in-process (``Games.move``, the same write as an
HTTP move) at ``--rate`` moves per second in total, round robin over the games whose
human is to act; every human move makes the bots due at once, and a human that is not
served in time times out. ``--workers`` real ``python -m shared.worker`` processes play
the bots and the timeouts; each reports the lag of every move it played (due time:
the deadline for a timeout, the write that made a bot seat due for a bot move). Prints
p50/p99/max lag and the command. Never fails on timing: it reports.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from bench.common import redis_server, start_workers
from services.manhattan.app import create_app
from shared.games import seat_ops
from shared.games.tokens import hash_token

ROOT = Path(__file__).resolve().parent.parent


def _games(app, count: int, turn_seconds: int) -> list[tuple[str, str]]:
    """``count`` running games: (id, the human seat's token hash)."""
    kit = app.extensions["game_kit"].games
    out = []
    for n in range(count):
        doc, host, _ = kit.create(
            {"players": 4, "seed": n, "clock": {"turn_seconds": turn_seconds, "max_timeouts": 3}}
        )
        _, _, token = kit.join(doc["id"], "human")
        for bot in ("random", "greedy", "random"):
            seat_ops.add_bot(kit, doc["id"], hash_token(host), bot, None, None)
        kit.start(doc["id"], hash_token(host))
        out.append((doc["id"], hash_token(token)))
    return out


def _percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def run(games: int, seconds: float, rate: float, workers: int, turn_seconds: int) -> dict:
    with redis_server(appendonly=False) as server, TemporaryDirectory() as tmp:
        config = {"REDIS_URL": server.url, "LOG_LEVEL": "WARNING", "CLOCK_MIN_TURN_SECONDS": 1}
        app = create_app(config)
        kit = app.extensions["game_kit"].games
        procs = start_workers(server.url, tmp, workers)
        started = time.monotonic()
        playing = _games(app, games, turn_seconds)
        setup = time.monotonic() - started
        rng = random.Random(1)
        human_moves = 0
        began = time.monotonic()
        index = 0
        while time.monotonic() - began < seconds:
            target = began + human_moves / rate
            pause = target - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            gid, digest = playing[index % len(playing)]
            index += 1
            doc = kit.load(gid)
            if 0 not in doc["to_act"]:
                continue
            legal = kit.legal_moves(doc, 0)
            try:
                kit.move(gid, digest, rng.choice(legal))
                human_moves += 1
            except Exception:  # the worker played this turn first (a timeout), or abandoned
                continue
        elapsed = time.monotonic() - began
        # drain: let the workers play what is due, so no due move escapes the figures
        store = kit.store
        drain_until = time.monotonic() + 30
        while time.monotonic() < drain_until:
            now = int(time.time() * 1000)
            keys = [store.shard_key(k) for k in range(store.due_shards)]
            if not any(store.client.zcount(key, "-inf", now) for key in keys):
                break
            time.sleep(0.1)
        time.sleep(1.5)  # longer than a lease: claimed games are played or due again
        lags: list[int] = []
        bot_moves = 0
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=60)
            report = json.loads(out.strip().splitlines()[-1])
            lags += report["lags_ms"]
            bot_moves += report["moves"]
        finished = sum(1 for gid, _ in playing if kit.load(gid)["status"] == "finished")
    return {
        "games": games,
        "workers": workers,
        "setup_s": round(setup, 1),
        "seconds": round(elapsed, 1),
        "human_moves": human_moves,
        "bot_moves": bot_moves,
        "bot_moves_per_s": round(bot_moves / elapsed, 1),
        "finished_games": finished,
        "lag_ms": {
            "p50": _percentile(lags, 0.50),
            "p99": _percentile(lags, 0.99),
            "max": max(lags, default=0),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=100.0, help="human moves per second")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--turn-seconds", type=int, default=10)
    args = parser.parse_args()
    result = run(args.games, args.seconds, args.rate, args.workers, args.turn_seconds)
    print("command: python -m bench.worker_lag " + " ".join(sys.argv[1:]))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

"""The worker's fairness: one client floods the worker with all-bot games while another
plays a few games against bots; how late are the other client's bot moves?

Run: ``python -m bench.fairness [--flood 400] [--others 4] [--seconds 20] [--rate 4]
[--workers 1] [--baseline-tree PATH]``.

A private Redis. The flooding client (``owner`` ``flood``, as an API key's id would be)
creates ``--flood`` Manhattan games of four random bots and starts them all at once; the
other client (``other``) has ``--others`` games of one human and three bots (random,
greedy, random), whose human the bench plays at ``--rate`` moves per second in total. Both
create their games in-process (``Lifecycle.create``, the write ``POST /games`` makes), and
``--workers`` real ``python -m shared.worker`` processes play every bot. The lag of a bot
move is read from the game's stored history afterwards, as the worker defines it: from
the write that made the bot's seat due to the bot's own write. Printed: the other
client's bot-move lag (p50/p99/max, ms) over the measured ``--seconds``, the flood's bot
moves per second while it lasted, and how many flood games were still running at the end
(they should be: once the flood is over, the other client has the worker to itself;
``flood_lasted_s`` says when it ended otherwise).

``--baseline-tree PATH``: the same bench also runs on another source tree (e.g. the last
commit, ``git archive HEAD | tar -x -C /tmp/base``) and both results are printed, first
the baseline: the old scheduling against the new in one command. The script only uses
what both trees have, so it runs from this file against the other tree's modules.
Never fails on timing: it reports.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from bench.common import redis_server, start_workers, wait_until
from services.manhattan.app import create_app
from shared.games import history
from shared.games.tokens import hash_token
from shared.usecases import seat_ops

FLOOD, OTHER = "flood", "other"


def _game(kit: Any, owner: str, bots: list[str], human: bool, seed: int) -> tuple[str, str | None]:
    """A started game of ``owner``: its id and the human seat's token hash (or None)."""
    doc, host, _ = kit.lifecycle.create({"players": len(bots) + human, "seed": seed}, owner)
    digest = None
    if human:
        digest = hash_token(kit.lifecycle.join(doc["id"], "human")[2])
    for bot in bots:
        seat_ops.add_bot(kit, doc["id"], hash_token(host), bot, None, None)
    kit.lifecycle.start(doc["id"], hash_token(host))
    return doc["id"], digest


def _records(store: Any, game_id: str) -> list[list[Any]]:
    _, _, tail, hist = store.keys(game_id)
    return history.stored(store.client.get(tail), store.client.get(hist))


def _bot_lags(
    store: Any, game_id: str, since_ms: int, until_ms: int, human: int | None = 0
) -> list[int]:
    """The lags (ms) of the game's bot moves (every seat but ``human``) written in
    [since, until)."""
    lags, last = [], None
    for record in _records(store, game_id):
        version, at = record[0], record[1]
        bot = history.is_move(record) and record[2] != human
        if bot and since_ms <= at < until_ms and last is not None and last[0] == version - 1:
            lags.append(at - last[1])
        last = (version, at)
    return lags


def _percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def run(flood: int, others: int, seconds: float, rate: float, workers: int) -> dict[str, Any]:
    with redis_server(appendonly=False) as server, TemporaryDirectory() as tmp:
        config = {"REDIS_URL": server.url, "LOG_LEVEL": "WARNING"}
        app = create_app(config)
        kit = app.extensions["game_kit"].games
        procs = start_workers(server.url, tmp, workers)
        mine = [_game(kit, OTHER, ["random", "greedy", "random"], True, n) for n in range(others)]
        began = time.monotonic()
        flooded = [_game(kit, FLOOD, ["random"] * 4, False, 10_000 + n)[0] for n in range(flood)]
        setup = time.monotonic() - began
        rng = random.Random(1)
        human_moves = 0
        since_ms = int(time.time() * 1000)
        began = time.monotonic()
        index = 0
        while time.monotonic() - began < seconds:
            pause = began + human_moves / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            gid, digest = mine[index % len(mine)]
            index += 1
            doc = kit.writes.load(gid)
            if doc["status"] != "running" or 0 not in doc["to_act"]:
                if index % len(mine) == 0:
                    time.sleep(0.01)  # every game's bots are still to play
                continue
            try:
                kit.moves.move(gid, digest, rng.choice(kit.legal_moves(doc, 0)))
                human_moves += 1
            except Exception:  # noqa: BLE001 - the game moved on meanwhile
                continue
        elapsed = time.monotonic() - began
        until_ms = int(time.time() * 1000)
        running = sum(1 for gid in flooded if kit.writes.load(gid)["status"] == "running")
        # let the bots answer the last human moves (their lags are counted too)
        wait_until(
            lambda: all(
                0 in (d := kit.writes.load(gid))["to_act"] or d["status"] != "running"
                for gid, _ in mine
            ),
            60,
            "the other client's bots",
        )
        lags = [
            lag for gid, _ in mine for lag in _bot_lags(kit.store, gid, since_ms, until_ms + 60_000)
        ]
        # the flood's pace while it lasted (its last write, if it ended in the window)
        ends = [_records(kit.store, gid)[-1][1] for gid in flooded]
        flood_until = min(until_ms, max(ends)) if running == 0 else until_ms
        flood_moves = sum(
            len(_bot_lags(kit.store, gid, since_ms, flood_until, None)) for gid in flooded
        )
        flood_s = max(0.001, (flood_until - since_ms) / 1000)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)
    return {
        "flood_games": flood,
        "other_games": others,
        "workers": workers,
        "setup_s": round(setup, 1),
        "seconds": round(elapsed, 1),
        "other_human_moves": human_moves,
        "other_bot_moves": len(lags),
        "other_bot_lag_ms": {
            "p50": _percentile(lags, 0.50),
            "p99": _percentile(lags, 0.99),
            "max": max(lags, default=0),
        },
        "flood_bot_moves_per_s": round(flood_moves / flood_s, 1),
        "flood_lasted_s": None if running else round(flood_s, 1),
        "flood_games_still_running": running,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=400, help="all-bot games of one client")
    parser.add_argument("--others", type=int, default=4, help="the other client's games")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=4.0, help="the other's human moves/s")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--baseline-tree", help="also run on this source tree, first")
    parser.add_argument("--json", action="store_true", help="print the result only")
    args = parser.parse_args()
    shape = [
        f"--flood={args.flood}",
        f"--others={args.others}",
        f"--seconds={args.seconds}",
        f"--rate={args.rate}",
        f"--workers={args.workers}",
    ]
    results = {}
    if args.baseline_tree:
        tree = str(Path(args.baseline_tree).resolve())
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), *shape, "--json"],
            env={**os.environ, "PYTHONPATH": tree},
            cwd=tree,
            capture_output=True,
            text=True,
            check=True,
        )
        results["baseline"] = json.loads(out.stdout.strip().splitlines()[-1])
    results["this tree"] = run(args.flood, args.others, args.seconds, args.rate, args.workers)
    if args.json:
        print(json.dumps(results["this tree"]))
        return
    print("command: python -m bench.fairness " + " ".join(sys.argv[1:]))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

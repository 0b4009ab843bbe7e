"""Bot-move lag of the worker: from the moment a bot seat's turn starts (the write that
made it the seat to act) to the moment its move lands (its own write).

Run: ``python -m bench.worker_lag [--games 25,50,100,200] [--level strong] [--workers 2]
[--bot-processes 1] [--think 5,10] [--seconds 60] [--warmup 10] [--turn-seconds 60]``;
``--bots random,greedy,random`` seats those levels instead of ``--level``, and ``--rate
50`` paces all the humans together at 50 moves/s, moving as soon as they are to act,
instead of ``--think`` (the mode of this bench before issue 32).

For each number in ``--games``: a fresh private Redis and ``--workers`` real ``python -m
shared.worker`` processes (``WORKER_BOT_PROCESSES=--bot-processes`` each), then that many
clocked Manhattan games of one human seat and three bot seats of ``--level``, each game
created by a client of its own (like phone players, each at its own address). The bench
plays the humans in-process (``Moves.move``, the write of an HTTP move; the API's own CPU
for those requests is not spent here): a human moves ``think`` seconds after its turn
began (its deadline less ``--turn-seconds``), ``think`` drawn uniformly from ``--think``
for each move, as a person on a phone. The lags are read from the games' own history
(each write's time): every bot move whose turn began after ``--warmup`` seconds and
before the end of ``--seconds``; a bot turn still unplayed ``--drain`` seconds after the
humans stopped counts at its age so far (a lower bound; reported apart).

Prints per number of games: the lag's mean, p50, p99 and max, bot moves per second, the
CPU the workers and their bot pools used per bot move, the human turns' pace, and what
the humans' pace asks of the pool next to what it can do (``capacity``: below). Never
fails on timing: it reports.

Capacity. A search decision (``medium``, ``strong``) ends at its iteration budget or its
time cap (shared/bots ``LEVELS``), whichever comes first, so one pool process makes at
most ``1 / cap`` decisions a second, and the machine at most ``cores / CPU per decision``.
A game asks for 3 decisions per cycle of ``think + 3 bot moves``; past capacity the pool
queues, the humans (who wait for the bots) slow down to its pace, and each bot move's
lag tends to ``(games * 3 / decisions per second - think) / 3``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from statistics import mean
from tempfile import TemporaryDirectory
from typing import Any

from bench.common import children, cpu_seconds, redis_server, start_workers
from services.manhattan.app import create_app
from shared import bots
from shared.games import Games, history, seats
from shared.games.audience import seated
from shared.games.tokens import hash_token
from shared.store import History
from shared.usecases import seat_ops

ROOT = Path(__file__).resolve().parent.parent
HUMAN = 0  # the human's seat (join order: the human joins first)
POLL = 0.5  # seconds between looks at a game whose bots are to act


def _games(kit: Games, count: int, levels: list[str], turn_seconds: int) -> list[tuple[str, str]]:
    """``count`` running games: (id, the human seat's token hash)."""
    out = []
    for n in range(count):
        owner = f"addr:198.51.{n // 250}.{n % 250}"  # a client per game (a phone each)
        clock = {"turn_seconds": turn_seconds, "max_timeouts": 3}
        doc, host, _ = kit.lifecycle.create({"players": 4, "seed": n, "clock": clock}, owner)
        _, _, token = kit.lifecycle.join(doc["id"], "human")
        for level in levels:
            seat_ops.add_bot(kit, doc["id"], hash_token(host), level, None, None)
        kit.lifecycle.start(doc["id"], hash_token(host))
        out.append((doc["id"], hash_token(token)))
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _tree(pids: list[int]) -> list[int]:
    """``pids`` and all their descendants (a worker's bot pool)."""
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children(pid))
    return out


class Humans:
    """The human seats: each moves ``think`` seconds after its turn began."""

    def __init__(
        self,
        kit: Games,
        playing: list[tuple[str, str]],
        think: tuple[float, float],
        rate: float = 0.0,
    ) -> None:
        self.kit, self.playing, self.think, self.rate = kit, playing, think, rate
        self.began = time.monotonic()
        self.rng = random.Random(1)
        self.queue = [(time.monotonic(), n) for n in range(len(playing))]
        self.planned: dict[int, tuple[int, float]] = {}  # game: (version, move at, epoch s)
        self.moves = 0
        self.thought: list[float] = []  # each move's time from its turn's start

    def play_until(self, until: float) -> None:
        """The humans' moves until ``until`` (monotonic)."""
        kit = self.kit
        while self.queue and self.queue[0][0] < until:
            at, n = heapq.heappop(self.queue)
            time.sleep(max(0.0, at - time.monotonic()))
            gid, digest = self.playing[n]
            doc = kit.writes.load(gid)
            human = doc["players"][HUMAN]
            if doc["status"] != "running" or human.get("status") != seats.ACTIVE:
                continue  # over, or abandoned (the bench fell behind): no more human moves
            deadline, clock = human.get("deadline"), doc.get("clock")
            if HUMAN not in doc["to_act"] or deadline is None or clock is None:
                heapq.heappush(self.queue, (time.monotonic() + POLL, n))
                continue
            began = seats.parse_ms(deadline) / 1000 - clock["turn_seconds"]
            version, when = self.planned.get(n, (-1, 0.0))
            if version != doc["version"]:
                when = began + self.rng.uniform(*self.think)
                self.planned[n] = (doc["version"], when)
            wait = when - time.time()
            if self.rate:  # the old mode: no think time, all humans at --rate moves/s
                wait = self.began + self.moves / self.rate - time.monotonic()
            if wait > 0:
                heapq.heappush(self.queue, (time.monotonic() + wait, n))
                continue
            try:
                kit.moves.move(
                    gid, digest, self.rng.choice(kit.answers(seated(HUMAN)).legal_moves(doc))
                )
                self.moves += 1
                self.thought.append(time.time() - began)
            except Exception:  # the worker played this turn first (a timeout)
                pass
            heapq.heappush(self.queue, (time.monotonic() + POLL, n))


def _lags(kit: Games, playing: list[tuple[str, str]], start_ms: int, end_ms: int) -> dict:
    """Every bot move whose turn began in [start_ms, end_ms): its lag in ms, from the
    games' histories; a bot turn still unplayed counts at its age (``unplayed``)."""
    lags: list[float] = []
    unplayed: list[float] = []
    now = seats.now_ms()
    for gid, _ in playing:
        found = kit.store.history(gid)
        assert isinstance(found, History)  # (not the old layout: the games are new)
        records = history.stored(found.tail, found.hist)
        for before, record in zip(records, records[1:], strict=False):
            if history.is_move(record) and record[2] != HUMAN and start_ms <= before[1] < end_ms:
                lags.append(record[1] - before[1])
        doc = kit.writes.load(gid)
        last = records[-1][1] if records else now
        if doc["status"] == "running" and HUMAN not in doc["to_act"] and last < end_ms:
            unplayed.append(now - last)
    return {"lags": lags + unplayed, "unplayed": unplayed}


def _wait_drained(kit: Games, playing: list[tuple[str, str]], seconds: float) -> None:
    """Until no bot is to act in any running game (the bots caught up with the humans,
    who no longer move), at most ``seconds``."""
    until = time.monotonic() + seconds
    waiting = [gid for gid, _ in playing]
    while waiting and time.monotonic() < until:
        docs = [kit.writes.load(gid) for gid in waiting]
        waiting = [d["id"] for d in docs if d["status"] == "running" and HUMAN not in d["to_act"]]
        time.sleep(0.5 if waiting else 0)


def run_one(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement with ``games`` games (a fresh Redis and workers)."""
    settings = {"WORKER_BOT_PROCESSES": str(args.bot_processes)}
    settings.update(item.split("=", 1) for item in args.setting)
    think = (args.think[0], args.think[1])
    with redis_server(appendonly=False) as server, TemporaryDirectory() as tmp:
        config = {"REDIS_URL": server.url, "LOG_LEVEL": "WARNING", "CLOCK_MIN_TURN_SECONDS": 1}
        kit: Games = create_app(config).extensions["game_kit"].games
        procs = start_workers(server.url, tmp, args.workers, settings)
        try:
            playing = _games(kit, games, _levels(args), args.turn_seconds)
            humans = Humans(kit, playing, think, args.rate)
            began = time.monotonic()
            start_ms = seats.now_ms() + int(args.warmup * 1000)
            end_ms = start_ms + int(args.seconds * 1000)
            humans.play_until(began + args.warmup)  # the warm-up: its moves are not counted
            pids = _tree([p.pid for p in procs])
            worker_cpu, redis_cpu = cpu_seconds(pids), cpu_seconds([server.proc.pid])
            own_cpu, moves, thought = time.process_time(), humans.moves, len(humans.thought)
            humans.play_until(began + args.warmup + args.seconds)
            moves, thought_s = humans.moves - moves, humans.thought[thought:]
            _wait_drained(kit, playing, args.drain)
            window = time.monotonic() - began - args.warmup
            worker_cpu = cpu_seconds(_tree([p.pid for p in procs])) - worker_cpu
            redis_cpu = cpu_seconds([server.proc.pid]) - redis_cpu
            own_cpu = time.process_time() - own_cpu
            found = _lags(kit, playing, start_ms, end_ms)
            alive = sum(1 for proc in procs if proc.poll() is None)
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                proc.communicate(timeout=60)
    lags = [x / 1000 for x in found["lags"]]
    played = len(lags) - len(found["unplayed"])
    return {
        "games": games,
        "workers_alive_at_end": alive,
        "lag_s": {
            "mean": round(mean(lags), 3) if lags else 0.0,
            "p50": round(_percentile(lags, 0.50), 3),
            "p99": round(_percentile(lags, 0.99), 3),
            "max": round(max(lags, default=0.0), 3),
        },
        "bot_moves": played,
        "unplayed_at_end": len(found["unplayed"]),
        "bot_moves_per_s": round(played / args.seconds, 2),
        "human_moves": moves,
        "human_think_s": round(mean(thought_s), 2) if thought_s else 0.0,
        "cpu_s": {
            "workers_and_pools": round(worker_cpu, 1),
            "redis": round(redis_cpu, 1),
            "bench_humans": round(own_cpu, 1),
            "per_bot_move_ms": round(1000 * worker_cpu / played, 1) if played else 0.0,
            "window_s": round(window, 1),
        },
    }


def _levels(args: argparse.Namespace) -> list[str]:
    return args.bots.split(",") if args.bots else [args.level] * 3


def capacity(args: argparse.Namespace, cpu_per_move_ms: float) -> dict[str, Any]:
    """What one game asks for, and what the pool and the machine can give: decisions a
    second (a search decision lasts at most its time cap, wall clock; ``cpu``: at the
    CPU a bot move cost in the run, which falls when more processes share the cores)."""
    plans = [bots.LEVELS[level].plan_for("manhattan") for level in _levels(args)]
    cap_s = max((plan.ms / 1000 for plan in plans if plan is not None), default=0.0)
    cores = os.cpu_count() or 1
    think = (args.think[0] + args.think[1]) / 2
    per_game = 3 / (think + 3 * cap_s)
    out: dict[str, Any] = {"cores": cores, "time_cap_ms": cap_s * 1000}
    if not args.rate:
        out["decisions_per_s_per_game"] = round(per_game, 3)
    if cap_s:
        pool = args.workers * args.bot_processes / cap_s
        out["pool_decisions_per_s"] = round(pool, 1)
        if not args.rate:
            out["games_the_pool_carries"] = int(pool / per_game)
    if cpu_per_move_ms:
        out["cpu_decisions_per_s"] = round(cores * 1000 / cpu_per_move_ms, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", default="25,50,100,200", help="comma-separated counts")
    parser.add_argument("--level", default="strong", choices=list(bots.LEVELS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot-processes", type=int, default=1, help="WORKER_BOT_PROCESSES")
    parser.add_argument(
        "--think",
        type=lambda text: [float(x) for x in text.split(",")],
        default=[5.0, 10.0],
        help="a human's seconds per move, min,max (uniform)",
    )
    parser.add_argument("--bots", help="the 3 bot seats' levels, e.g. random,greedy,random")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="human moves/s in all, instead of --think"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured, per count")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--drain", type=float, default=15.0)
    parser.add_argument("--turn-seconds", type=int, default=60)
    parser.add_argument(
        "--setting", action="append", default=[], help="a worker setting, KEY=VALUE"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    results = []
    for count in args.games.split(","):
        results.append(run_one(int(count), args))
        print(json.dumps(results[-1]), flush=True)
    per_move = max((r["cpu_s"]["per_bot_move_ms"] for r in results), default=0.0)
    print("capacity:", json.dumps(capacity(args, per_move)))
    print(f"load average before the run: {load:.1f}")
    print("| games | lag mean | p50 | p99 | max | bot moves/s | unplayed | CPU ms/bot move |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        lag = r["lag_s"]
        print(
            f"| {r['games']} | {lag['mean']} s | {lag['p50']} s | {lag['p99']} s | "
            f"{lag['max']} s | {r['bot_moves_per_s']} | {r['unplayed_at_end']} | "
            f"{r['cpu_s']['per_bot_move_ms']} |"
        )
    print("command: python -m bench.worker_lag " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()

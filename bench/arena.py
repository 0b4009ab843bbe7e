"""Bots against bots, in-process: each bot's win share, mean rank and time per decision.

``python -m bench.arena --game manhattan --bots strong,greedy,greedy,greedy --games 400``
plays ``--games`` games of the pure engine, one bot level (shared/bots ``LEVELS``) per
seat, rotating the seats game by game so that every bot sits everywhere equally often
(use a multiple of the number of players), over ``--procs`` processes (default: the
machine's cores). Every decision goes through :func:`shared.bots.decide` with the level's
budget (``--budget-ms`` overrides the search levels' time cap, ``--iterations`` their
playouts, ``--plan margin=0.5`` any field of their plans: an idea measured on and off);
each is timed in its process (``perf_counter``: under load, wall time).

Prints, per bot level: seats played, win share (a shared win counts 1/k for each of the
k winners; the share of one seat of that level), its 95% confidence interval (normal
approximation over games), mean rank, mean and p99 ms per decision (wall clock) and mean
CPU ms per decision (``process_time``: what a decision cost whatever the machine's load;
only decisions with a choice: a single legal move is not timed), then the command.
"""

from __future__ import annotations

import argparse
import importlib
import math
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from dataclasses import replace
from typing import Any

from shared.bots import LEVELS, SEARCH_LEVELS, decide


def tune(spec: str) -> None:
    """Override fields of every search level's plans in this process (``--plan``:
    ``margin=0.5,k=6``), to measure an idea on and off without a new level."""
    if not spec:
        return
    fields: dict[str, Any] = {}
    for part in spec.split(","):
        name, _, value = part.partition("=")
        fields[name.strip()] = float(value) if "." in value else int(value)
    for name in SEARCH_LEVELS:
        level = LEVELS[name]
        games = {g: replace(p, **fields) for g, p in level.games.items()}
        plan = replace(level.plan, **fields) if level.plan else None
        LEVELS[name] = replace(level, plan=plan, games=games)


def play_game(args: tuple[str, list[str], int, float | None, int | None]) -> dict[str, Any]:
    """One game: ``bots[seat]`` plays ``seat``; the result and each decision's ms."""
    game, bots, seed, budget_ms, iterations = args
    tune(os.environ.get("ARENA_PLAN", ""))
    engine = importlib.import_module(f"services.{game}.rules").ENGINE
    state = engine.setup(len(bots), {}, seed)
    times: dict[int, list[float]] = defaultdict(list)
    cpu: dict[int, list[float]] = defaultdict(list)
    step = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        step += 1
        level = bots[seat]
        search = LEVELS[level].strategy is None
        choices = len(engine.legal_actions(state, seat)) > 1
        start, used = time.perf_counter(), time.process_time()
        move = decide(
            engine,
            state,
            seat,
            level,
            (seed * 1_000_003 + step) & (2**63 - 1),
            iterations=iterations if search else None,
            ms=budget_ms if search else None,
        )
        if choices:
            times[seat].append((time.perf_counter() - start) * 1000)
            cpu[seat].append((time.process_time() - used) * 1000)
        state, _ = engine.apply_move(state, seat, move)
    result = engine.result(state)
    assert result is not None
    return {"bots": bots, "result": result, "times": dict(times), "cpu": dict(cpu)}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per level: seats, win share with its 95% interval, mean rank, decision times."""
    wins: dict[str, list[float]] = defaultdict(list)  # per game: the level's mean share
    ranks: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    for g in games:
        winners = g["result"]["winners"]
        rank_of = {s["seat"]: s["rank"] for s in g["result"]["standings"]}
        per: dict[str, list[float]] = defaultdict(list)
        for seat, level in enumerate(g["bots"]):
            per[level].append(1 / len(winners) if seat in winners else 0.0)
            ranks[level].append(rank_of[seat])
            times[level] += g["times"].get(seat, g["times"].get(str(seat), []))
            cpu[level] += g.get("cpu", {}).get(seat, [])
        for level, shares in per.items():
            wins[level].append(sum(shares) / len(shares))
    out = {}
    for level, shares in wins.items():
        n = len(shares)
        mean = sum(shares) / n
        var = sum((x - mean) ** 2 for x in shares) / max(n - 1, 1)
        half = 1.96 * math.sqrt(var / n)
        t = times[level]
        out[level] = {
            "seats": len(ranks[level]),
            "win_share": mean,
            "ci": (max(0.0, mean - half), min(1.0, mean + half)),
            "mean_rank": sum(ranks[level]) / len(ranks[level]),
            "ms_mean": sum(t) / len(t) if t else 0.0,
            "ms_p99": percentile(t, 0.99),
            "cpu_mean": sum(cpu[level]) / len(cpu[level]) if cpu[level] else 0.0,
            "decisions": len(t),
        }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    parser.add_argument("--bots", default="strong,greedy,greedy,greedy")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--plan", default="", help="search plan fields, e.g. margin=0.5")
    args = parser.parse_args(argv)
    os.environ["ARENA_PLAN"] = args.plan
    bots = args.bots.split(",")
    unknown = [b for b in bots if b not in LEVELS]
    if unknown:
        parser.error(f"unknown bot level(s) {unknown}; known: {list(LEVELS)}")
    n = len(bots)
    jobs = [
        (
            args.game,
            [bots[(seat + g) % n] for seat in range(n)],  # rotate: every bot sits everywhere
            args.seed + g,
            args.budget_ms,
            args.iterations,
        )
        for g in range(args.games)
    ]
    start = time.perf_counter()
    with multiprocessing.Pool(args.procs) as pool:
        games = pool.map(play_game, jobs, chunksize=1)
    elapsed = time.perf_counter() - start
    print(f"# {args.game}: {args.games} games of {n} players, bots {args.bots}")
    print(
        f"{'bot':8} {'seats':>6} {'win share':>10} {'95% CI':>15} {'fair':>6} "
        f"{'mean rank':>10} {'ms/decision':>12} {'p99 ms':>8} {'cpu ms':>7} {'decisions':>10}"
    )
    for level, row in sorted(summarize(games).items(), key=lambda kv: -kv[1]["win_share"]):
        lo, hi = row["ci"]
        print(
            f"{level:8} {row['seats']:>6} {row['win_share']:>10.1%} "
            f"{f'{lo:.1%}-{hi:.1%}':>15} {1 / n:>6.1%} {row['mean_rank']:>10.2f} "
            f"{row['ms_mean']:>12.1f} {row['ms_p99']:>8.1f} {row['cpu_mean']:>7.1f} "
            f"{row['decisions']:>10}"
        )
    print(f"# {elapsed:.0f} s wall on {args.procs} processes")
    print("# command: python -m bench.arena " + " ".join(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()

"""The bots' ladder: every level against every other, heads-up, in the arena.

``python -m bench.ladder --game manhattan --games 100`` plays ``--games`` two-player
games for each pair of levels (shared/bots ``LEVELS``: random, greedy, medium, strong),
seats swapped game by game, through :func:`bench.arena.play_game` (each level at its own
budget unless ``--budget-ms`` caps the search levels), over ``--procs`` processes.

Prints a Markdown table: per pair, the first level's win share with its 95% interval
(normal approximation over games; a shared win counts half), and each level's mean ms
per decision (``perf_counter`` in its process: wall clock, so it includes waiting for a
core on a loaded machine); then each level's mean share over all its pairs, and the
command (docs/bots.md, "The ladder").
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import sys
import time
from typing import Any

from bench.arena import play_game, summarize
from shared.bots import LEVELS


def ladder(
    game: str, games: int, seed: int, procs: int, budget_ms: float | None
) -> list[dict[str, Any]]:
    """One row per pair of levels (weaker first): both levels' summaries."""
    pairs = list(itertools.combinations(LEVELS, 2))
    jobs = [
        (game, [a, b] if g % 2 == 0 else [b, a], seed + g, budget_ms, None)
        for a, b in pairs
        for g in range(games)
    ]
    with multiprocessing.Pool(procs) as pool:
        played = pool.map(play_game, jobs, chunksize=1)
    rows = []
    for p, (a, b) in enumerate(pairs):
        summary = summarize(played[p * games : (p + 1) * games])
        rows.append({"a": a, "b": b, "sa": summary[a], "sb": summary[b]})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    parser.add_argument("--games", type=int, default=40, help="games per pair (even)")
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = ladder(args.game, args.games, args.seed, args.procs, args.budget_ms)
    elapsed = time.perf_counter() - start
    print(f"# {args.game}: {args.games} heads-up games per pair, seats swapped")
    print("| A | B | A's win share (95% CI) | A ms/decision | B ms/decision |")
    print("|---|---|---|---|---|")
    totals: dict[str, list[float]] = {level: [] for level in LEVELS}
    for row in rows:
        sa, sb = row["sa"], row["sb"]
        lo, hi = sa["ci"]
        totals[row["a"]].append(sa["win_share"])
        totals[row["b"]].append(sb["win_share"])
        print(
            f"| {row['a']} | {row['b']} | {sa['win_share']:.1%} ({lo:.1%}-{hi:.1%}) "
            f"| {sa['ms_mean']:.1f} | {sb['ms_mean']:.1f} |"
        )
    print()
    print("| level | mean win share over its pairs |")
    print("|---|---|")
    for level, shares in totals.items():
        print(f"| {level} | {sum(shares) / len(shares):.1%} |")
    print(f"# {elapsed:.0f} s wall on {args.procs} processes")
    print("# command: python -m bench.ladder " + " ".join(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()

"""Pairing a Swiss round of tables (shared/tournaments/swiss.py), in-process: wall time of
the standings' order (``standings``: points, Buchholz, rating) and ``pair_round`` for
1,000 and 10,000 players (or ``--players``) at tables of 4 (or
``--size``), in round 1 (no history) and in round 4 (three rounds of opponents and
results behind, random places), best and median of ``--repeat`` runs; and the arena's
``next_tables`` over 2,000 and 10,000 free players who all just played. The pairing
itself makes no Redis round trip: it runs over the standings already read. (The arena's
time from a game's end to the next seat is bound by the worker's look at a running
tournament, every ``RECHECK_MS`` = 1 s, not by this.)"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import permutations

from shared.tournaments import arena
from shared.tournaments.points import Entry, award, points_for_size, standings
from shared.tournaments.swiss import pair_round, table_cost


def simulate(n: int, size: int, rounds: int, seed: int) -> tuple[dict[str, Entry], dict, dict]:
    rng = random.Random(seed)
    entries = {f"p{i}": Entry(f"p{i}", order=i, rating=rng.gauss(1500, 200)) for i in range(n)}
    met: dict[str, dict[str, int]] = {}
    byes: dict[str, int] = {}
    for _ in range(rounds):
        ranked = [e.player for e, _ in standings(entries.values())]
        rd = pair_round(ranked, size, 2, met, byes)
        for p in rd.byes:
            byes[p] = byes.get(p, 0) + 1
        for table in rd.tables:
            order = list(table)
            rng.shuffle(order)
            places = award(range(1, len(table) + 1), points_for_size(len(table)))
            for p, got in zip(order, places, strict=True):
                entries[p].points += got
                entries[p].opponents.extend(x for x in table if x != p)
            for a, b in permutations(table, 2):
                met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
    return entries, met, byes


def measure(n: int, size: int, rounds: int, repeat: int) -> tuple[float, float, int]:
    entries, met, byes = simulate(n, size, rounds, seed=n + rounds)
    times = []
    repeats = 0
    for _ in range(repeat):
        start = time.perf_counter()
        ranked = [e.player for e, _ in standings(entries.values())]
        rd = pair_round(ranked, size, 2, met, byes)
        times.append(time.perf_counter() - start)
        repeats = sum(table_cost(t, met, {}) for t in rd.tables) // 2
    return min(times), statistics.median(times), repeats


def measure_arena(n: int, size: int, repeat: int) -> tuple[float, int]:
    """``next_tables`` over ``n`` free players who all just played (best wall time), and
    the tables made."""
    free = [f"p{i}" for i in range(n)]
    order = list(free)
    random.Random(n).shuffle(order)
    last: dict[str, frozenset[str]] = {}
    for i in range(0, n, size):
        group = frozenset(order[i : i + size])
        for p in group:
            last[p] = group - {p}
    best, made = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        made = len(arena.next_tables(free, size, last))
        best = min(best, time.perf_counter() - start)
    return best, made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="1000,10000")
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print("command: python -m bench.tournament " + " ".join(sys.argv[1:]))
    print(f"{'players':>8} {'round':>5} {'best ms':>9} {'median ms':>10} {'repeated pairs':>15}")
    for n in (int(x) for x in args.players.split(",")):
        for rounds in (0, 3):
            best, median, repeats = measure(n, args.size, rounds, args.repeat)
            print(f"{n:>8} {rounds + 1:>5} {best * 1e3:>9.1f} {median * 1e3:>10.1f} {repeats:>15}")
    print(f"arena: {'free players':>12} {'best ms':>9} {'tables':>7}")
    for n in (2000, 10000):
        best, made = measure_arena(n, args.size, args.repeat)
        print(f"       {n:>12} {best * 1e3:>9.1f} {made:>7}")


if __name__ == "__main__":
    main()

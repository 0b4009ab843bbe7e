"""Random complete 4-player Manhattan games on one core: games/s and moves/s.

Run: ``python -m bench.manhattan_engine [--games N] [--players P] [--profile]
[--against CHECKOUT]``. Each move asks the engine for the legal moves and applies a
random one, like a service answering ``legal-moves`` then ``moves``. The games/s figure
is per CPU second of this process (``time.process_time``), so busy neighbours on the
machine skew it less than the wall-clock figure printed next to it.

``--against`` takes another checkout of the project (e.g. ``git worktree add /tmp/main
main``) and plays the same games with its engine and this one in turns, five rounds,
printing each one's best CPU figure and the ratio: a before/after measured in one run.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import random
import sys
import time
from pathlib import Path
from types import ModuleType

from services.manhattan import rules

ROUNDS = 5
"""Turns per engine with ``--against``; the best (least disturbed) one counts."""


def play(games: int, players: int, seed: int, m: ModuleType = rules) -> int:
    """Play ``games`` random games; return the number of moves applied."""
    rng = random.Random(seed)
    moves = 0
    legal, apply, to_act, over = m.legal_moves, m.apply_move, m.to_act, m.is_over
    for g in range(games):
        state = m.setup(players, {}, seed + g)
        while not over(state):
            seat = to_act(state)[0]
            state, _ = apply(state, seat, rng.choice(legal(state, seat)))
            moves += 1
    return moves


def load_rules(checkout: str) -> ModuleType:
    """The Manhattan rules package of another checkout, imported under its own name (its
    ``shared`` imports resolve to this checkout's, which the engines only use for the RNG
    and the contract types)."""
    path = Path(checkout, "services", "manhattan", "rules", "__init__.py")
    spec = importlib.util.spec_from_file_location(
        "against_rules", path, submodule_search_locations=[str(path.parent)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no Manhattan rules at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cpu_rate(games: int, players: int, seed: int, m: ModuleType) -> float:
    start = time.process_time()
    play(games, players, seed, m)
    return games / max(time.process_time() - start, 1e-9)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    ap.add_argument("--against", metavar="CHECKOUT", help="compare with another checkout")
    args = ap.parse_args(argv)
    cmd = "python -m bench.manhattan_engine " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: {cmd.strip()}")
    if args.against:
        other = load_rules(args.against)
        best = {"against": 0.0, "this": 0.0}
        for _ in range(ROUNDS):
            for name, m in (("against", other), ("this", rules)):
                rate = cpu_rate(args.games, args.players, args.seed, m)
                best[name] = max(best[name], rate)
        print(
            f"{args.games} {args.players}-player games, best of {ROUNDS} turns each (CPU): "
            f"{args.against} {best['against']:.1f} games/s, this checkout "
            f"{best['this']:.1f} games/s, ratio {best['this'] / best['against']:.2f}"
        )
        return
    prof = cProfile.Profile() if args.profile else None
    start, cpu_start = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    moves = play(args.games, args.players, args.seed)
    if prof:
        prof.disable()
    cpu = max(time.process_time() - cpu_start, 1e-9)
    elapsed = time.perf_counter() - start
    print(f"{args.games} {args.players}-player games, {moves} moves")
    print(f"CPU:  {cpu:.2f} s, {args.games / cpu:.1f} games/s, {moves / cpu:.0f} moves/s")
    print(
        f"wall: {elapsed:.2f} s, {args.games / elapsed:.1f} games/s, {moves / elapsed:.0f} moves/s"
    )
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()

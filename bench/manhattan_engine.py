"""Random complete 4-player Manhattan games on one core, through both engine paths.

Run: ``python -m bench.manhattan_engine [--games N] [--players P] [--profile]
[--against CHECKOUT]``. Two paths play the same random games (same seeds, same choices):

- service: each move asks ``legal_moves`` and applies a random one with ``apply_move``,
  like a service answering ``legal-moves`` then ``moves``;
- playout: one ``fork`` per game, then ``legal_actions`` + ``play`` in place, the path
  of playouts and search bots (issue 17's engine target: 1,000 random 4-player games/s).

Games/s are per CPU second of this process (``time.process_time``), so busy neighbours
on the machine skew them less than the wall-clock figures printed next to them.

``--against`` takes another checkout of the project (e.g. ``git worktree add /tmp/main
main``) and plays the same games with its engine and this one in turns, five rounds,
printing each one's best CPU figure per path and the ratio: a before/after in one run.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from services.manhattan import rules

ROUNDS = 5
"""Turns per engine with ``--against``; the best (least disturbed) one counts."""
TARGET = 1000.0
"""Issue 17's engine target: random 4-player games/s on one core (the playout path)."""


def play(games: int, players: int, seed: int, m: ModuleType = rules) -> int:
    """Play ``games`` random games with legal_moves + apply_move; return the moves."""
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


def playout(games: int, players: int, seed: int, m: ModuleType = rules) -> int:
    """The same games on one fork each with legal_actions + play; return the moves."""
    rng = random.Random(seed)
    moves = 0
    engine = m.ENGINE
    actions, play, to_act, over = engine.legal_actions, engine.play, engine.to_act, engine.is_over
    for g in range(games):
        state = engine.fork(engine.setup(players, {}, seed + g))
        while not over(state):
            seat = to_act(state)[0]
            play(state, seat, rng.choice(actions(state, seat)))
            moves += 1
    return moves


PATHS: dict[str, Callable[[int, int, int, ModuleType], int]] = {
    "service": play,
    "playout": playout,
}


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


def paths_of(m: ModuleType) -> list[str]:
    """The paths an engine has (a checkout before the playout path has only one)."""
    return [p for p in PATHS if p == "service" or hasattr(m.ENGINE, "play")]


def cpu_rate(path: str, games: int, players: int, seed: int, m: ModuleType) -> float:
    start = time.process_time()
    PATHS[path](games, players, seed, m)
    return games / max(time.process_time() - start, 1e-9)


def against(args: argparse.Namespace) -> None:
    other = load_rules(args.against)
    best: dict[tuple[str, str], float] = {}
    for _ in range(ROUNDS):
        for path in PATHS:
            for name, m in (("against", other), ("this", rules)):
                if path in paths_of(m):
                    rate = cpu_rate(path, args.games, args.players, args.seed, m)
                    best[name, path] = max(best.get((name, path), 0.0), rate)
    print(f"{args.games} {args.players}-player games, best of {ROUNDS} turns each (CPU):")
    for path in PATHS:
        mine = best[("this", path)]
        line = f"  {path:8} this checkout {mine:7.1f} games/s ({mine / TARGET:.2f} of {TARGET:.0f})"
        if ("against", path) in best:
            theirs = best["against", path]
            line += f", {args.against} {theirs:7.1f} games/s, ratio {mine / theirs:.2f}"
        print(line)


def measure(path: str, args: argparse.Namespace) -> None:
    prof = cProfile.Profile() if args.profile else None
    start, cpu_start = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    moves = PATHS[path](args.games, args.players, args.seed, rules)
    if prof:
        prof.disable()
    cpu = max(time.process_time() - cpu_start, 1e-9)
    elapsed = time.perf_counter() - start
    rate = args.games / cpu
    print(f"{path}: {args.games} {args.players}-player games, {moves} moves")
    print(
        f"  CPU:  {cpu:.2f} s, {rate:.1f} games/s, {moves / cpu:.0f} moves/s, "
        f"{rate / TARGET:.2f} of the {TARGET:.0f} games/s target"
    )
    print(
        f"  wall: {elapsed:.2f} s, {args.games / elapsed:.1f} games/s, "
        f"{moves / elapsed:.0f} moves/s"
    )
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of each path")
    ap.add_argument("--against", metavar="CHECKOUT", help="compare with another checkout")
    args = ap.parse_args(argv)
    cmd = "python -m bench.manhattan_engine " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: {cmd.strip()}")
    if args.against:
        against(args)
        return
    for path in PATHS:
        measure(path, args)


if __name__ == "__main__":
    main()

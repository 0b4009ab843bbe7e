"""Random complete 4-player Manhattan games on one core: games/s and moves/s.

Run: ``python -m bench.manhattan_engine [--games N] [--players P] [--profile]``.
Each move asks the engine for the legal moves and applies a random one, like a
service answering ``legal-moves`` then ``moves``. The games/s figure is per CPU second
of this process (``time.process_time``), so busy neighbours on the machine skew it
little; the wall-clock figure is printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

from services.manhattan import rules as m


def play(games: int, players: int, seed: int) -> int:
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = ap.parse_args(argv)
    prof = cProfile.Profile() if args.profile else None
    start, cpu_start = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    moves = play(args.games, args.players, args.seed)
    if prof:
        prof.disable()
    cpu = time.process_time() - cpu_start
    elapsed = time.perf_counter() - start
    cmd = "python -m bench.manhattan_engine " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: {cmd.strip()}")
    print(f"{args.games} {args.players}-player games, {moves} moves")
    print(f"CPU:  {cpu:.2f} s, {args.games / cpu:.1f} games/s, {moves / cpu:.0f} moves/s")
    print(
        f"wall: {elapsed:.2f} s, {args.games / elapsed:.1f} games/s, {moves / elapsed:.0f} moves/s"
    )
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()

"""CPU of a hint and of an analysis after the game (docs/bots.md, issue 42).

Run: ``python -m bench.coach_cost hints [--positions 30]`` (a hint on positions of
random 2-4 seat games of each game: median, p90, max) or ``python -m bench.coach_cost
analysis`` (the analysis of a greedy game of 2 and 4 seats of each game). CPU time of
this process (``time.process_time``), pure Python, no service.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from services.manhattan.rules import ENGINE as MANHATTAN
from services.windcity.rules import ENGINE as WINDCITY
from shared.bots import decide
from shared.bots.analysis import analyse
from shared.engine import Engine, State
from shared.games import hints

ENGINES = (MANHATTAN, WINDCITY)


def positions(engine: Engine, count: int, seed: int) -> list[tuple[State, int]]:
    """``count`` (state, seat) pairs with a real choice, from random games of 2-4."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    while len(out) < count:
        state = engine.setup(rng.choice([2, 3, 4]), {}, rng.getrandbits(32))
        while not engine.is_over(state) and len(out) < count:
            seat = rng.choice(engine.to_act(state))
            legal = engine.legal_moves(state, seat)
            if len(legal) > 1 and rng.random() < 0.15:
                out.append((state, seat))
            state, _ = engine.apply_move(state, seat, rng.choice(legal))
    return out


def hint_costs(count: int) -> None:
    for engine in ENGINES:
        spent = []
        for i, (state, seat) in enumerate(positions(engine, count, 5)):
            began = time.process_time()
            hints.suggest(engine, state, seat, i)
            spent.append(time.process_time() - began)
        spent.sort()
        p90 = spent[int(0.9 * len(spent))]
        print(
            f"{engine.NAME}: hint CPU median {1000 * statistics.median(spent):.0f} ms, "
            f"p90 {1000 * p90:.0f} ms, max {1000 * spent[-1]:.0f} ms ({count} positions)"
        )


def analysis_costs() -> None:
    for engine in ENGINES:
        for seats in (2, 4):
            rng = random.Random(3)
            state = engine.setup(seats, {}, 11)
            moves: list[dict[str, Any]] = []
            while not engine.is_over(state):
                seat = engine.to_act(state)[0]
                move = decide(engine, state, seat, "greedy", rng.getrandbits(30))
                moves.append({"seat": seat, "move": move, "version": len(moves) + 2})
                state, _ = engine.apply_move(state, seat, move)
            began = time.process_time()
            analyse(engine, seats, {}, 11, moves, 5)
            spent = time.process_time() - began
            print(f"{engine.NAME}, {seats} seats, {len(moves)} moves: analysis CPU {spent:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("hints", "analysis"))
    parser.add_argument("--positions", type=int, default=30)
    args = parser.parse_args()
    if args.what == "hints":
        hint_costs(args.positions)
    else:
        analysis_costs()


if __name__ == "__main__":
    main()

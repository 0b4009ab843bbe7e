"""Where a search decision's time goes: CPU of a few ``strong`` decisions at a fixed
playout budget, and cProfile's top functions (docs/bots.md, "Issue 42").

``python -m bench.bot_profile --game manhattan`` plays 8 positions (4 players, reached by
random play), times ``decide(..., "strong", iterations=200, ms=0)`` on each with
``process_time`` (CPU, so a loaded machine changes it less than wall clock), then runs
them again under cProfile and prints the ``--top`` functions by own time. With
``--greedy`` (Manhattan) it also times greedy's placement, incremental against the full
rescoring it replaced (tests/bots/test_greedy_fast.py holds that reference). With
``--moves N`` it only prints the ``strong`` moves (``--iterations``) on N positions of 2-4
players, one JSON line each, and their CPU: run it before and after a speedup and diff the
lines to show the decisions did not change.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import pstats
import random
import time
from typing import Any

from shared.bots import decide, seat_view
from shared.engine import Engine, State


def positions(engine: Engine, count: int) -> list[State]:
    """``count`` four-player positions or fewer, 10, 13, 16... random moves in."""
    out = []
    for g in range(count):
        rng = random.Random(g)
        state = engine.setup(4, {}, g)
        for _ in range(10 + 3 * g):
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            state, _ = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
        if not engine.is_over(state):
            out.append(state)
    return out


def greedy_times(engine: Engine) -> dict[str, float]:
    """ms of CPU per placement decision: the reference full rescoring and greedy now."""
    from tests.bots.test_greedy_fast import _reference

    cases: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for g in range(20):
        rng = random.Random(g)
        state = engine.setup(4, {}, g)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_moves(state, seat)
            if legal[0]["type"] == "place":
                cases.append((seat_view(engine, state, seat), legal))
            state, _ = engine.apply_move(state, seat, rng.choice(legal))
    out = {}
    for name, choose in (("full rescoring", _reference), ("incremental", engine.BOTS["greedy"])):
        start = time.process_time()
        for view, legal in cases:
            choose(view, legal, random.Random(1))
        out[name] = (time.process_time() - start) / len(cases) * 1000
    return out


def moves(engine: Engine, count: int, iterations: int) -> None:
    """Print ``strong``'s move on up to ``count`` positions (2-4 players, 5-68 random moves
    in), one JSON line each, then their CPU."""
    cpu, done = 0.0, 0
    for g in range(count):
        rng = random.Random(1000 + g)
        state = engine.setup(2 + g % 3, {}, g)
        for _ in range(5 + g * 7 % 70):
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            state, _ = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
        if engine.is_over(state):
            continue
        seat = engine.to_act(state)[0]
        start = time.process_time()
        move = decide(engine, state, seat, "strong", g, iterations=iterations, ms=0)
        cpu += time.process_time() - start
        done += 1
        print(json.dumps({"position": g, "seat": seat, "move": move}, sort_keys=True))
    print(f"# {done} strong decisions at {iterations} playouts: {cpu:.2f} s CPU")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["manhattan", "windcity"], default="manhattan")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--greedy", action="store_true")
    parser.add_argument("--moves", type=int, default=0)
    args = parser.parse_args(argv)
    engine = importlib.import_module(f"services.{args.game}.rules").ENGINE
    if args.moves:
        moves(engine, args.moves, args.iterations)
        return
    states = positions(engine, 8)

    def run() -> None:
        for i, state in enumerate(states):
            seat = engine.to_act(state)[0]
            decide(engine, state, seat, "strong", i, iterations=args.iterations, ms=0)

    start = time.process_time()
    run()
    print(
        f"# {args.game}: {len(states)} strong decisions at {args.iterations} playouts: "
        f"{time.process_time() - start:.2f} s CPU"
    )
    profile = cProfile.Profile()
    profile.runcall(run)
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    if args.greedy:
        for name, ms in greedy_times(engine).items():
            print(f"# greedy placement, {name}: {ms:.3f} ms CPU")


if __name__ == "__main__":
    main()

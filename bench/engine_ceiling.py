"""The most random games/s any engine could reach under the engine contract, in Python.

Run: ``python -m bench.engine_ceiling [--games N] [--players P]``.

The contract (``shared/engine.py``) has the engine return a new state, leaving its input
unchanged, plus fresh event dicts, and ``legal_moves`` returns fresh move dicts that the
caller may keep or change. This bench records the positions of real random games (the
same games as ``bench.manhattan_engine`` and ``bench.windcity_engine``), then times only
that contract work, with no rule at all: per move, copy the state dict and each of its
values that the real move replaced (copy-on-write, as the engines do), build as many
event dicts as the real move produced, and call ``to_act``/``is_over``; for Manhattan also
copy the listed legal moves and pick one, as its bench does. The figure printed is the
ceiling (games/s per CPU second) next to the engine's own rate in the same run, so the
issue's targets (Manhattan 1,000, Wind City 1,500) can be set against it.

The contract's playout path (``fork`` once per game, then ``legal_actions`` + ``play`` in
place: no copies, events or checks) is not bound by that ceiling; its rate is printed
beside it (the games of ``bench.manhattan_engine``'s and ``bench.windcity_engine``'s
playout paths).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from bench import manhattan_engine, windcity_engine
from services.manhattan import rules as manhattan
from services.windcity import rules as windcity
from shared.engine import RuleError

ROUNDS = 5
"""Timed rounds per figure; the best (least disturbed) one counts."""

Step = tuple[dict[str, Any], tuple[str, ...], int, list[dict[str, Any]]]
"""A recorded move: the state before it, the keys the move replaced, how many events it
produced, and the legal moves listed before it (Manhattan only)."""


def _replaced(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, ...]:
    return tuple(k for k, v in after.items() if before.get(k) is not v)


def manhattan_steps(games: int, players: int, seed: int) -> list[Step]:
    rng = random.Random(seed)
    steps: list[Step] = []
    for g in range(games):
        state = manhattan.setup(players, {}, seed + g)
        while not manhattan.is_over(state):
            seat = manhattan.to_act(state)[0]
            legal = manhattan.legal_moves(state, seat)
            new, events = manhattan.apply_move(state, seat, rng.choice(legal))
            steps.append((state, _replaced(state, new), len(events), legal))
            state = new
    return steps


def windcity_steps(records: list[windcity_engine.Record], players: int) -> list[Step]:
    """The accepted moves of games recorded by ``bench.windcity_engine``'s bot."""
    steps: list[Step] = []
    for g, record in enumerate(records):
        state = windcity.setup(players, {}, g)
        for seat, move in record:
            try:
                new, events = windcity.apply_move(state, seat, move)
            except RuleError:
                continue
            steps.append((state, _replaced(state, new), len(events), []))
            state = new
    return steps


def contract_cpu(steps: list[Step], engine: Any, pick: bool) -> float:
    """CPU seconds of the contract's own work over ``steps`` (best of ``ROUNDS``)."""
    rng = random.Random(0)
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for state, replaced, events, legal in steps:
            engine.is_over(state)
            engine.to_act(state)
            if pick:
                rng.choice(list(map(dict.copy, legal)))
            new = state.copy()
            for key in replaced:
                value = new[key]
                if isinstance(value, (list, dict)):
                    new[key] = value.copy()
            [{"type": "event", "seat": 0} for _ in range(events)]
        best = min(best, time.process_time() - start)
    return best


def replay_all(records: list[windcity_engine.Record], players: int) -> None:
    for g, record in enumerate(records):
        windcity_engine.replay(g, players, record)


def engine_cpu(run: Any) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    cmd = "python -m bench.engine_ceiling " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    n, p = args.games, args.players
    records: list[windcity_engine.Record] = []
    for g in range(n):
        records.append([])
        windcity_engine.play(g, p, records[-1])
    cases = [
        (
            "manhattan",
            manhattan_steps(n, p, 1),
            manhattan,
            True,
            lambda: manhattan_engine.play(n, p, 1),
            lambda: manhattan_engine.playout(n, p, 1),
            1000,
        ),
        (
            "windcity",
            windcity_steps(records, p),
            windcity,
            False,
            lambda: replay_all(records, p),
            lambda: windcity_engine.playouts(n, p),
            1500,
        ),
    ]
    print(
        "| game | engine, apply_move path | its contract alone (no rules): ceiling "
        "| engine, playout path | target |"
    )
    print("|---|---|---|---|---|")
    for name, steps, engine, pick, run, playout, target in cases:
        ceiling = n / contract_cpu(steps, engine, pick)
        now = n / engine_cpu(run)
        fast = n / engine_cpu(playout)
        print(
            f"| {name} | {now:.0f} games/s | {ceiling:.0f} games/s "
            f"({len(steps) / n:.0f} moves/game) | {fast:.0f} games/s | {target} |"
        )


if __name__ == "__main__":
    main()

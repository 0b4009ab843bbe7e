"""Information-set MCTS (shared/bots/ismcts.py): deterministic for a seed, legal, from the
seat's own view only (a state and its redeal for the seat give the same move), within its
iteration budget and its time cap. Strength is measured in the arena (docs/bots.md)."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from services.manhattan.rules import ENGINE as MANHATTAN
from services.windcity.rules import ENGINE as WINDCITY
from shared.bots import LEVELS, seat_view
from shared.bots.ismcts import ismcts
from shared.bots.search import Plan
from shared.engine import Engine, State
from tests.bots.test_hidden import positions

ENGINES = [MANHATTAN, WINDCITY]


def _plan(engine: Engine, tree: int, iterations: int, ms: float | None = None) -> Plan:
    plan = LEVELS["strong"].plan_for(engine.NAME)
    assert plan is not None
    return replace(plan, tree=tree, iterations=iterations, ms=ms)


def _run(engine: Engine, state: State, seat: int, plan: Plan, seed: int) -> dict:
    legal = engine.legal_moves(state, seat)
    return ismcts(engine, state, seat, legal, plan, seed, seat_view(engine, state, seat))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.NAME)
@pytest.mark.parametrize("tree", [1, 3])
def test_same_seed_same_move_and_legal(engine: Engine, tree: int) -> None:
    for i, (state, seat) in enumerate(positions(engine, 12, 5)):
        plan = _plan(engine, tree, 12)
        first = _run(engine, state, seat, plan, i)
        assert first == _run(engine, state, seat, plan, i)
        legal = engine.legal_moves(state, seat)
        assert first in legal or engine.apply_move(state, seat, first)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.NAME)
@pytest.mark.parametrize("tree", [1, 3])
def test_decides_from_the_seats_view_only(engine: Engine, tree: int) -> None:
    """A state and its redeal for the seat (other hands, deck, RNG redrawn): same move."""
    differs = 0
    for i, (state, seat) in enumerate(positions(engine, 40, 11)):
        other = engine.redeal(state, seat, 500 + i)
        differs += other != state
        plan = _plan(engine, tree, 10)
        assert _run(engine, state, seat, plan, i) == _run(engine, other, seat, plan, i)
    assert differs > 20


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.NAME)
def test_the_iteration_budget_bounds_the_redeals(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One determinization per iteration, and no more iterations than the budget."""
    calls = []

    class Counting:
        def __getattr__(self, name: str) -> object:
            return getattr(engine, name)

        def redeal(self, state: State, seat: int | None, salt: int) -> State:
            calls.append(salt)
            return engine.redeal(state, seat, salt)

    for state, seat in positions(engine, 6, 3):
        calls.clear()
        _run(Counting(), state, seat, _plan(engine, 3, 9), 1)  # type: ignore[arg-type]
        assert len(calls) <= 9


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.NAME)
def test_the_time_cap_bounds_a_decision(engine: Engine) -> None:
    rng = random.Random(2)
    state, seat = rng.choice(positions(engine, 10, 9))
    start = time.perf_counter()
    _run(engine, state, seat, _plan(engine, 3, 100_000, ms=30), 4)
    assert time.perf_counter() - start < 0.6  # 30 ms cap; loose: the machine is shared

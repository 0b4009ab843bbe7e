"""A hint (shared/games/hints.py) is the same on a state and on its redeal for the seat:
it is computed from what the seat may see (issue 42)."""

from __future__ import annotations

import pytest

from services.manhattan.rules import ENGINE as MANHATTAN
from services.windcity.rules import ENGINE as WINDCITY
from shared.bots import analysis
from shared.engine import Engine
from shared.games import hints
from tests.bots.test_hidden import positions


@pytest.mark.parametrize("engine", [MANHATTAN, WINDCITY], ids=lambda e: e.NAME)
def test_a_hint_ignores_what_the_seat_cannot_see(engine: Engine, monkeypatch) -> None:
    monkeypatch.setattr(hints, "HINT_ITERATIONS", 8)  # the same path, a smaller budget
    differs = 0
    for i, (state, seat) in enumerate(positions(engine, 40, 42)):
        other = engine.redeal(state, seat, 7000 + i)
        differs += other != state
        mine = hints.suggest(engine, state, seat, seed=i)
        assert mine == hints.suggest(engine, other, seat, seed=i), (engine.NAME, i, seat)
        assert mine in engine.legal_moves(state, seat)
    assert differs > 20


@pytest.mark.parametrize("engine", [MANHATTAN, WINDCITY], ids=lambda e: e.NAME)
def test_an_analysis_judges_a_move_from_what_its_seat_knew(engine: Engine) -> None:
    """The preferred move of a drop, and by how much, are the same on a state and on its
    redeal for the seat (shared/bots/analysis.py)."""
    budget = analysis.Budget(judge=3, iterations=6)
    for i, (state, seat) in enumerate(positions(engine, 12, 43)):
        other = engine.redeal(state, seat, 9000 + i)
        played = engine.legal_moves(state, seat)[-1]
        mine = analysis.preferred(engine, state, seat, played, i, budget)
        assert mine == analysis.preferred(engine, other, seat, played, i, budget), i

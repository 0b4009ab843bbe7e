"""The arena's knobs and the ladder (bench/arena.py, bench/ladder.py): cheap runs only."""

from __future__ import annotations

import pytest

from bench import arena, ladder
from shared.bots import LEVELS


def test_a_plan_override_reaches_every_search_level(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, level in list(LEVELS.items()):
        monkeypatch.setitem(LEVELS, name, level)  # restored after the test
    arena.tune("margin=0.5,k=3")
    for name in ("medium", "strong"):
        for game in ("manhattan", "windcity"):
            plan = LEVELS[name].plan_for(game)
            assert plan is not None and plan.margin == 0.5 and plan.k == 3
    assert LEVELS["greedy"].plan is None


def test_the_ladder_plays_every_pair_of_levels() -> None:
    rows = ladder.ladder("windcity", 2, 0, 1, 5.0)
    pairs = {(r["a"], r["b"]) for r in rows}
    assert len(pairs) == len(LEVELS) * (len(LEVELS) - 1) // 2
    for r in rows:
        share = r["sa"]["win_share"] + r["sb"]["win_share"]
        assert share == pytest.approx(1.0)  # heads-up: one of the two wins (ties split)
        assert r["sa"]["seats"] == r["sb"]["seats"] == 2

"""The search bots' parts: guided playouts, their horizons, the time cap, the import layer.

Cheap checks only (a few playouts each); the strength itself is measured with
``python -m bench.arena`` (docs/bots.md), not here.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.manhattan.rules import ENGINE as MANHATTAN
from services.windcity.rules import ENGINE as WINDCITY
from shared.bots import LEVELS, decide
from shared.bots.playout import reward, run, score_totals
from shared.engine import Engine, State

ROOT = Path(__file__).resolve().parents[2]


def _midgame(engine: Engine, players: int, seed: int, moves: int) -> State:
    rng = random.Random(seed)
    state = engine.setup(players, {}, seed)
    for _ in range(moves):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return state


@pytest.mark.parametrize("engine", [MANHATTAN, WINDCITY], ids=lambda e: e.NAME)
@pytest.mark.parametrize("k", [4, 1000])
def test_guided_playouts_reach_the_end(engine: Engine, k: int) -> None:
    """Greedy among k sampled moves (all of them: subset picks such as Wind City's
    insurance of several houses go through apply_move) plays every game to its end."""
    greedy = engine.BOTS["greedy"]
    for seed in range(3):
        state = engine.fork(engine.setup(2 + seed, {}, seed))
        end, extra = run(engine, state, random.Random(seed), choose=greedy, k=k)
        value = reward(engine, end, 0, extra)
        assert 0.0 <= value <= 1.0


def test_a_scoring_horizon_stops_at_the_end_of_the_round() -> None:
    """``scorings=1`` on Manhattan: the playout ends when the round is scored, with the
    same totals a plain apply_move game would show then."""
    state = _midgame(MANHATTAN, 4, 5, 20)
    before = score_totals(MANHATTAN.score(state))
    rng = random.Random(1)
    end, extra = run(
        MANHATTAN, MANHATTAN.fork(state), rng, choose=MANHATTAN.BOTS["greedy"], scorings=1
    )
    value = reward(MANHATTAN, end, 0, extra)
    assert 0.0 <= value <= 1.0
    # Random play to the same point: the totals change exactly once, at the round end.
    copy = MANHATTAN.fork(state)
    while score_totals(MANHATTAN.score(copy)) == before:
        seat = MANHATTAN.to_act(copy)[0]
        MANHATTAN.play(copy, seat, MANHATTAN.legal_actions(copy, seat)[0])
    assert copy["round"] == state["round"] + 1 or MANHATTAN.is_over(copy)


def _pieces(state: State) -> int:
    return sum(len(building) for building in state["board"])


def test_a_cut_judges_the_board_as_if_scored_now() -> None:
    """``cut=3`` on Manhattan mid-round: the playout stops after 3 moves (before the
    round's end), and the extra points are 2.5 times the board's scoring then, from
    ``Engine.estimate``."""
    state = _midgame(MANHATTAN, 4, 5, 9)
    assert MANHATTAN.to_act(state) and state["phase"] == "build"
    greedy = MANHATTAN.BOTS["greedy"]
    end, extra = run(
        MANHATTAN, MANHATTAN.fork(state), random.Random(1), choose=greedy, k=0, project=1.5, cut=3
    )
    board = MANHATTAN.estimate(end)
    assert board is not None and extra == {s: 2.5 * p for s, p in enumerate(board)}
    assert _pieces(end) == _pieces(state) + 3 and end["round"] == state["round"]
    assert MANHATTAN.estimate(state) != board  # judged where it stopped, not where it began


def test_the_estimate_is_what_the_board_scores() -> None:
    """Manhattan's estimate right after a round's scoring (the same board, the next round
    not begun) is what the ``round_scored`` event gave each seat; Wind City has none."""
    state = _midgame(MANHATTAN, 3, 4, 0)
    rng = random.Random(4)
    scored = None
    while scored is None:
        seat = MANHATTAN.to_act(state)[0]
        state, events = MANHATTAN.apply_move(
            state, seat, rng.choice(MANHATTAN.legal_moves(state, seat))
        )
        scored = next((e for e in events if e["type"] == "round_scored"), None)
    by_seat = [sum(points[s] for points in scored["categories"].values()) for s in range(3)]
    assert MANHATTAN.estimate(state) == by_seat and sum(by_seat) > 0
    assert WINDCITY.estimate(_midgame(WINDCITY, 3, 2, 10)) is None


def test_a_smooth_reward_orders_by_the_lead() -> None:
    state = _midgame(WINDCITY, 3, 2, 40)
    totals = score_totals(WINDCITY.score(state))
    values = {seat: reward(WINDCITY, state, seat, scale=15.0) for seat in totals}
    assert all(0.0 <= v <= 1.0 for v in values.values())
    ordered = sorted(totals, key=lambda s: totals[s])
    assert [values[s] for s in ordered] == sorted(values[s] for s in ordered)


@pytest.mark.parametrize("engine", [MANHATTAN, WINDCITY], ids=lambda e: e.NAME)
def test_the_time_cap_bounds_a_decision(engine: Engine) -> None:
    """A 40 ms cap: the search stops before a playout that would overrun it by much (the
    bound here is loose: the machine may be loaded)."""
    state = _midgame(engine, 4, 3, 30)
    seat = engine.to_act(state)[0]
    start = time.perf_counter()
    move = decide(engine, state, seat, "strong", 7, ms=40)
    assert time.perf_counter() - start < 1.0
    legal = engine.legal_moves(state, seat)
    assert move in legal or engine.apply_move(state, seat, move)


def test_search_levels_use_guided_playouts() -> None:
    for name in ("medium", "strong"):
        for game in ("manhattan", "windcity"):
            plan = LEVELS[name].plan_for(game)
            assert plan is not None and plan.guided and plan.ms
    strong, medium = LEVELS["strong"].plan_for("manhattan"), LEVELS["medium"].plan_for("manhattan")
    assert strong and medium and (strong.ms or 0) > (medium.ms or 0)


def test_the_bots_load_only_the_engine_contract_and_the_rng() -> None:
    code = (
        "import sys\nbefore = set(sys.modules)\nimport shared.bots\n"
        "print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] in "
        "('shared', 'services', 'flask', 'redis', 'clients')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = set(ast.literal_eval(out.stdout))
    allowed = {"shared", "shared.engine", "shared.rng", "shared.bots"}
    assert {m for m in loaded if not m.startswith("shared.bots.")} <= allowed, loaded

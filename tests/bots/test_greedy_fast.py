"""Manhattan's greedy scores a placement incrementally (``_Leads``): the same picks as
rescoring the whole board with the rules' scoring functions after every candidate."""

from __future__ import annotations

import random
from typing import Any

from services.manhattan.rules import ENGINE as MANHATTAN
from services.manhattan.rules.board import index, piece
from services.manhattan.rules.bots import greedy
from services.manhattan.rules.scoring import building_points, majority_points, tallest_points
from shared.bots import seat_view


def _exposure(building: list[int], seat: int, n: int) -> float:
    """How easily an opponent could take ``building`` from ``seat`` (0 = safe), as
    greedy first weighed it: every opponent's floors there against the seat's."""
    mine = sum(p % 10 for p in building if p // 10 == seat)
    worst = 0.0
    for other in range(n):
        if other == seat:
            continue
        need = mine - sum(p % 10 for p in building if p // 10 == other)
        if need <= 4:
            worst = max(worst, (5 - max(need, 1)) / 4)
    return worst


def _reference(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> Any:
    """Greedy's placement as first written: the whole board rescored per candidate."""
    state, seat = view["state"], view["you"]
    n = len(state["players"])
    board: list[list[int]] = [[] for _ in range(54)]
    for city in state["cities"]:
        for lot in city["lots"]:
            board[index(city["city"], lot["lot"])] = [
                piece(p["seat"], p["floors"]) for p in lot["pieces"]
            ]
    best, best_v = legal[0], float("-inf")
    for m in legal:
        if m["type"] != "place":
            continue
        i = index(m["city"], m["lot"])
        after = board.copy()
        after[i] = [*board[i], piece(seat, m["floors"])]
        parts = (tallest_points(after, n), majority_points(after, n), building_points(after, n))
        pts = [sum(p) for p in zip(*parts, strict=True)]
        lead = pts[seat] - max(p for s, p in enumerate(pts) if s != seat)
        v = lead - 0.25 * m["floors"] - 0.6 * _exposure(after[i], seat, n) + rng.random() * 0.01
        if v > best_v:
            best, best_v = m, v
    return best


def test_incremental_greedy_picks_what_a_full_rescoring_picks() -> None:
    """Every legal list, and a shuffled sample of it (as a playout's ``k`` draws): the same
    pick, and the same random numbers drawn (the tie-break), as the reference."""
    checked = 0
    for game in range(24):
        rng = random.Random(game)
        state = MANHATTAN.setup(2 + game % 3, {}, game)
        while not MANHATTAN.is_over(state):
            seat = MANHATTAN.to_act(state)[0]
            legal = MANHATTAN.legal_moves(state, seat)
            if legal[0]["type"] == "place":
                view = seat_view(MANHATTAN, state, seat)
                draw = random.Random(-checked)
                sample = draw.sample(legal, min(len(legal), 1 + checked % 8))
                for options in (legal, sample):
                    mine, theirs = random.Random(checked), random.Random(checked)
                    assert greedy(view, options, mine) == _reference(view, options, theirs)
                    assert mine.getstate() == theirs.getstate()
                checked += 1
            state, _ = MANHATTAN.apply_move(state, seat, rng.choice(legal))
    assert checked > 1000

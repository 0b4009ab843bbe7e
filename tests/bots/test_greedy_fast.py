"""Manhattan's greedy scores a placement incrementally (``_Leads``): the same picks as
rescoring the whole board with the rules' scoring functions after every candidate."""

from __future__ import annotations

import random
from typing import Any

from services.manhattan.rules import ENGINE as MANHATTAN
from services.manhattan.rules.board import index, piece
from services.manhattan.rules.bots import _exposure, greedy
from services.manhattan.rules.scoring import building_points, majority_points, tallest_points
from shared.bots import seat_view


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
    checked = 0
    for game in range(24):
        rng = random.Random(game)
        state = MANHATTAN.setup(2 + game % 3, {}, game)
        while not MANHATTAN.is_over(state):
            seat = MANHATTAN.to_act(state)[0]
            legal = MANHATTAN.legal_moves(state, seat)
            if legal[0]["type"] == "place":
                view = seat_view(MANHATTAN, state, seat)
                expected = _reference(view, legal, random.Random(checked))
                assert greedy(view, legal, random.Random(checked)) == expected
                checked += 1
            state, _ = MANHATTAN.apply_move(state, seat, rng.choice(legal))
    assert checked > 1000

"""Manhattan's bot strategies: ``choose(view, legal, rng) -> move``.

``view`` is the service's game view of the bot's seat (``{"you", "to_act", "state"...}``,
``state`` being :func:`game.view`), ``legal`` its legal moves. A strategy sees only what
the seat may see, and scores positions with the rules' own scoring functions on the
public board; it copies no rule. Shared by the CLI's ``bot`` command and the worker.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .board import index, piece
from .scoring import building_points, majority_points, tallest_points

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


def board_of(state: Json) -> list[list[int]]:
    """The rules' board (54 buildings of piece codes) rebuilt from the public view."""
    board: list[list[int]] = [[] for _ in range(54)]
    for city in state["cities"]:
        for lot in city["lots"]:
            board[index(city["city"], lot["lot"])] = [
                piece(p["seat"], p["floors"]) for p in lot["pieces"]
            ]
    return board


def round_points(board: list[list[int]], n: int) -> list[int]:
    """Points each seat would score if the round ended now (no promotion card)."""
    parts = (tallest_points(board, n), majority_points(board, n), building_points(board, n))
    return [sum(points) for points in zip(*parts, strict=True)]


def _exposure(building: list[int], seat: int, n: int) -> float:
    """How easily an opponent could take ``building`` from ``seat`` (0 = safe)."""
    mine = sum(p % 10 for p in building if p // 10 == seat)
    worst = 0.0
    for other in range(n):
        if other == seat:
            continue
        need = mine - sum(p % 10 for p in building if p // 10 == other)
        if need <= 4:
            worst = max(worst, (5 - max(need, 1)) / 4)
    return worst


def greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Place where the score lead grows most; select a balanced set of pieces.

    A placement is valued by (my points - best opponent's points) if the round were
    scored right after it, minus a small price for big pieces (they are worth keeping
    for take-overs) and for leaving the building easy to take back.
    """
    state = view["state"]
    seat = view["you"]
    kinds = {m["type"] for m in legal}
    if "place" in kinds:
        board = board_of(state)
        n = len(state["players"])
        best, best_v = legal[0], float("-inf")
        for m in legal:
            if m["type"] != "place":
                continue
            i = index(m["city"], m["lot"])
            after = board.copy()
            after[i] = [*board[i], piece(seat, m["floors"])]
            pts = round_points(after, n)
            lead = pts[seat] - max(p for s, p in enumerate(pts) if s != seat)
            risk = _exposure(after[i], seat, n)
            v = lead - 0.25 * m["floors"] - 0.6 * risk + rng.random() * 0.01
            if v > best_v:
                best, best_v = m, v
        return best
    if "select" in kinds:
        me = state["players"][seat]
        stock = {int(k): v for k, v in me["stock"].items()}
        left = sum(stock.values()) or 1
        k = len(legal[0]["pieces"])
        ideal = {f: stock[f] * k / left for f in stock}

        def cost(m: Json) -> float:
            spread = sum(abs(m["pieces"].count(f) - ideal[f]) for f in ideal)
            return float(spread - 0.05 * sum(m["pieces"]))

        return min(legal, key=cost)
    if "forfeit" in kinds:
        return min(legal, key=lambda m: m.get("floors", 0))
    return rng.choice(legal)


BOTS: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy}

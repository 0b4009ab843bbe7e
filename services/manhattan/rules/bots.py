"""Manhattan's bot strategies: ``choose(view, legal, rng) -> move``.

``view`` is the service's game view of the bot's seat (``{"you", "to_act", "state"...}``,
``state`` being :func:`game.view`), ``legal`` its legal moves. A strategy sees only what
the seat may see, and scores positions with the rules' own scoring functions on the
public board; it copies no rule. Shared by the CLI's ``bot`` command and the worker.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import Any

from .board import CITIES, LOTS, index, piece

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


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


class _Leads:
    """``seat``'s round-scoring lead (its points minus the best opponent's, as
    :func:`round_points` would give) after one placement, from a survey of the board made
    once: a placement changes one building, so only that building, its city's majority
    and the tallest building are looked at again (the same figures, 5-10 times cheaper
    than rescoring the whole board per candidate: greedy runs in every playout)."""

    def __init__(self, lots: list[Json], n: int, seat: int) -> None:
        """``lots``: the view's 54 lots in board order (each with its height and owner)."""
        self.n, self.seat = n, seat
        self.heights = [lot["height"] for lot in lots]
        self.owners = [-1 if lot["owner"] is None else lot["owner"] for lot in lots]
        self.counts = [[0] * n for _ in range(CITIES)]
        for i, o in enumerate(self.owners):
            if o >= 0:
                self.counts[i // LOTS][o] += 1
        self.owned = [sum(c[s] for c in self.counts) for s in range(n)]
        self.majority = [_majority(c) for c in self.counts]
        ranked = heapq.nlargest(3, range(len(lots)), key=self.heights.__getitem__)
        self.top = [(self.heights[i], i) for i in ranked if self.heights[i] > 0]

    def _tallest_other(self, i: int) -> tuple[int, int | None]:
        """The tallest height among the buildings but ``i``, and its single owner (None:
        tied, or no building)."""
        rest = [(h, j) for h, j in self.top if j != i]
        if not rest:
            return 0, None
        h = rest[0][0]
        tied = sum(1 for hh in self.heights if hh == h) - (self.heights[i] == h)
        return h, self.owners[rest[0][1]] if tied == 1 else None

    def __call__(self, i: int, floors: int) -> int:
        seat = self.seat
        pts = self.owned.copy()
        old = self.owners[i]
        if old >= 0:
            pts[old] -= 1
        pts[seat] += 1
        city = i // LOTS
        counts = self.counts[city].copy()
        if old >= 0:
            counts[old] -= 1
        counts[seat] += 1
        for c, s in enumerate(self.majority):
            s = _majority(counts) if c == city else s
            if s is not None:
                pts[s] += 2
        h = self.heights[i] + floors
        other, owner = self._tallest_other(i)
        if h > other:
            pts[seat] += 3
        elif h < other and owner is not None:
            pts[owner] += 3
        return pts[seat] - max(p for s, p in enumerate(pts) if s != seat)


def _majority(counts: list[int]) -> int | None:
    most = max(counts)
    return counts.index(most) if most and counts.count(most) == 1 else None


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
        lots = [lot for city in state["cities"] for lot in city["lots"]]
        n = len(state["players"])
        lead_after = _Leads(lots, n, seat)
        best, best_v = legal[0], float("-inf")
        for m in legal:
            if m["type"] != "place":
                continue
            i = index(m["city"], m["lot"])
            building = [piece(p["seat"], p["floors"]) for p in lots[i]["pieces"]]
            building.append(piece(seat, m["floors"]))
            risk = _exposure(building, seat, n)
            v = lead_after(i, m["floors"]) - 0.25 * m["floors"] - 0.6 * risk
            v += rng.random() * 0.01
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

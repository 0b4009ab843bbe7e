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

from .board import CITIES, LOTS

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


class _Leads:
    """What greedy needs of each lot a candidate places on, surveyed once per call:
    ``seat``'s round-scoring lead (its points minus the best opponent's, as
    :func:`round_points` would give) after a placement there, and how easily the
    building could be taken back. A placement changes one building, so only that
    building, its city's majority and the tallest building are looked at again; and a
    lot's figures are shared by its candidates (1-4 piece sizes), only the tallest
    depending on the floors (greedy runs in every playout: its CPU is the search's)."""

    def __init__(self, lots: list[Json], n: int, seat: int) -> None:
        """``lots``: the view's 54 lots in board order (each with its height and owner)."""
        self.n, self.seat, self.lots = n, seat, lots
        self.heights = heights = [lot["height"] for lot in lots]
        self.owners = owners = [-1 if lot["owner"] is None else lot["owner"] for lot in lots]
        cities = [owners[c * LOTS : c * LOTS + LOTS] for c in range(CITIES)]
        self.counts = [[city.count(o) for o in range(n)] for city in cities]
        self.majority = [_majority(c) for c in self.counts]
        self.base = [owners.count(o) for o in range(n)]
        for o in self.majority:
            if o is not None:
                self.base[o] += 2
        ranked = sorted(range(len(lots)), key=heights.__getitem__, reverse=True)[:3]
        self.top = [(heights[i], i) for i in ranked if heights[i] > 0]
        self.tally = {h: heights.count(h) for h, _ in self.top}
        self.seen: dict[int, tuple[int, int, int, int, int, int]] = {}
        self.scored: dict[tuple[int, int], tuple[int, int, list[int]]] = {}

    def _tallest_other(self, i: int) -> tuple[int, int | None]:
        """The tallest height among the buildings but ``i``, and its single owner (None:
        tied, or no building)."""
        top = self.top
        if not top or (top[0][1] == i and len(top) == 1):
            return 0, None
        h, j = top[1] if top[0][1] == i else top[0]
        tied = self.tally[h] - (self.heights[i] == h)
        return h, self.owners[j] if tied == 1 else None

    def _points(self, city: int, old: int) -> tuple[int, int, list[int]]:
        """The seat's points, the best opponent's and everyone's (the seat's masked) after
        it takes a lot of ``city`` from ``old`` (-1: an empty lot), the tallest aside."""
        seat = self.seat
        pts = self.base.copy()
        counts = self.counts[city].copy()
        if old >= 0:
            pts[old] -= 1
            counts[old] -= 1
        pts[seat] += 1
        counts[seat] += 1
        was, now = self.majority[city], _majority(counts)
        if was is not None:
            pts[was] -= 2
        if now is not None:
            pts[now] += 2
        mine = pts[seat]
        pts[seat] = -(1 << 30)  # the best opponent's points: the most of the others
        got = self.scored[city, old] = (mine, max(pts), pts)
        return got

    def lot(self, i: int) -> tuple[int, int, int, int, int, int]:
        """Lot ``i``'s figures: its height, the tallest other building's, the lead if the
        placement makes ``i`` the tallest / leaves it below / level with it, and the
        seat's floors there minus the most any opponent has (for the exposure)."""
        seat, city, old = self.seat, i // LOTS, self.owners[i]
        mine, rival, pts = self.scored.get((city, old)) or self._points(city, old)
        other, owner = self._tallest_other(i)
        if owner is None:
            below = mine - rival
        elif owner == seat:
            below = mine + 3 - rival
        else:
            below = mine - max(rival, pts[owner] + 3)
        floors = [0] * self.n
        for p in self.lots[i]["pieces"]:
            floors[p["seat"]] += p["floors"]
        gap = floors[seat]
        floors[seat] = -99  # an opponent's floors there: the most of the others (0: none)
        gap -= max(floors)
        got = self.seen[i] = (self.heights[i], other, mine + 3 - rival, below, mine - rival, gap)
        return got


def _majority(counts: list[int]) -> int | None:
    most = max(counts)
    return counts.index(most) if most and counts.count(most) == 1 else None


def _place(state: Json, seat: int, legal: list[Json], rng: random.Random) -> Json:
    """Greedy's placement (see :func:`greedy`): one ``rng.random()`` per place move, in
    ``legal``'s order, the first best kept."""
    lots = [lot for city in state["cities"] for lot in city["lots"]]
    leads = _Leads(lots, len(state["players"]), seat)
    seen, survey, draw = leads.seen, leads.lot, rng.random
    best, best_v = legal[0], float("-inf")
    for m in legal:
        if m["type"] != "place":
            continue
        floors = m["floors"]
        i = (m["city"] - 1) * LOTS + m["lot"] - 1
        height, other, above, below, level, gap = seen.get(i) or survey(i)
        h = height + floors
        lead = above if h > other else below if h < other else level
        # exposure: the floors the nearest opponent is short of the seat's there (1 or
        # less: 1.0, over 4: safe)
        need = gap + floors
        risk = 0.0 if need > 4 else 1.0 if need < 1 else (5 - need) / 4
        v = lead - 0.25 * floors - 0.6 * risk
        v += draw() * 0.01
        if v > best_v:
            best, best_v = m, v
    return best


def greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Place where the score lead grows most; select a balanced set of pieces.

    A placement is valued by (my points - best opponent's points) if the round were
    scored right after it, minus a small price for big pieces (they are worth keeping
    for take-overs) and for leaving the building easy to take back.
    """
    state = view["state"]
    seat = view["you"]
    if any(m["type"] == "place" for m in legal):
        return _place(state, seat, legal, rng)
    kinds = {m["type"] for m in legal}
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

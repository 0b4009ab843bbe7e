"""Listing the legal moves: once, as the engine's shared read-only moves
(:func:`legal_actions`, for playouts and search), as fresh copies of exactly those
(:func:`legal_moves`, for the service), and the subset fields they leave open
(:func:`choices`). A fork lists from its caches instead (:func:`playpath.legal_actions`).

A plan listing holds up to a few hundred moves (every action ordering x each Kauf
target x renewals) of which a playout takes one, so it is a :class:`PlanMoves`
sequence that builds a move when it is read; the other listings are lists of moves
built once at import (one per square).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import TypeVar, cast, overload

from shared.engine import Choice

from . import board, placement
from .cards import ORDERS_BY_CARD
from .parts import Part, insurable, insure_parts, plan_parts, renewable
from .shapes import InsureMove, PlaceHouse, PlaceHurricane, PlanMove, WindCityMove
from .state import WindCityState
from .views import to_act

HURRICANE: tuple[PlaceHurricane, ...] = tuple(
    {"type": "place_hurricane", "square": sq} for sq in board.row_squares(1)
)
PLACE: dict[str, PlaceHouse] = {sq: {"type": "place_house", "square": sq} for sq in board.POS}
INSURE_NOTHING: InsureMove = {"type": "insure", "squares": []}
INSURE_ONE: dict[str, InsureMove] = {sq: {"type": "insure", "squares": [sq]} for sq in board.POS}

M = TypeVar("M", PlanMove, PlaceHouse)


class Lazy(Sequence[M]):
    """A listing whose moves are built when read: a subclass counts them into ``_len``
    and builds the ``i``-th (``0 <= i < _len``) in :meth:`_at`."""

    __slots__ = ("_len",)
    _len: int

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> M: ...

    @overload
    def __getitem__(self, i: slice) -> list[M]: ...

    def __getitem__(self, i: int | slice) -> M | list[M]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("move index out of range")
        return self._at(i)

    def _at(self, i: int) -> M:
        raise NotImplementedError


class PlanMoves(Lazy[PlanMove]):
    """The plan moves of one listing, in order: for each action ordering of the card,
    each (Kauf target, renewals) part that fits it (:func:`parts.plan_parts`).

    Reading a move builds it (its lists are shared: read-only); :meth:`fresh` builds
    them all with their own lists, for :func:`legal_moves`."""

    __slots__ = ("_orders", "_plain", "_kauf", "_starts")

    def __init__(self, card: int, plain: Sequence[Part], kauf: Sequence[Part]) -> None:
        self._orders = ORDERS_BY_CARD[card]
        self._plain = plain
        self._kauf = kauf
        key = (card, len(plain), len(kauf))
        starts = STARTS.get(key)
        if starts is None:
            starts = STARTS[key] = starts_of(self._orders, len(plain), len(kauf))
        self._starts = starts
        self._len = starts[-1]

    def _at(self, i: int) -> PlanMove:
        starts = self._starts
        k = bisect_right(starts, i) - 1
        actions, has_kauf = self._orders[k]
        target, renew = (self._kauf if has_kauf else self._plain)[i - starts[k]]
        return {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def __iter__(self) -> Iterator[PlanMove]:
        plain, kauf = self._plain, self._kauf
        for actions, has_kauf in self._orders:
            for target, renew in kauf if has_kauf else plain:
                yield {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def fresh(self) -> list[PlanMove]:
        """Every move, each with lists of its own."""
        plain, kauf = self._plain, self._kauf
        return [
            {"type": "plan", "actions": list(actions), "kauf": target, "renew": list(renew)}
            for actions, has_kauf in self._orders
            for target, renew in (kauf if has_kauf else plain)
        ]


class PlaceMoves(Lazy[PlaceHouse]):
    """The house placements of one listing: the free squares of the classes the seat may
    build in (:func:`placement.placement_runs`), in board order.

    It keeps its own copy of the occupied squares (a playout then builds on the state),
    and reading a move scans one class for it."""

    __slots__ = ("_runs", "_houses")

    def __init__(self, state: WindCityState, seat: int) -> None:
        self._runs = runs = placement.placement_runs(state, seat)
        self._houses = state["houses"].copy()
        self._len = sum([free for _, free in runs]) if len(runs) > 1 else runs[0][1] if runs else 0

    def _at(self, i: int) -> PlaceHouse:
        houses = self._houses
        for squares, free in self._runs:
            if i >= free:
                i -= free
                continue
            for sq in squares:
                if sq not in houses:
                    if not i:
                        return PLACE[sq]
                    i -= 1
        raise AssertionError("a class has fewer free squares than counted")  # pragma: no cover

    def __iter__(self) -> Iterator[PlaceHouse]:
        houses = self._houses
        for squares, _ in self._runs:
            for sq in squares:
                if sq not in houses:
                    yield PLACE[sq]


STARTS: dict[tuple[int, int, int], list[int]] = {}
"""(card, plain parts, Kauf parts) -> where each ordering's moves start, then the length."""


def starts_of(orders: list[tuple[list[int], bool]], plain: int, kauf: int) -> list[int]:
    """Where each ordering's moves start in a plan listing, then its length."""
    out, at = [], 0
    for _, has_kauf in orders:
        out.append(at)
        at += kauf if has_kauf else plain
    out.append(at)
    return out


def legal_actions(state: WindCityState, seat: int) -> Sequence[WindCityMove]:
    """Every legal move with its subset field empty (``renew``, ``squares``), plus the
    ready-made subsets of docs/windcity.md, as shared read-only moves."""
    if seat not in to_act(state):
        return ()
    phase = state["phase"]
    if phase == "houses":
        return PlaceMoves(state, seat)
    if phase == "plan":
        card = state["card"]
        assert card is not None  # drawn when the phase began
        return PlanMoves(card, *plan_parts(state, seat))
    if phase == "insure":
        singles, full = insure_parts(state, seat)
        out = [INSURE_NOTHING, *map(INSURE_ONE.__getitem__, singles)]
        if full:
            out.append({"type": "insure", "squares": full})
        return out
    return HURRICANE


def legal_placements(state: WindCityState, seat: int) -> list[str]:
    """Every square where ``seat`` may place a house now, in board order."""
    return [m["square"] for m in PlaceMoves(state, seat)]


def legal_moves(state: WindCityState, seat: int) -> list[WindCityMove]:
    """:func:`legal_actions`, each move a fresh copy the caller may keep or change."""
    moves = legal_actions(state, seat)
    if type(moves) is PlanMoves:
        return list(moves.fresh())
    if state["phase"] == "insure":
        insures = cast(list[InsureMove], moves)
        return [{"type": "insure", "squares": list(m["squares"])} for m in insures]
    return [m.copy() for m in moves]


def choices(state: WindCityState, seat: int) -> list[Choice]:
    """The subset ``seat`` may put in its plan's ``renew`` (its insured houses, not the Kauf
    target) or its ``insure`` move's ``squares`` (its uninsured houses), within its money."""
    if seat not in to_act(state) or state["phase"] not in ("plan", "insure"):
        return []
    if state["phase"] == "plan":
        kind, field, priced = "plan", "renew", renewable(state, seat)
    else:
        kind, field, priced = "insure", "squares", insurable(state, seat)
    if not priced:
        return []
    choice: Choice = {
        "type": kind,
        "field": field,
        "options": [{"value": sq, "price": price} for sq, price in priced],
        "budget": state["money"][seat],
    }
    if kind == "plan":
        choice["exclude_field"] = "kauf"
    return [choice]

"""Listing the legal moves: once, as the engine's shared read-only moves
(:func:`legal_actions`, for playouts and search), and as fresh copies of exactly those
(:func:`legal_moves`, for the service).

A plan listing holds up to a few hundred moves (every action ordering x each Kauf
target x renewals) of which a playout takes one, so it is a :class:`PlanMoves`
sequence that builds a move when it is read; the other listings are lists of moves
built once at import (one per square).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, overload

from shared.engine import Move

from . import board, placement, turn
from .views import to_act

_HURRICANE: tuple[Move, ...] = tuple(
    {"type": "place_hurricane", "square": sq} for sq in board.row_squares(1)
)
_PLACE: dict[str, Move] = {sq: {"type": "place_house", "square": sq} for sq in board.POS}
_INSURE_NOTHING: Move = {"type": "insure", "squares": []}
_INSURE_ONE: dict[str, Move] = {sq: {"type": "insure", "squares": [sq]} for sq in board.POS}

Part = tuple[Any, list[str]]  # (Kauf target or None, renewals)


class _Lazy(Sequence[Move]):
    """A listing whose moves are built when read: a subclass counts them into ``_len``
    and builds the ``i``-th (``0 <= i < _len``) in :meth:`_at`."""

    __slots__ = ("_len",)
    _len: int

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("move index out of range")
        return self._at(i)

    def _at(self, i: int) -> Move:
        raise NotImplementedError


class PlanMoves(_Lazy):
    """The plan moves of one listing, in order: for each action ordering of the card,
    each (Kauf target, renewals) part that fits it (:func:`turn.plan_parts`).

    Reading a move builds it (its lists are shared: read-only); :meth:`fresh` builds
    them all with their own lists, for :func:`legal_moves`."""

    __slots__ = ("_orders", "_plain", "_kauf", "_starts")

    def __init__(self, card: int, plain: Sequence[Part], kauf: Sequence[Part]) -> None:
        self._orders = turn.ORDERS_BY_CARD[card]
        self._plain = plain
        self._kauf = kauf
        key = (card, len(plain), len(kauf))
        starts = _STARTS.get(key)
        if starts is None:
            starts = _STARTS[key] = _starts(self._orders, len(plain), len(kauf))
        self._starts = starts
        self._len = starts[-1]

    def _at(self, i: int) -> Move:
        starts = self._starts
        k = bisect_right(starts, i) - 1
        actions, has_kauf = self._orders[k]
        target, renew = (self._kauf if has_kauf else self._plain)[i - starts[k]]
        return {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def __iter__(self) -> Iterator[Move]:
        plain, kauf = self._plain, self._kauf
        for actions, has_kauf in self._orders:
            for target, renew in kauf if has_kauf else plain:
                yield {"type": "plan", "actions": actions, "kauf": target, "renew": renew}

    def fresh(self) -> list[Move]:
        """Every move, each with lists of its own."""
        plain, kauf = self._plain, self._kauf
        return [
            {"type": "plan", "actions": list(actions), "kauf": target, "renew": list(renew)}
            for actions, has_kauf in self._orders
            for target, renew in (kauf if has_kauf else plain)
        ]


class PlaceMoves(_Lazy):
    """The house placements of one listing: the free squares of the classes the seat may
    build in (:func:`placement.placement_runs`), in board order.

    It keeps its own copy of the occupied squares (a playout then builds on the state),
    and reading a move scans one class for it."""

    __slots__ = ("_runs", "_houses")

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        self._runs = runs = placement.placement_runs(state, seat)
        self._houses = state["houses"].copy()
        self._len = sum([free for _, free in runs]) if len(runs) > 1 else runs[0][1] if runs else 0

    def _at(self, i: int) -> Move:
        houses = self._houses
        for squares, free in self._runs:
            if i >= free:
                i -= free
                continue
            for sq in squares:
                if sq not in houses:
                    if not i:
                        return _PLACE[sq]
                    i -= 1
        raise AssertionError("a class has fewer free squares than counted")  # pragma: no cover

    def __iter__(self) -> Iterator[Move]:
        houses = self._houses
        for squares, _ in self._runs:
            for sq in squares:
                if sq not in houses:
                    yield _PLACE[sq]


_STARTS: dict[tuple[int, int, int], list[int]] = {}
"""(card, plain parts, Kauf parts) -> where each ordering's moves start, then the length."""


def _starts(orders: list[tuple[list[int], bool]], plain: int, kauf: int) -> list[int]:
    out, at = [], 0
    for _, has_kauf in orders:
        out.append(at)
        at += kauf if has_kauf else plain
    out.append(at)
    return out


def legal_actions(state: dict[str, Any], seat: int) -> Sequence[Move]:
    """Every legal move with its subset field empty (``renew``, ``squares``), plus the
    ready-made subsets of docs/windcity.md, as shared read-only moves."""
    if seat not in to_act(state):
        return ()
    phase = state["phase"]
    if phase == "houses":
        return PlaceMoves(state, seat)
    if phase == "plan":
        return PlanMoves(state["card"], *turn.plan_parts(state, seat))
    if phase == "insure":
        singles, full = turn.insure_parts(state, seat)
        out = [_INSURE_NOTHING, *map(_INSURE_ONE.__getitem__, singles)]
        if full:
            out.append({"type": "insure", "squares": full})
        return out
    return _HURRICANE


def legal_placements(state: dict[str, Any], seat: int) -> list[str]:
    """Every square where ``seat`` may place a house now, in board order."""
    return [m["square"] for m in PlaceMoves(state, seat)]


def legal_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """:func:`legal_actions`, each move a fresh copy the caller may keep or change."""
    moves = legal_actions(state, seat)
    if type(moves) is PlanMoves:
        return moves.fresh()
    if state["phase"] == "insure":
        return [{"type": "insure", "squares": list(m["squares"])} for m in moves]
    return list(map(dict.copy, moves))

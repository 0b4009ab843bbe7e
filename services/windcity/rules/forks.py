"""A fork (:class:`Fork`): a state of the caller's own that play edits in place, carrying
besides its keys what the listings would otherwise recompute from the whole board.

A fork is a ``dict`` subclass whose caches are attributes, not keys: it equals, and
serializes like, the plain state apply_move returns. Play keeps the caches in step with
the state (:mod:`.playpath`); the listings read them (:mod:`.fork_listing`). Each cache
is derived from the state alone:

- ``free``: per placement class (0 the beach, 1 the rest of L1, 2.. the other sections),
  the placement moves of its free squares in board order (a placement listing is a copy
  of some of these lists: it keeps the squares of its own position); ``free_at``: the
  same squares' board positions, where play finds the move by bisection (``list.index``
  would compare the other moves as dicts); with them the counts the quota look-ahead
  needs (:func:`placement.outlook`): ``beach_free`` squares, ``need`` (seats without a
  beach house) and ``stuck`` (those of them whose L1 quota is full);
- ``own``: per seat, its houses' squares in board order, valid while the board holds
  ``own_len`` houses (after setup houses only disappear, so a smaller count means some
  were destroyed: each seat's list is filtered again);
- ``insured``: the turn of the last plan listing and the active seat's insured houses
  then (square, renewal price): the plan played next in that turn lapses the ones it
  does not renew without looking at the seat's other houses (a turn has one plan phase,
  and nothing changes the state between its listing and its plan).

A Fork is a :class:`~.state.WindCityState` with attributes, which a type cannot say
(a TypedDict has no attributes): the functions take it twice, typed as each.
"""

from __future__ import annotations

from typing import Any

from . import board
from .listing import PLACE
from .placement import CLASSES
from .shapes import PlaceHouse
from .state import House, WindCityState

_ORDER = board.ORDER
_ORDER_GET = _ORDER.__getitem__
_QUOTA = board.QUOTA

# player count -> the placement classes past L1 (class s: section s)
OTHERS: dict[int, range] = {n: range(2, len(classes)) for n, classes in CLASSES.items()}
# square -> its placement class (the beach is class 0; the rest of section s, class s)
CLASS_OF: dict[str, int] = {
    sq: 0 if beach else section
    for classes in CLASSES.values()
    for section, beach, squares in classes
    for sq in squares
}
# player count -> every class's placement moves, and their squares' board positions, on
# an empty board
_ALL_FREE: dict[int, tuple[tuple[PlaceHouse, ...], ...]] = {
    n: tuple(tuple(PLACE[sq] for sq in squares) for _, _, squares in classes)
    for n, classes in CLASSES.items()
}
_ALL_AT: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(_ORDER[sq] for sq in squares) for _, _, squares in classes)
    for n, classes in CLASSES.items()
}


class Fork(dict[str, Any]):
    """A state play may change in place, with the caches of this module."""

    __slots__ = (
        "free",
        "free_at",
        "beach_free",
        "need",
        "stuck",
        "own",
        "own_len",
        "insured",
    )
    free: list[list[PlaceHouse]] | None
    free_at: list[list[int]]
    beach_free: int
    need: int
    stuck: int
    own: list[list[str]] | None
    own_len: int
    insured: tuple[int, list[tuple[str, int]]] | None


def free(state: WindCityState, fork: Fork) -> list[list[PlaceHouse]]:
    """The ``free`` cache of the fork ``state``, made from the board when missing."""
    cached = fork.free
    if cached is None:
        houses = state["houses"]
        n = state["num_players"]
        if houses:
            open_ = [[sq for sq in squares if sq not in houses] for _, _, squares in CLASSES[n]]
            cached = [[PLACE[sq] for sq in squares] for squares in open_]
            fork.free_at = [[_ORDER[sq] for sq in squares] for squares in open_]
        else:
            cached = [list(run) for run in _ALL_FREE[n]]
            fork.free_at = [list(run) for run in _ALL_AT[n]]
        fork.free = cached
        q = _QUOTA[n]
        t = state["tally"]
        fork.beach_free = board.NCOLS - sum([tp[0] for tp in t])
        fork.need = sum([not tp[0] for tp in t])
        fork.stuck = sum([not tp[0] and tp[1] >= q for tp in t])
    return cached


def own(state: WindCityState, fork: Fork, houses: dict[str, House]) -> list[list[str]]:
    """The ``own`` cache of the fork ``state`` (``houses``: its houses), brought up to
    date with the board."""
    cached = fork.own
    size = len(houses)
    if cached is None:
        cached = [[] for _ in range(state["num_players"])]
        for sq, h in houses.items():
            cached[h.owner].append(sq)
        for squares in cached:
            if len(squares) > 1:
                squares.sort(key=_ORDER_GET)
    elif fork.own_len != size:
        cached = [[sq for sq in squares if sq in houses] for squares in cached]
    else:
        return cached
    fork.own = cached
    fork.own_len = size
    return cached

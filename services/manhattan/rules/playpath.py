"""The playout path: :func:`fork` gives a state of the caller's own, :func:`play` applies
a listed move to it in place (the same steps as apply_move, with no checks, copies or
events). The listing it plays from, ``legal_actions``, is :mod:`.listing`'s: Manhattan's
listings need no cache on the fork.
"""

from __future__ import annotations

from shared.engine import Move

from .board import LOTS
from .moves import CARD, build, choose, give_up, piece_counts, toss
from .state import ManhattanState


def fork(state: ManhattanState) -> ManhattanState:
    """A copy that owns every part the moves' steps change in place (the board and the rows
    of stock and forfeited pieces are replaced, never changed: their lists are shared)."""
    new = state.copy()
    new["board"] = list(state["board"])
    new["stock"] = list(state["stock"])
    new["selected"] = [list(row) for row in state["selected"]]
    new["forfeited"] = list(state["forfeited"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["deck"] = list(state["deck"])
    new["discard_pile"] = list(state["discard_pile"])
    return new


def play(state: ManhattanState, seat: int, move: Move) -> None:
    """Apply ``move``, one of :func:`listing.legal_actions`, to the fork ``state`` in
    place: what apply_move would return, without its checks, copies and events."""
    kind = move["type"]
    if kind == "place":
        lot = move["lot"]
        i = (move["city"] - 1) * LOTS + lot - 1
        card = CARD[state["num_players"]][seat][lot]
        build(state, seat, i, move["floors"], card, None)
    elif kind == "select":
        pieces = move["pieces"]
        choose(state, seat, piece_counts(pieces), pieces, None)
    elif kind == "discard":
        toss(state, seat, CARD[state["num_players"]][seat][move["lot"]], None)
    else:
        give_up(state, seat, move["floors"], None)

"""Listing the legal moves: once, as the engine's shared read-only templates
(:func:`legal_actions`, for playouts and search), and as fresh copies of exactly those
(:func:`legal_moves`, for the service).

A place listing is built from tables made at import (the place moves of every lot for
every set of piece sizes) and small memo tables keyed by a hand, a selection or a
building; a select listing is cached per stock. Also here: which of ``discard`` and
``forfeit`` a stuck player has (:func:`stuck_move`), which apply_move checks too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from shared.engine import Move

from .board import CITIES, LOTS, index, needed
from .cards import HAND_SIZE, ROTATION, SIDES_BY_COUNT
from .options import rounds
from .state import ManhattanState

MAX_DISCARDS = HAND_SIZE
"""A stuck player may discard at most a full hand in one turn, then must forfeit."""


def _selections(stock: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted multiset of ``k`` sizes available in ``stock`` (counts of sizes 1-4)."""
    out = []
    for a in range(min(stock[0], k) + 1):
        for b in range(min(stock[1], k - a) + 1):
            for c in range(min(stock[2], k - a - b) + 1):
                d = k - a - b - c
                if d <= stock[3]:
                    out.append((1,) * a + (2,) * b + (3,) * c + (4,) * d)
    return tuple(sorted(out))


def _hand_lots(state: ManhattanState, seat: int) -> list[int]:
    rot = ROTATION[SIDES_BY_COUNT[state["num_players"]][seat]]
    return sorted({rot[c - 1] for c in state["hands"][seat]})


_NEEDS: tuple[dict[tuple[int, ...], int], ...] = ({}, {}, {}, {})
"""``[seat][building]``: :func:`needed`, memoized (bounded): the same few short
buildings recur all game long."""


def floors_needed(seat: int, building: tuple[int, ...]) -> int:
    """The smallest piece ``seat`` may put on ``building`` (:func:`needed`, memoized):
    the place listing and apply_move's stacking check both ask."""
    needs = _NEEDS[seat]
    need = needs.get(building)
    if need is None:
        need = needed(building, seat)
        if len(needs) < 1 << 14:
            needs[building] = need
    return need


def _place_table() -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """``[sizes][board index]``: the place moves there for a bit set of piece sizes
    (bit ``f``: an ``f``-floor piece), ascending.

    Templates only: :func:`legal_moves` hands out copies, so callers may keep or change
    the moves they get.
    """
    moves = [
        [
            {"type": "place", "city": i // LOTS + 1, "lot": i % LOTS + 1, "floors": f}
            for f in range(5)
        ]
        for i in range(CITIES * LOTS)
    ]
    return tuple(
        tuple(tuple(at[f] for f in (1, 2, 3, 4) if sizes >> f & 1) for at in moves)
        for sizes in range(1 << 5)
    )


def _lots_table() -> dict[int, tuple[int, ...]]:
    """``[bit set of lots]``: their board indices, city by city, lots ascending."""
    table = {}
    for lots in range(0, 1 << (LOTS + 1), 2):
        table[lots] = tuple(
            index(city, lot)
            for city in range(1, CITIES + 1)
            for lot in range(1, LOTS + 1)
            if lots >> lot & 1
        )
    return table


_PLACE = _place_table()
_INDICES = _lots_table()
_LOT_BIT = tuple(tuple(1 << rot[c - 1] for c in range(LOTS + 1)) for rot in ROTATION)
"""``[side][card]``: the bit of the board lot that card allows from that side."""


_SIZES: dict[tuple[int, ...], int] = {}
"""``[selected pieces]``: their bit set of sizes; filled on first use (bounded)."""
_LOTS: tuple[dict[tuple[int, ...], int], ...] = ({}, {}, {}, {})
"""``[side][hand]``: the bit set of board lots the hand allows; filled on first use."""


def placements(state: ManhattanState, seat: int) -> list[Move]:
    """The place moves of ``seat`` as shared templates (city, then lot, then floors).

    Bit sets and the tables above keep this loop short: it runs for every build move.
    The hand's and the selection's bit sets are looked up by their contents (a few
    hundred distinct ones recur), not recomputed.
    """
    selected = tuple(state["selected"][seat])
    sizes = _SIZES.get(selected)
    if sizes is None:
        sizes = 0
        for f in selected:
            sizes |= 1 << f
        if len(_SIZES) < 1 << 12:
            _SIZES[selected] = sizes
    if not sizes:
        return []
    hand = tuple(state["hands"][seat])
    side = SIDES_BY_COUNT[state["num_players"]][seat]
    lots = _LOTS[side].get(hand)
    if lots is None:
        bits = _LOT_BIT[side]
        lots = 0
        for card in hand:
            lots |= bits[card]
        if len(_LOTS[side]) < 1 << 12:
            _LOTS[side][hand] = lots
    board = state["board"]
    any_size = _PLACE[sizes]
    needs = _NEEDS[seat]
    out: list[Move] = []
    for i in _INDICES[lots]:
        b = board[i]
        if b and b[-1] // 10 != seat:
            # the stacking rule only restricts buildings someone else owns
            if len(b) == 1:
                need = b[0] % 10
            else:
                known = needs.get(tuple(b))
                need = floors_needed(seat, tuple(b)) if known is None else known
            if need > 0:
                out += _PLACE[sizes >> need << need][i]
                continue
        out += any_size[i]
    return out


def stuck_move(state: ManhattanState, seat: int) -> str:
    """For a player with no legal placement: ``discard`` or ``forfeit``.

    Rules, *A player who cannot place*: discard while fewer than ``MAX_DISCARDS``
    discards were made this turn and some lot on the board accepts a selected piece;
    otherwise forfeit. Only public information decides (never the draw pile or other
    hands), so the legal moves tell a player nothing they may not know.
    """
    if state["discards_this_turn"] >= MAX_DISCARDS:
        return "forfeit"
    biggest = max(state["selected"][seat])
    board = state["board"]
    if any(needed(b, seat) <= biggest for b in board):
        return "discard"
    return "forfeit"


_DISCARD = tuple({"type": "discard", "lot": lot} for lot in range(LOTS + 1))
"""``[lot]``: the discard template of a board lot (1-9)."""
_FORFEIT = tuple({"type": "forfeit", "floors": f} for f in range(5))
"""``[floors]``: the forfeit template of a piece size (1-4)."""


class _Selects(tuple[Move, ...]):
    """The select templates of a stock, with their pieces as tuples: the copies
    :func:`legal_moves` hands out are built from those (cheaper than from the lists)."""

    pieces: tuple[tuple[int, ...], ...]


@lru_cache(maxsize=4096)
def _select_moves(stock: tuple[int, ...], k: int) -> _Selects:
    """The select moves (templates) of a stock (counts of sizes 1-4) for ``k`` pieces."""
    pieces = _selections(stock, k)
    moves = _Selects({"type": "select", "pieces": [*p]} for p in pieces)
    moves.pieces = pieces
    return moves


def legal_actions(state: ManhattanState, seat: int) -> Sequence[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn) as the
    engine's shared templates: read-only, never change one (:func:`legal_moves` copies)."""
    phase = state["phase"]
    if phase == "over" or seat != state["current_player"]:
        return ()
    if phase == "select":
        return _select_moves(tuple(state["stock"][seat]), rounds(state["options"])[1])
    moves = placements(state, seat)
    if moves:
        return moves
    if stuck_move(state, seat) == "discard":
        return [_DISCARD[lot] for lot in _hand_lots(state, seat)]
    return [_FORFEIT[f] for f in sorted(set(state["selected"][seat]))]


def legal_moves(state: ManhattanState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (empty when it is not that seat's turn): the moves of
    :func:`legal_actions`, as copies the caller may keep or change."""
    actions = legal_actions(state, seat)
    if type(actions) is _Selects:
        return [{"type": "select", "pieces": [*p]} for p in actions.pieces]
    return list(map(dict.copy, actions))

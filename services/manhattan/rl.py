"""Manhattan as an environment (the codec ``shared.rl.make("manhattan")`` finds by its
``boardgames.rl`` entry point): every move kind the game can list, and a seat's view as
a vector (seats relative to the viewer: 0 is the viewer, then the seats in play order).

Actions (439): ``select`` of each multiset of 0-6 pieces of sizes 1-4 (210), ``place``
of each city x lot x size (216), ``discard`` of each lot (9), ``forfeit`` of each size
(4). Manhattan lists every legal move (``choices`` is empty), so the mask is exact.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

import numpy as np
from numpy.typing import NDArray

from services.manhattan.rules import ENGINE
from services.manhattan.rules.board import CITIES, LOTS, PIECES
from services.manhattan.rules.cards import COPIES_PER_LOT, HAND_SIZE, SIDE_NAMES
from services.manhattan.rules.promos import PROMO_IDS
from shared.engine import Move
from shared.rl.codec import Codec, Features, Key, relative

SEATS = 4  # slots for players in the vector (MAX_PLAYERS)
PHASES = ("select", "build", "over")
SIZES = (1, 2, 3, 4)
MAX_SELECT = 6  # pieces selected a round (4 with six rounds)
PLAYER = len(SIDE_NAMES) + 3 * len(SIZES) + 2  # numbers per player: side, stock... score

ACTIONS: tuple[Key, ...] = (
    *(
        ("select", pieces)
        for k in range(MAX_SELECT + 1)
        for pieces in combinations_with_replacement(SIZES, k)
    ),
    *(
        ("place", city, lot, floors)
        for city in range(1, CITIES + 1)
        for lot in range(1, LOTS + 1)
        for floors in SIZES
    ),
    *(("discard", lot) for lot in range(1, LOTS + 1)),
    *(("forfeit", floors) for floors in SIZES),
)


def key(move: Move) -> Key:
    """A listed move's entry in :data:`ACTIONS`."""
    kind = move["type"]
    if kind == "select":
        return ("select", tuple(sorted(move["pieces"])))
    if kind == "place":
        return ("place", move["city"], move["lot"], move["floors"])
    if kind == "discard":
        return ("discard", move["lot"])
    return ("forfeit", move["floors"])


def encode(view: dict[str, Any], me: int, n: int) -> NDArray[np.float32]:
    """``engine.view(state, me)`` as a vector of 0..1 numbers (see the module docstring)."""
    f = Features()
    f.one_hot(PHASES.index(view["phase"]), len(PHASES))
    f.scalar(view["round"], 6)
    f.flag(view["rounds"] == 6)
    f.scalar(view["pieces_per_round"], MAX_SELECT)
    f.scalar(view["discards_this_turn"], HAND_SIZE)
    f.scalar(view["deck_size"], LOTS * COPIES_PER_LOT)
    f.one_hot(relative(view["start_player"], me, n), SEATS)
    current = view["current_player"]
    f.one_hot(None if current is None else relative(current, me, n), SEATS)
    f.flag(view["options"]["six_rounds"])
    f.flag(view["options"]["promo_cards"])
    # the board: per lot, each seat's floors in it, its height, its owner
    for city in view["cities"]:
        for lot in city["lots"]:
            floors = [0] * SEATS
            for p in lot["pieces"]:
                floors[relative(p["seat"], me, n)] += p["floors"]
            f.scalars(floors, 16)
            f.scalar(lot["height"], 24)
            owner = lot["owner"]
            f.one_hot(None if owner is None else relative(owner, me, n), SEATS)
    # the players, the viewer first
    by_slot = {relative(p["seat"], me, n): p for p in view["players"]}
    for slot in range(SEATS):
        p = by_slot.get(slot)
        f.flag(p is not None)
        if p is None:
            f.values.extend([0.0] * PLAYER)
            continue
        f.one_hot(SIDE_NAMES.index(p["side"]), len(SIDE_NAMES))
        f.values.extend(min(p["stock"][str(s)] / PIECES[s], 1.0) for s in SIZES)
        f.counts(p["selected"], len(SIZES), MAX_SELECT)
        f.scalar(p["hand_size"], HAND_SIZE)
        f.counts(p["forfeited"], len(SIZES), MAX_SELECT)
        f.scalar(p["score"], 200)
    f.counts(view["discard_pile"], LOTS, COPIES_PER_LOT)
    # the viewer's own hand: its cards, and the lots they name from its side
    hand = view["hand"] or []
    f.counts((c["card"] for c in hand), LOTS, HAND_SIZE)
    f.counts((c["lot"] for c in hand), LOTS, HAND_SIZE)
    promo = view["promo"]
    f.flag(promo["enabled"])
    current_promo = promo["current"]
    f.one_hot(None if current_promo is None else PROMO_IDS.index(current_promo), len(PROMO_IDS))
    revealed = [0.0] * len(PROMO_IDS)
    for r in promo["revealed"]:
        revealed[PROMO_IDS.index(r["card"])] = 1.0
    f.values.extend(revealed)
    return f.array()


CODEC = Codec(engine=ENGINE, actions=ACTIONS, key=key, encode=encode)

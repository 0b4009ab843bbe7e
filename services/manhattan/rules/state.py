"""What a Manhattan game is: the typed state, a new one from a seed, and documents
stored by older code.

The state is plain JSON (stored as is in the game document); :class:`ManhattanState`
names every field. Documents written before the fields got their names (issue 13) used
short keys; :data:`OLD_NAMES` maps them and :func:`upgrade` renames them on load, so a
game in progress survives the deploy.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

import shared.rng as rng
from shared.engine import RuleError, State

from .board import CITIES, LOTS, PIECES
from .cards import DECK, HAND_SIZE
from .options import validate
from .promos import PROMO_IDS


class RoundRecord(TypedDict):
    """One scored round: its promotion card, the card scored, points per category/seat."""

    round: int
    promo: str | None
    promo_scored: str | None
    categories: dict[str, list[int]]


class ManhattanState(TypedDict):
    num_players: int
    options: dict[str, bool]
    rng: int  # shared.rng state: the whole future of the game's shuffles
    phase: str  # "select" | "build" | "over"
    round: int  # 1-based
    start_player: int  # selects first this round
    current_player: int | None  # None once over
    board: list[list[int]]  # 54 buildings (index (city-1)*9 + lot-1) of piece codes
    # seat*10 + floors, bottom first
    stock: list[list[int]]  # per seat: pieces left of 1, 2, 3, 4 floors
    selected: list[list[int]]  # per seat: this round's pieces not yet placed, sorted
    forfeited: list[list[int]]  # per seat: pieces removed from the game, sorted
    hands: list[list[int]]  # per seat: printed card numbers, sorted (hidden)
    deck: list[int]  # draw pile, drawn from the end (hidden)
    discard_pile: list[int]  # played and discarded cards, reshuffled when the deck is empty
    promo_deck: list[str]  # promotion cards not yet revealed (hidden)
    promos_revealed: list[str | None]  # the promotion card of each round so far
    rounds: list[RoundRecord]
    scores: list[int]  # running totals per seat
    discards_this_turn: int  # discards of the current player this turn (at most a hand)


OLD_NAMES = {
    "n": "num_players",
    "start": "start_player",
    "cur": "current_player",
    "sel": "selected",
    "forf": "forfeited",
    "disc": "discard_pile",
    "pdeck": "promo_deck",
    "promo": "promos_revealed",
    "discards": "discards_this_turn",
}
"""Stored name before issue 13 -> field name."""

_STOCK = [PIECES[1], PIECES[2], PIECES[3], PIECES[4]]


def new_state(num_players: int, options: dict[str, Any] | None, seed: int) -> ManhattanState:
    """A new game: random start player, shuffled deck, 4 cards each, promo card revealed."""
    opts = validate(num_players, options)
    if type(seed) is not int:
        raise RuleError("invalid-option", "seed must be an integer")
    n = num_players
    s = rng.seed_state(seed)
    s, start = rng.below(s, n)
    s, deck = rng.shuffle(s, list(DECK))
    hands = []
    for _ in range(n):
        hands.append(sorted(deck[-HAND_SIZE:]))
        del deck[-HAND_SIZE:]
    promo_deck: list[str] = []
    revealed: list[str | None] = []
    if opts["promo_cards"]:
        s, promo_deck = rng.shuffle(s, list(PROMO_IDS))
        revealed = [promo_deck.pop(0)]
    return {
        "num_players": n,
        "options": opts,
        "rng": s,
        "phase": "select",
        "round": 1,
        "start_player": start,
        "current_player": start,
        "board": [[] for _ in range(CITIES * LOTS)],
        "stock": [list(_STOCK) for _ in range(n)],
        "selected": [[] for _ in range(n)],
        "forfeited": [[] for _ in range(n)],
        "hands": hands,
        "deck": deck,
        "discard_pile": [],
        "promo_deck": promo_deck,
        "promos_revealed": revealed,
        "rounds": [],
        "scores": [0] * n,
        "discards_this_turn": 0,
    }


def upgrade(state: State) -> ManhattanState:
    """``state`` with today's field names: a document stored before issue 13 (short
    names, maybe without the discard count) is renamed; a current one is returned as
    is. Anything else is refused (``unsupported-game-version``)."""
    if "num_players" in state:
        return cast(ManhattanState, state)
    if "n" not in state or not OLD_NAMES.keys() - {"discards"} <= state.keys():
        raise RuleError("unsupported-game-version", "this game's stored state is not readable")
    renamed = {OLD_NAMES.get(key, key): value for key, value in state.items()}
    renamed.setdefault("discards_this_turn", 0)
    return cast(ManhattanState, renamed)

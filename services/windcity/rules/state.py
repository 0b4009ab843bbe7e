"""What a Wind City game is: the typed state, a new one from a seed, and documents
stored by older code.

The state is plain JSON (stored as is in the game document); :class:`WindCityState`
names every field. Documents written before the fields got their names (issue 13) used
short keys; :data:`OLD_NAMES` maps them and :func:`upgrade` renames them on load, so a
game in progress survives the deploy.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

import shared.rng as rng
from shared.engine import RuleError, State

from . import board
from .cards import DECK
from .options import validate


class Plan(TypedDict):
    """The active seat's plan: action order (secret until resolved), Kauf target, renewals."""

    actions: list[int]
    kauf: str | None
    renew: list[str]


class WindCityState(TypedDict):
    num_players: int
    options: dict[str, Any]  # options.DEFAULTS, filled in
    north: int  # the northernmost row in play
    rng: int  # shared.rng state: the whole future of the game's shuffles
    phase: str  # "hurricane" | "houses" | "plan" | "insure" | "over"
    first: int  # the seat that placed the hurricane
    active: int  # the seat whose turn it is
    turn: int  # turns played
    hurricane: str | None  # its square
    houses: dict[str, list[Any]]  # square -> [owner seat, pieces (2: duplex), insured]
    observatories: dict[str, bool]  # square -> marker still there
    money: list[int]  # per seat
    stock: list[int]  # per seat: house pieces not on the board
    alive: list[bool]  # per seat: still in the game
    deck: list[int]  # card numbers, drawn from the front (hidden)
    discard: list[int]
    card: int | None  # the active seat's drawn card (hidden from the others)
    plan: Plan | None
    pending: list[int]  # seats still to answer the insurance market
    end: dict[str, Any] | None  # why and when the game ended
    tally: NotRequired[list[list[int]]]  # house placement only: per seat [beach, L1..L4]


OLD_NAMES = {"n": "num_players", "opts": "options", "obs": "observatories"}
"""Stored name before issue 13 -> field name."""


START_MONEY = 40
HOUSES = 12


def new_state(num_players: int, options: dict[str, Any] | None, seed: int) -> WindCityState:
    """A fresh game: shuffled deck, seeded first player, waiting for the hurricane."""
    opts = validate(num_players, options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RuleError("invalid-option", "seed must be an integer")
    n = num_players
    north = board.north_edge(n, opts["play_area"])
    s = rng.seed_state(seed)
    s, deck = rng.shuffle(s, list(DECK))
    s, first = rng.below(s, n)
    return {
        "num_players": n,
        "options": opts,
        "north": north,
        "rng": s,
        "phase": "hurricane",
        "first": first,
        "active": first,
        "turn": 0,
        "hurricane": None,
        "houses": {},
        "observatories": {sq: True for sq in board.OBSERVATORIES if board.ROW[sq] <= north},
        "money": [START_MONEY] * n,
        "stock": [HOUSES] * n,
        "alive": [True] * n,
        "deck": deck,
        "discard": [],
        "card": None,
        "plan": None,
        "pending": [],
        "end": None,
        # setup only (dropped when the first turn starts): per seat [beach, L1..L4]
        "tally": [[0, 0, 0, 0, 0] for _ in range(n)],
    }


def upgrade(state: State) -> WindCityState:
    """``state`` with today's field names: a document stored before issue 13 is renamed;
    a current one is returned as is. Anything else is refused
    (``unsupported-game-version``)."""
    if "num_players" in state:
        return cast(WindCityState, state)
    if not OLD_NAMES.keys() <= state.keys():
        raise RuleError("unsupported-game-version", "this game's stored state is not readable")
    return cast(WindCityState, {OLD_NAMES.get(key, key): value for key, value in state.items()})

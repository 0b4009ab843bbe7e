"""What a Wind City game is: the typed state, a new one from a seed, and states stored
as JSON (by today's code or by older code).

The state is plain JSON data: stored as is in the game document, a house as the list
``[owner, pieces, insured]``. :class:`WindCityState` names every field and
:class:`House` a house's three: in the engine a house is a House (a tuple: its JSON is
the same list, and it equals that list; one shared instance per value, never changed:
a change puts another House on the square). A state loaded from JSON holds lists
instead, so every way in turns them into Houses: :func:`upgrade` (the kit calls it on
every loaded document), and for callers that skip it :func:`typed` (the engine's
read-only methods), apply_move's copy, the fork and :func:`typed_in_place` (play).
Documents written before the fields got their names (issue 13) used short keys;
:data:`OLD_NAMES` maps them and :func:`upgrade` renames them on load, so a game in
progress survives the deploy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict, cast

import shared.rng as rng
from shared.engine import RuleError, State

from . import board
from .cards import DECK
from .options import MAX_PLAYERS, Options, validate

Phase = Literal["hurricane", "houses", "plan", "insure", "over"]
EndReason = Literal["north_edge", "last_player", "max_turns"]


class House(NamedTuple):
    """A house on the board; stored as the JSON list ``[owner, pieces, insured]``."""

    owner: int  # the seat
    pieces: int  # 1, or 2 for a duplex
    insured: bool

    def __eq__(self, other: object) -> bool:
        """Equal to a tuple of the same values and to its JSON form (a list), so that a
        state equals its JSON round trip."""
        return tuple.__eq__(self, tuple(other) if type(other) is list else other)

    def __ne__(self, other: object) -> bool:
        return tuple.__ne__(self, tuple(other) if type(other) is list else other)


class Plan(TypedDict):
    """The active seat's plan: action order (secret until resolved), Kauf target, renewals."""

    actions: list[int]
    kauf: str | None
    renew: list[str]


class WindCityState(TypedDict):
    num_players: int
    options: Options
    north: int  # the northernmost row in play
    rng: int  # shared.rng state: the whole future of the game's shuffles
    phase: Phase
    first: int  # the seat that placed the hurricane
    active: int  # the seat whose turn it is
    turn: int  # turns played
    hurricane: str | None  # its square (None once it has left the board)
    houses: dict[str, House]  # square -> house
    observatories: dict[str, bool]  # square -> marker still there
    money: list[int]  # per seat
    stock: list[int]  # per seat: house pieces not on the board
    alive: list[bool]  # per seat: still in the game
    deck: list[int]  # card numbers, drawn from the front (hidden)
    discard: list[int]
    card: int | None  # the active seat's drawn card (hidden from the others)
    plan: Plan | None
    pending: list[int]  # seats still to answer the insurance market
    end: EndReason | None  # why the game ended
    tally: NotRequired[list[list[int]]]  # house placement only: per seat [beach, L1..L4]


OLD_NAMES = {"n": "num_players", "opts": "options", "obs": "observatories"}
"""Stored name before issue 13 -> field name."""
_UNREADABLE = "this game's stored state is not readable"


START_MONEY = 40
HOUSES = 12

_HOUSES: dict[tuple[int, int, bool], House] = {
    (owner, pieces, insured): House(owner, pieces, insured)
    for owner in range(MAX_PLAYERS)
    for pieces in (1, 2)
    for insured in (False, True)
}
"""Every house a game can hold, one shared instance each (a House is never changed)."""
BUILT: tuple[House, ...] = tuple(_HOUSES[seat, 1, False] for seat in range(MAX_PLAYERS))
"""Per seat: the house it places in setup."""
DUPLEX: tuple[House, ...] = tuple(_HOUSES[seat, 2, False] for seat in range(MAX_PLAYERS))
"""Per seat: the duplex a Kauf makes."""
INSURED: dict[House, House] = {h: _HOUSES[h.owner, h.pieces, True] for h in _HOUSES.values()}
"""A house -> the same house insured (its owner bought or renewed insurance)."""
UNINSURED: dict[House, House] = {h: _HOUSES[h.owner, h.pieces, False] for h in _HOUSES.values()}
"""A house -> the same house uninsured (its insurance lapsed)."""


_BY_FIELDS: dict[int, dict[int, dict[bool, House]]] = {}
"""owner -> pieces -> insured -> the shared House (:data:`_HOUSES`, looked up in steps)."""
for _h in _HOUSES.values():
    _BY_FIELDS.setdefault(_h.owner, {}).setdefault(_h.pieces, {})[_h.insured] = _h


def stored_houses(houses: Mapping[str, Sequence[Any]]) -> dict[str, House]:
    """Houses as JSON holds them (``[owner, pieces, insured]`` lists) as Houses: the
    shared ones (a value equal to the engine's, such as 0 for false, reads as that)."""
    try:
        return {sq: _BY_FIELDS[o][p][i] for sq, (o, p, i) in houses.items()}
    except (KeyError, TypeError, ValueError):  # a house no game of this engine holds
        get = _HOUSES.get
        return {sq: get(tuple(h)) or House(*h) for sq, h in houses.items()}


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


def _loaded(houses: Mapping[str, Any]) -> bool:
    """Whether ``houses`` holds JSON lists, not Houses (a state's houses are all one or
    all the other: the engine makes Houses, JSON gives lists)."""
    return bool(houses) and type(next(iter(houses.values()))) is not House


def houses_copy(houses: Mapping[str, Any]) -> dict[str, House]:
    """A new dict of ``houses`` (a state's, as Houses or as JSON lists) as Houses."""
    return stored_houses(houses) if _loaded(houses) else dict(houses)


def typed(state: Mapping[str, Any]) -> WindCityState:
    """``state`` with its houses as Houses: itself when they are, else (a state loaded
    from JSON) a shallow copy with them converted; ``state`` never changes."""
    houses = state["houses"]
    if _loaded(houses):
        return cast(WindCityState, {**state, "houses": stored_houses(houses)})
    return cast(WindCityState, state)


def typed_in_place(state: WindCityState) -> WindCityState:
    """``state`` itself, its houses made Houses when they are JSON lists (for play, which
    edits its state anyway)."""
    houses = state["houses"]
    if _loaded(houses):
        state["houses"] = stored_houses(houses)
    return state


def upgrade(state: State) -> WindCityState:
    """``state`` with today's field names and Houses: a document stored before issue 13
    is renamed and a state loaded from JSON gets its houses as Houses (a new dict then);
    one of this engine's own is returned as is. Anything else is refused
    (``unsupported-game-version``)."""
    if "num_players" not in state:
        if not OLD_NAMES.keys() <= state.keys():
            raise RuleError("unsupported-game-version", _UNREADABLE)
        state = {OLD_NAMES.get(key, key): value for key, value in state.items()}
    if not isinstance(state.get("houses"), dict):
        raise RuleError("unsupported-game-version", _UNREADABLE)
    try:
        return typed(state)
    except (TypeError, ValueError) as e:  # a house that is not [owner, pieces, insured]
        raise RuleError("unsupported-game-version", _UNREADABLE) from e

"""The game document as the games layer builds and reads it: :class:`GameDoc`, its
players (:class:`PlayerEntry`), webhook registrations (:class:`WebhookEntry`) and clock
(:class:`Clock`).

The store keeps the document as decoded JSON (``shared.store.StoredDoc``) and never
interprets it; the games layer takes it as a :class:`GameDoc` at two doors only,
:func:`from_store` (every read) and :func:`to_store` (every write). A ``NotRequired``
key is missing from documents written by older code (still read), or kept only by some
games.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, cast

from shared.engine import State
from shared.store import StoredDoc

Status = Literal["open", "running", "finished", "cancelled"]
"""A game's status (shared/games/base.py: ``OPEN``, ``RUNNING``, ...)."""
SeatStatus = Literal["active", "abandoned", "resigned", "bot"]
"""A seat's status (shared/games/seats.py: ``ACTIVE``, ...)."""


class Clock(TypedDict):
    """The ``clock`` option (shared/games/seats.py)."""

    turn_seconds: int  # each move's time
    max_timeouts: int  # missed deadlines in a row that abandon the seat to a bot


class WebhookEntry(TypedDict):
    """A webhook registration (shared/webhooks/registry.py); never in a view."""

    id: str  # the registration's id; its secret is derived from it, never stored
    url: str  # where its notifications go
    events: list[str]  # the notification types it wants
    seat: int | None  # the seat whose player registered it; None: the game's (creator's)


class PlayerEntry(TypedDict):
    """One seat's player. A join stores the first three keys only: the same write fills
    in the other four (shared/games/seats.py ``refresh``); documents written before
    clocks lack them, so they are read with defaults (``seats.public``)."""

    seat: int  # 0..n-1 in join order (moves down when an earlier player leaves)
    name: str  # as shown; NFC (shared/games/names.py)
    token_hash: str  # SHA-256 hex of the seat's token (a bot's: of a token nobody has)
    status: NotRequired[SeatStatus]  # missing: active
    bot: NotRequired[str | None]  # the strategy playing the seat; None: its human
    deadline: NotRequired[str | None]  # RFC 3339 UTC while to act under a clock
    timeouts: NotRequired[int]  # missed deadlines in a row
    player: NotRequired[str]  # the player id (shared/games/players.py) bound to the seat


class HeldSeat(TypedDict):
    """A rematch's seat kept for one of the last game's players until ``until`` (ms):
    taken by its old seat token (``token_hash``) or its player (shared/usecases/rematch.py)."""

    name: str  # the name it had
    token_hash: str  # its old seat token's hash
    player: NotRequired[str]  # its player, when bound
    until: int  # ms since the epoch


class GameDoc(TypedDict):
    """The game document, in the order lifecycle.py's ``create`` writes its keys."""

    version: int  # first: the write script reads it undecoded; one more per write
    events_from: NotRequired[int]  # second: first version the stream holds; missing: old layout
    id: str  # the game's id (token_hex(8) when created here)
    game: str  # the engine's NAME
    status: Status
    seats: int  # the number of seats (the ``players`` option)
    options: dict[str, Any]  # the engine's options (without players, seed and clock)
    seed: int  # revealed by the log once the game is over
    salt: NotRequired[str | None]  # the commitment's salt; None: a chosen seed
    seed_commitment: NotRequired[str | None]  # sha256("<seed>:<salt>"); None: chosen
    seed_chosen: NotRequired[bool]  # the creator chose the seed
    clock: NotRequired[Clock | None]  # None: no clock; missing: created before clocks
    host: str  # SHA-256 hex of the host token
    players: list[PlayerEntry]  # in seat order
    state: State | None  # the engine's state; None until started (or cancelled open)
    to_act: list[int]  # the seats to act ([] unless running)
    result: dict[str, Any] | None  # the engine's result once finished, resigned seats last
    created_at: str  # ISO 8601 UTC, milliseconds, "Z"
    updated_at: str  # the same, of the last write
    owner: NotRequired[str]  # who created it: an API key's id or "addr:<address>"
    host_player: NotRequired[str]  # the player who created it (acts as host too)
    visibility: NotRequired[Literal["unlisted"]]  # missing: public (shared/games/tables.py)
    invite: NotRequired[str]  # SHA-256 hex of an unlisted game's invite code
    start: NotRequired[Literal["when_full"]]  # missing: the host starts it
    next_game: NotRequired[str]  # the rematch's id (shared/usecases/rematch.py)
    analysis: NotRequired[bool]  # its analysis is ready (shared/usecases/analysis.py)
    erased: NotRequired[list[str]]  # SHA-256 of erased players' names (privacy.py)
    takeover: NotRequired[str]  # the ``takeover`` bot level; missing: seats.TAKEOVER_BOT
    rated: NotRequired[bool]  # the ``rated`` option; missing: decided at the end (ratings.py)
    ratings_pending: NotRequired[bool]  # ended, its players' ratings not yet counted
    held: NotRequired[list[HeldSeat]]  # a rematch's seats kept for the last game's players
    bots_after: NotRequired[int]  # a quick match's table: bots fill it this many s after creation
    pool: NotRequired[str]  # a quick match's table: its pool (shared/usecases/matches.py)
    webhooks: NotRequired[list[WebhookEntry]]  # registrations; missing: none yet
    spectators: NotRequired[str]  # who may watch, as given; missing: by visibility (audience.py)
    spectator_chat: NotRequired[bool]  # spectators may talk; missing: false
    spectator_delay: NotRequired[int]  # moves spectators read behind; missing: 0
    watch_code: NotRequired[str]  # a ``link`` game's watch code (tables.new_watch_code)
    watch_marks: NotRequired[list[int]]  # a delayed game's last versions of moves (spectate.py)


def from_store(raw: StoredDoc) -> GameDoc:
    """A document as the store read it: what this layer wrote (the one way in)."""
    return cast(GameDoc, raw)


def to_store(doc: GameDoc) -> StoredDoc:
    """A document as the store writes it (the one way out)."""
    return cast(StoredDoc, doc)


def started(doc: GameDoc) -> State:
    """The engine state of a game that has started: ``start`` sets it, and it is never
    ``None`` again (callers act on running or finished games only)."""
    state = doc["state"]
    assert state is not None, "the game has not started"
    return state

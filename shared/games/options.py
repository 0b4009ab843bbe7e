"""The kit's options: every option a game has besides its engine's own, each declared
once as a :class:`KitOption` in :data:`OPTIONS`. Everything else is derived from that
declaration:

- the options schema every game extends (shared/http/schemas/options.py) and quick
  match's (shared/http/schemas/matches.py), with the OpenAPI document built from them;
- a create's split of kit and engine options, and the storing of the plain ones
  (:func:`split`, :func:`store`; shared/games/lifecycle.py);
- the echo in views, listings and ``game_created`` (:func:`shown`);
- what a rematch carries to the next game (:func:`carried`; shared/usecases/rematch.py);
- a quick-match pool's key (:func:`pool_values`; shared/usecases/matches.py).

A plain option (``plain=True``) is stored under its own name in the game document when
given and not its default, and read back with :meth:`KitOption.value`; the module with
its behaviour needs nothing else. ``players``, ``seed``, ``clock`` and ``webhook`` are
stored by a create itself (seats, a committed seed, a checked clock, a registration).

May import the games layer's leaf modules (document, seats, tables); no marshmallow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

from shared.games import seats, tables
from shared.games.document import Clock, GameDoc

SEED_MAX = 2**63 - 1


@dataclass(frozen=True)
class Seats:
    """The number of seats: the engine's ``MIN_PLAYERS..MAX_PLAYERS`` (default the most)."""


@dataclass(frozen=True)
class Whole:
    """A JSON integer in ``low..high``."""

    low: int
    high: int


@dataclass(frozen=True)
class Choice:
    """One of a few strings."""

    values: tuple[str, ...]


@dataclass(frozen=True)
class Flag:
    """A JSON ``true`` or ``false``."""


@dataclass(frozen=True)
class Record:
    """A JSON object whose schema the HTTP layer defines under this name
    (shared/http/schemas/options.py ``RECORDS``)."""

    schema: str


Kind = Seats | Whole | Choice | Flag | Record
Match = Literal["pool", "refused", "only"]


@dataclass(frozen=True)
class KitOption:
    """One kit option.

    ``kind``: its type and range; ``doc``: its description in the OpenAPI document
    (``{minimum}``/``{maximum}`` are the game's seat bounds); ``example``: a valid value
    other than the default (docs and tests send it); ``default``: its value when absent
    (``None``: none, or decided later), documented as the schema's ``default`` when
    ``doc_default``. ``key``: the document's key (default: the name); ``plain``: stored
    by :func:`store`. ``shown``: echoed in ``options`` of views, listings and
    ``game_created``; ``carried``: a rematch creates the next game with it. ``match``:
    ``"pool"`` accepted by ``POST /matches`` and part of the pool key (as ``pool_key``,
    also when unset if ``pool_always``), ``"refused"`` a quick match decides it itself
    (an unknown field there, 422), ``"only"`` accepted by ``POST /matches`` only, and
    part of the pool key. ``normalize``: the stored form of a given value (``None``:
    nothing stored), checking it; default: the value unless it is the default."""

    name: str
    kind: Kind
    doc: str
    example: Any
    default: Any = None
    doc_default: bool = True
    key: str = ""
    plain: bool = True
    shown: bool = False
    carried: bool = False
    match: Match = "refused"
    pool_key: str = ""
    pool_always: bool = False
    normalize: Callable[[Any], Any] | None = None

    @property
    def doc_key(self) -> str:
        return self.key or self.name

    def stored(self, value: Any) -> Any:
        """The form the document keeps of ``value`` as given (``None``: nothing)."""
        if self.normalize is not None:
            return self.normalize(value)
        return None if value is None or value == self.default else value

    def read(self, doc: GameDoc) -> Any:
        """What the document keeps (``None``: nothing)."""
        return cast(dict[str, Any], doc).get(self.doc_key)

    def value(self, doc: GameDoc) -> Any:
        """The option's value in the game: as kept, else its default."""
        kept = self.read(doc)
        return self.default if kept is None else kept


def clock_of(value: dict[str, Any] | None) -> Clock | None:
    """The ``clock`` option as kept: ``max_timeouts`` filled in."""
    if value is None:
        return None
    most = value.get("max_timeouts", seats.DEFAULT_MAX_TIMEOUTS)
    return {"turn_seconds": value["turn_seconds"], "max_timeouts": most}


def _rated(value: bool | None) -> bool | None:
    return None if value is None else bool(value)


OPTIONS: tuple[KitOption, ...] = (
    KitOption(
        "players",
        Seats(),
        "Number of seats, {minimum}-{maximum}; the host may start once at least {minimum} joined.",
        example=2,
        key="seats",
        plain=False,
        shown=True,
        carried=True,
        match="pool",
        pool_always=True,
    ),
    KitOption(
        "seed",
        Whole(0, SEED_MAX),
        "Random seed (0..2^63-1); secret until the game is over.",
        example=7,
        plain=False,
    ),
    KitOption(
        "clock",
        Record("clock"),
        "Turn clock; without it a game has no deadlines.",
        example={"turn_seconds": 60, "max_timeouts": 2},
        plain=False,
        shown=True,
        carried=True,
        match="pool",
        pool_always=True,
        normalize=clock_of,
    ),
    KitOption(
        "takeover",
        Choice(seats.BOTS),
        "The bot level that plays a seat that times out, resigns or is abandoned: "
        "`random`, `greedy`, `medium` or `strong` (default). Views show it under "
        "`options.takeover` when it is not the default.",
        example="greedy",
        default=seats.TAKEOVER_BOT,
        doc_default=False,
        shown=True,
        carried=True,
        match="pool",
        normalize=seats.check_takeover,
    ),
    KitOption(
        "visibility",
        Choice((tables.PUBLIC, tables.UNLISTED)),
        "`public` (default): listed, anyone may join. `unlisted`: in no listing; "
        "joining needs the invite code the create answer carries.",
        example="unlisted",
        default=tables.PUBLIC,
        doc_default=False,
        carried=True,
    ),
    KitOption(
        "start",
        Choice((tables.BY_HOST, tables.WHEN_FULL)),
        "`host` (default): the host starts the game. `when_full`: the join that takes "
        "the last seat starts it.",
        example="when_full",
        default=tables.BY_HOST,
        doc_default=False,
    ),
    KitOption(
        "rated",
        Flag(),
        "`false`: the game is not rated. Otherwise it is rated when every human seat is "
        "taken by a player (a player key), and only then.",
        example=False,
        normalize=_rated,
        carried=True,
    ),
    KitOption(
        "webhook",
        Record("webhook"),
        "Call this URL on game events (Standard Webhooks).",
        example={"url": "http://127.0.0.1:8080/hook"},
        key="webhooks",
        plain=False,
    ),
    KitOption(
        "spectators",
        Choice(tables.WATCHERS),
        "Who may watch: `everyone` (the default of a public table), `link` (only with the "
        "game's watch link: the default of an unlisted table) or `players` (nobody but "
        "its seats and its host).",
        example="players",
        doc_default=False,
        shown=True,
        carried=True,
    ),
    KitOption(
        "spectator_chat",
        Flag(),
        "`true`: spectators (players without a seat) may talk in the spectators' chat.",
        example=True,
        default=False,
        shown=True,
        carried=True,
    ),
    KitOption(
        "spectator_delay",
        Whole(0, 20),
        "Moves, 0..20: spectators see the game, its events, log, score and "
        "chat as they were this many moves ago; seats and the host see it live, and "
        "everyone once it is over.",
        example=3,
        default=0,
        shown=True,
        carried=True,
    ),
    KitOption(
        "hints",
        Whole(0, 20),
        "Hints each seat may ask for in the game (`POST /games/{{id}}/hint`), 0..20. A "
        "rated game allows none, whatever this says (a game is rated when every human "
        "seat is a player's, unless `rated` is false).",
        example=0,
        default=3,
        shown=True,
        carried=True,
    ),
    KitOption(
        "bots_after",
        Whole(5, 3600),
        "Seconds, 5..3600: if the table is not full that long after it was opened, "
        "server bots take the empty seats and it starts. Tables with and without it (or "
        "with another value) are not shared.",
        example=30,
        match="only",
        pool_key="bots",
        pool_always=True,
    ),
)
"""Every kit option, in the order of the options schemas (after ``players``, the game's
own options come first)."""

BY_NAME = {option.name: option for option in OPTIONS}


def split(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A create's options as ``(kit, engine)``: the kit's options given, and the rest."""
    kit = {k: v for k, v in options.items() if k in BY_NAME}
    return kit, {k: v for k, v in options.items() if k not in BY_NAME}


def store(doc: GameDoc, kit: dict[str, Any]) -> None:
    """Keep the plain options of ``kit`` in ``doc`` (checked; only when not the default)."""
    fields = cast(dict[str, Any], doc)
    for option in OPTIONS:
        if option.plain:
            kept = option.stored(kit.get(option.name))
            if kept is not None:
                fields[option.doc_key] = kept


def shown(doc: GameDoc) -> dict[str, Any]:
    """The kit's options a view echoes (before the engine's), those the game keeps."""
    return {o.name: v for o in OPTIONS if o.shown and (v := o.read(doc)) is not None}


def carried(doc: GameDoc) -> dict[str, Any]:
    """The kit's options a rematch creates the next game with, those the game keeps."""
    return {o.name: v for o in OPTIONS if o.carried and (v := o.read(doc)) is not None}


def pool_values(kept: Callable[[KitOption], Any]) -> dict[str, Any]:
    """The kit's part of a pool's canonical JSON, given each option's kept form."""
    out: dict[str, Any] = {}
    for option in OPTIONS:
        if option.match != "refused":
            value = kept(option)
            if value is not None or option.pool_always:
                out[option.pool_key or option.name] = value
    return out

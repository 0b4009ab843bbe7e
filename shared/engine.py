"""The contract between a game's pure rules and the service kit.

A game's rules package (``services/<game>/rules``) exports ``ENGINE``, an object that
satisfies :class:`Engine` (mypy checks the assignment ``ENGINE: Engine = ...``). Rules do
no I/O and import nothing from Flask, Redis or requests; this module is pure too, so
rules may import it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NotRequired, Protocol, TypedDict

State = dict[str, Any]
"""Plain JSON-serializable game state, including the seeded RNG state."""
Move = dict[str, Any]
"""A move: a JSON object with a ``type`` and its fields."""
Event = dict[str, Any]
"""A public event: a JSON object with a ``type``; never carries hidden information."""


Strategy = Callable[[dict[str, Any], list[Move], random.Random], Move]
"""A bot: ``choose(view, legal_moves, rng) -> move`` over the service's view of a seat."""


class Priced(TypedDict):
    """One element a subset choice may take, and what taking it costs."""

    value: str
    price: int


class Choice(TypedDict):
    """A move field that holds a freely chosen subset, described instead of enumerated.

    Every listed move of type ``type`` may carry in ``field``, instead of the empty list it
    is listed with, any list of distinct ``value`` s from ``options`` whose prices add up
    to at most ``budget``; with ``exclude_field``, never the value the move names in that
    field (Wind City's plan: the Kauf target cannot also be renewed). The engine checks
    exactly this when the move arrives, so a client needs nothing else to build a picker.
    """

    type: str
    field: str
    options: list[Priced]
    budget: int
    exclude_field: NotRequired[str]


class RuleError(ValueError):
    """A move, option or setup that the rules forbid.

    ``code`` is stable and machine-readable (it becomes the problem+json ``code``),
    e.g. ``not-your-turn``, ``wrong-phase``, ``cannot-afford``. ``message`` is an
    English template whose ``{name}`` fields ``params`` fill
    (``RuleError("cannot-afford", "insurance costs {cost}", cost=3)``): the API
    translates the template (the catalogs' msgid) and inserts the values after.
    ``.message`` is the English text; ``.template`` and ``.params`` what it was made of.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        text = message.format_map(params) if params else message
        super().__init__(text)
        self.code = code
        self.message = text
        self.template = message
        self.params = params


class Engine(Protocol):
    """What the kit needs from a game: the rules as an object, pure and deterministic.

    Every method is a function of its arguments alone (no clock, no global RNG): the
    seed given to :meth:`setup` fixes the whole game, so the log replays it exactly.
    """

    NAME: str  # "manhattan", "windcity"; the service's name and its events' game
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    @property
    def BOTS(self) -> Mapping[str, Strategy]:  # noqa: N802 (a constant of the engine)
        """Bot strategies by name (e.g. ``random``, ``greedy``; see
        services/manhattan/rules/bots.py); ``{}``: the kit's bots play random moves."""
        ...

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        """A new game for seats ``0..num_players-1`` (join order). Raises RuleError."""
        ...

    def to_act(self, state: State) -> list[int]:
        """Seats expected to act now (several at once is allowed); ``[]`` when over."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Exactly: ``[]`` unless ``seat`` is in :meth:`to_act`; else every legal move of
        ``seat`` whose subset fields (see :meth:`choices`) are empty, each listed once,
        plus ready-made non-empty subsets the engine may add as a convenience (each listed
        once too). Every entry applies exactly as listed. Every legal move is a listed
        one, or a listed one with a subset field filled as its :class:`Choice` allows.
        """
        ...

    def choices(self, state: State, seat: int) -> list[Choice]:
        """The subset fields of ``seat``'s listed moves, one per move type that has one;
        ``[]`` when every legal move is listed (Manhattan, the toy game)."""
        ...

    def apply_move(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after ``move`` and the public events it caused.

        Never mutates ``state``. Raises RuleError (and changes nothing) when illegal.
        """
        ...

    def fork(self, state: State) -> State:
        """A copy of ``state`` that :meth:`play` may change in place without changing
        ``state`` or any state that shares parts with it: a playout's or a search node's
        own state (apply_move's states share their unchanged parts)."""
        ...

    def legal_actions(self, state: State, seat: int) -> Sequence[Move]:
        """:meth:`legal_moves` without a fresh copy of each move: the same moves in the
        same order, as the engine's own objects, shared between calls and read-only
        (never change one). For playouts and search, with :meth:`play`."""
        ...

    def play(self, state: State, seat: int, move: Move) -> None:
        """Apply ``move``, one of :meth:`legal_actions` of ``seat`` now, to ``state`` in
        place: ``state`` becomes what :meth:`apply_move` would return, with no events and
        no checks (any other move leaves ``state`` undefined). ``state`` must be a
        :meth:`fork` (or a state played from one): the same rules as apply_move, minus the
        copies, events and checks a search does not need."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; no RNG state, seed or deck order."""
        ...

    def score(self, state: State) -> dict[str, Any]:
        """Scores so far with their breakdown; public."""
        ...

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        ...

    def estimate(self, state: State) -> list[float] | None:
        """Public points each seat would add if the position were scored now (Manhattan:
        the round's scoring of the board as it stands), for a search's cut-off mid-round;
        ``None``: the game has no such estimate (the search then plays on to a scoring).
        Reads only public parts: the same on a redeal for a spectator."""
        ...

    def result(self, state: State) -> dict[str, Any] | None:
        """Final standings and winners once over, else ``None``.

        ``{"standings": [{"seat", "rank", ...}], "winners": [...]}`` lets the kit rank a
        resigned seat last (:func:`shared.games.seats.rank_resigned_last`).
        """
        ...

    def upgrade(self, state: State) -> State:
        """``state`` as stored by any earlier version of this engine, in today's layout
        (the kit calls it on every document it loads; a current state comes back as is).
        Raises RuleError ``unsupported-game-version`` for a state it cannot read."""
        ...

    def stored(self, state: State) -> State:
        """``state`` as plain JSON data (dicts, lists, strings, numbers, booleans), for
        the kit to store: an engine whose state holds tuples (Wind City's houses) gives
        them as lists here, so the store's encoder takes its fast path; ``upgrade`` reads
        what this returns. A state that is plain data already comes back as is."""
        ...

    def redeal(self, state: State, seat: int | None, salt: int) -> State:
        """The same game with everything ``seat`` cannot see (``None``: a spectator)
        redistributed from ``salt`` (other hands, deck order, the RNG). For the contract
        suite: no view and no legal move of ``seat`` may change."""
        ...


def play_by_apply(
    apply_move: Callable[[State, int, Move], tuple[State, list[Event]]],
    state: State,
    seat: int,
    move: Move,
) -> None:
    """:meth:`Engine.play` for an engine with no faster way: ``apply_move``'s state taken
    over in place (its new parts are fresh and its unchanged parts already ``state``'s)."""
    new, _ = apply_move(state, seat, move)
    state.clear()
    state.update(new)

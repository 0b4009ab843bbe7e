"""The contract between a game's pure rules and the service kit.

A game's rules package (``services/<game>/rules``) is a module that satisfies
:class:`Engine`. It does no I/O and imports nothing from Flask, Redis or requests;
this module is pure too, so rules may import it.
"""

from __future__ import annotations

from typing import Any, Protocol

State = dict[str, Any]
"""Plain JSON-serializable game state, including the seeded RNG state."""
Move = dict[str, Any]
"""A move: a JSON object with a ``type`` and its fields."""
Event = dict[str, Any]
"""A public event: a JSON object with a ``type``; never carries hidden information."""


class RuleError(ValueError):
    """A move, option or setup that the rules forbid.

    ``code`` is stable and machine-readable (it becomes the problem+json ``code``),
    e.g. ``not-your-turn``, ``wrong-phase``, ``cannot-afford``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Engine(Protocol):
    """What the kit needs from a game. A rules module satisfies it with module-level names."""

    NAME: str  # "manhattan", "windcity"
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> State:
        """A new game for seats ``0..num_players-1`` (join order). Raises RuleError."""

    def to_act(self, state: State) -> list[int]:
        """Seats expected to act now (several at once is allowed); ``[]`` when over."""

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now, each appliable exactly as listed."""

    def apply_move(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after ``move`` and the public events it caused.

        Never mutates ``state``. Raises RuleError (and changes nothing) when illegal.
        """

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; no RNG state, seed or deck order."""

    def score(self, state: State) -> dict[str, Any]:
        """Scores so far with their breakdown; public."""

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""

    def result(self, state: State) -> dict[str, Any] | None:
        """Final standings and winners once over, else ``None``.

        ``{"standings": [{"seat", "rank", ...}], "winners": [...]}`` lets the kit rank a
        resigned seat last (:func:`shared.seats.rank_resigned_last`).
        """

    # Optional: ``BOTS = {"random": choose, "greedy": choose}``, strategies
    # ``choose(view, legal_moves, rng) -> move`` over a seat's view (see
    # services/manhattan/rules/bots.py); without it the kit's bots play random moves.

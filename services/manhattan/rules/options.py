"""Manhattan's options and player count, validated again by the engine (the service
schema checks them first, so a bad dict never builds a state)."""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError

MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULTS: dict[str, bool] = {"six_rounds": False, "promo_cards": False}


def validate(num_players: Any, options: dict[str, Any] | None) -> dict[str, bool]:
    """The complete options (defaults filled in), or RuleError."""
    if type(num_players) is not int or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise RuleError(
            "invalid-player-count",
            "Manhattan needs 2-4 players, not {num_players!r}",
            num_players=num_players,
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("invalid-option", "options must be an object")
    for key, value in options.items():
        if key not in DEFAULTS:
            raise RuleError("invalid-option", "unknown option {key!r}", key=key)
        if type(value) is not bool:
            raise RuleError("invalid-option", "option {key!r} must be true or false", key=key)
    return {**DEFAULTS, **options}


def rounds(options: dict[str, bool]) -> tuple[int, int]:
    """(number of rounds, pieces selected per round)."""
    return (6, 4) if options["six_rounds"] else (4, 6)

"""Validation of the game options and the player count (the engine re-checks what the
service schema already checked, so a bad dict never builds a state)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from shared.engine import RuleError

MIN_PLAYERS = 2
MAX_PLAYERS = 5

PlayArea = Literal["used_sections", "full"]


class Options(TypedDict):
    """A game's options, every one filled in (rules: option summary)."""

    play_area: PlayArea  # the hurricane's board: the land sections in use, or all 24 rows
    score_money: bool  # money counts as points at the end
    max_turns: int  # the safety stop


DEFAULTS: Options = {"play_area": "used_sections", "score_money": True, "max_turns": 100}
PLAY_AREAS: tuple[PlayArea, ...] = ("used_sections", "full")
MAX_TURNS_RANGE = (10, 1000)
"""Allowed ``max_turns`` (rules: option summary); the API schema uses the same bounds."""


def validate(num_players: Any, options: dict[str, Any] | None) -> Options:
    """The complete options (defaults filled in), or RuleError."""
    if (
        not isinstance(num_players, int)
        or isinstance(num_players, bool)
        or not MIN_PLAYERS <= num_players <= MAX_PLAYERS
    ):
        raise RuleError(
            "invalid-player-count",
            "Wind City needs 2-5 players, not {num_players!r}",
            num_players=num_players,
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RuleError("invalid-option", "options must be an object")
    for key in options:
        if key not in DEFAULTS:
            raise RuleError("invalid-option", "unknown option {key!r}", key=key)
    out: dict[str, Any] = dict(DEFAULTS)
    out.update(options)
    if out["play_area"] not in PLAY_AREAS:
        raise RuleError("invalid-option", "play_area must be 'used_sections' or 'full'")
    if not isinstance(out["score_money"], bool):
        raise RuleError("invalid-option", "score_money must be true or false")
    mt = out["max_turns"]
    lo, hi = MAX_TURNS_RANGE
    if not isinstance(mt, int) or isinstance(mt, bool) or not lo <= mt <= hi:
        raise RuleError("invalid-option", "max_turns must be an integer {lo}-{hi}", lo=lo, hi=hi)
    return cast(Options, out)

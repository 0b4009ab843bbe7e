"""The building blocks of the schemas: strict JSON scalars, the options every game has
(``players``, ``seed``, ``clock``, ``takeover``...), and the marks that document an
answer's field with the game's own schema (:func:`payload`). Moves are
:mod:`shared.http.schemas.moves`."""

from __future__ import annotations

from typing import Any

from flask import current_app, has_app_context
from marshmallow import Schema, ValidationError, fields, validate

SEED_MAX = 2**63 - 1
TURN_SECONDS_MAX = 1209600
STATUSES = ("open", "running", "finished", "cancelled")
SEAT_STATUSES = ("active", "abandoned", "resigned", "bot")
BOT_STRATEGIES = ("random", "greedy", "medium", "strong")
REQ: dict[str, Any] = {"required": True}
TIMESTAMP = {"format": "date-time", "example": "2024-06-01T12:00:00.000Z"}


class Int(fields.Integer):
    """An integer that must be a JSON integer: no strings, no floats, no booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if type(value) is int:  # the usual case, as marshmallow's own path would return it
            return value
        return super()._deserialize(value, attr, data, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._validated(value)


class Bool(fields.Boolean):
    """A boolean that must be a JSON ``true``/``false``."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def players_field(minimum: int, maximum: int) -> Int:
    """The ``players`` option: the number of seats (default: the most the game allows)."""
    return Int(
        load_default=maximum,
        validate=validate.Range(minimum, maximum),
        metadata={
            "description": f"Number of seats, {minimum}-{maximum}; the host may "
            f"start once at least {minimum} joined."
        },
    )


def seed_field() -> Int:
    """The ``seed`` option: makes the game reproducible; random when omitted."""
    return Int(
        validate=validate.Range(0, SEED_MAX),
        metadata={"description": "Random seed (0..2^63-1); secret until the game is over."},
    )


def _turn_seconds(value: int) -> None:
    """``CLOCK_MIN_TURN_SECONDS`` (default 10; tests lower it) .. 14 days: a setting, so
    checked here against the app's config, and documented with the default."""
    low = current_app.config.get("CLOCK_MIN_TURN_SECONDS", 10) if has_app_context() else 10
    if not low <= value <= TURN_SECONDS_MAX:
        raise ValidationError(f"Must be {low}..{TURN_SECONDS_MAX}.")


class ClockSchema(Schema):
    turn_seconds = Int(
        required=True,
        validate=_turn_seconds,
        metadata={
            "minimum": 10,
            "maximum": TURN_SECONDS_MAX,
            "description": "Seconds each seat has for each move, 10..1209600 (14 days); "
            "a seat that misses it has that move played by a bot (a timeout).",
        },
    )
    max_timeouts = Int(
        load_default=3,
        validate=validate.Range(1, 10),
        metadata={"description": "Timeouts in a row after which the seat is abandoned."},
    )


def clock_field() -> fields.Nested:
    """The ``clock`` option, the same for every game: turn deadlines (none when omitted)."""
    return fields.Nested(
        ClockSchema,
        metadata={"description": "Turn clock; without it a game has no deadlines."},
    )


def payload(name: str, **kwargs: Any) -> fields.Raw:
    """A field documented by the game's ``<Game><name>`` component (its state, score,
    result, events, moves: see shared/http/openapi.py)."""
    nullable = kwargs.get("allow_none", False)
    metadata = {"x-payload": name, "x-nullable": nullable, **kwargs.pop("metadata", {})}
    return fields.Raw(metadata=metadata, **kwargs)


def timestamp(description: str) -> fields.String:
    """An RFC 3339 UTC timestamp with milliseconds, as the kit writes them."""
    return fields.String(required=True, metadata={"description": description, **TIMESTAMP})


def visibility_field() -> fields.String:
    """The ``visibility`` option, the same for every game (shared/games/tables.py)."""
    return fields.String(
        validate=validate.OneOf(["public", "unlisted"]),
        metadata={
            "description": "`public` (default): listed, anyone may join. `unlisted`: in no "
            "listing; joining needs the invite code the create answer carries."
        },
    )


def start_field() -> fields.String:
    """The ``start`` option, the same for every game (shared/games/tables.py)."""
    return fields.String(
        validate=validate.OneOf(["host", "when_full"]),
        metadata={
            "description": "`host` (default): the host starts the game. `when_full`: the "
            "join that takes the last seat starts it."
        },
    )


def takeover_field() -> fields.String:
    """The ``takeover`` option, the same for every game (shared/games/seats.py)."""
    return fields.String(
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "The bot level that plays a seat that times out, resigns or is "
            "abandoned: `random`, `greedy`, `medium` or `strong` (default). Views show it "
            "under `options.takeover` when it is not the default."
        },
    )


def rated_field() -> Bool:
    """The ``rated`` option, the same for every game (shared/games/ratings.py)."""
    return Bool(
        metadata={
            "description": "`false`: the game is not rated. Otherwise it is rated when "
            "every human seat is taken by a player (a player key), and only then."
        },
    )

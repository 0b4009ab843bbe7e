"""The building blocks of the schemas: strict JSON scalars, the ``clock`` option's schema
(the kit's options are built in :mod:`shared.http.schemas.options`), and the marks that
document an answer's field with the game's own schema (:func:`payload`). Moves are
:mod:`shared.http.schemas.moves`."""

from __future__ import annotations

from typing import Any

from flask import current_app, has_app_context
from marshmallow import Schema, ValidationError, fields, validate

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


def payload(name: str, **kwargs: Any) -> fields.Raw:
    """A field documented by the game's ``<Game><name>`` component (its state, score,
    result, events, moves: see shared/http/openapi.py)."""
    nullable = kwargs.get("allow_none", False)
    metadata = {"x-payload": name, "x-nullable": nullable, **kwargs.pop("metadata", {})}
    return fields.Raw(metadata=metadata, **kwargs)


def timestamp(description: str) -> fields.String:
    """An RFC 3339 UTC timestamp with milliseconds, as the kit writes them."""
    return fields.String(required=True, metadata={"description": description, **TIMESTAMP})

"""Marshmallow schemas of the kit's requests and responses (the OpenAPI document is
built from them), plus building blocks for a game's own option and move schemas."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from flask import current_app, has_app_context
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.games import names
from shared.webhooks.schemas import seat_webhook_field, secret_field

SEED_MAX = 2**63 - 1
STATUSES = ("open", "running", "finished", "cancelled")
SEAT_STATUSES = ("active", "abandoned", "resigned", "bot")
BOT_STRATEGIES = ("random", "greedy")
# An event id or bare version: ASCII digits only (``\d`` would take any Unicode digit),
# at most 19 per part so every value fits a Redis stream id's 64 bits.
EVENT_ID_PATTERN = r"^[0-9]{1,19}(-[0-9]{1,19})?$"
_EVENT_ID = re.compile(EVENT_ID_PATTERN.removeprefix("^").removesuffix("$"))


def is_event_id(value: str) -> bool:
    """Whether ``value`` is an event id or a bare version (all of it: ``$`` in a
    pattern would also let a trailing newline through)."""
    return _EVENT_ID.fullmatch(value) is not None


def _event_id(value: str) -> None:
    if not is_event_id(value):
        raise ValidationError("Must be an event id (`<version>-<n>`) or a version.")


class Int(fields.Integer):
    """An integer that must be a JSON integer: no strings, no floats, no booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

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


TURN_SECONDS_MAX = 1209600


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


class MoveUnion(Schema):
    """A move: one of several schemas chosen by its ``type`` (a tagged union).

    A game subclasses it and fills ``TYPES`` (``{"place": PlaceSchema, ...}``); each
    member schema has its own ``type`` field. The kit documents it as a ``oneOf``.
    """

    TYPES: ClassVar[dict[str, type[Schema]]] = {}

    type = fields.String(required=True)

    def load(self, data: Any, *, many: Any = None, partial: Any = None, unknown: Any = None) -> Any:
        if not isinstance(data, Mapping):
            raise ValidationError({"_schema": ["A move must be a JSON object."]})
        kind = data.get("type")
        member = self.TYPES.get(kind) if isinstance(kind, str) else None
        if member is None:
            raise ValidationError({"type": [f"Must be one of: {', '.join(self.TYPES)}."]})
        return _instance(member).load(data)


@cache
def _instance(schema: type[Schema]) -> Schema:
    """One instance per member schema: building one costs ~50 us."""
    return schema()


def int_list(low: int, high: int, length: tuple[int, int], description: str) -> fields.List[Any]:
    """A move's required list of JSON integers in ``low..high`` (pieces, actions...)."""
    return fields.List(
        Int(validate=validate.Range(low, high)),
        required=True,
        validate=validate.Length(*length),
        metadata={"description": description},
    )


def type_field(name: str) -> fields.String:
    """The ``type`` field of a move schema, fixed to ``name``."""
    return fields.String(required=True, validate=validate.Equal(name), metadata={"enum": [name]})


# -- requests --------------------------------------------------------------------------


# A display name: no control, separator, bidi or zero-width code points (nor surrogates), and
# not only whitespace. A regex (not str.isprintable) so the OpenAPI document states the
# exact rule (``pattern``) and clients and fuzzers can generate valid names.
_NAME_CHAR = r"[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
_NAME_CHAR_NOT_SPACE = "[^\\s" + _NAME_CHAR[2:]
NAME_PATTERN = rf"^{_NAME_CHAR}*{_NAME_CHAR_NOT_SPACE}{_NAME_CHAR}*$"


def _no_surrogates(value: str) -> None:
    """JSON may escape a lone surrogate, which is no character (and no UTF-8)."""
    if any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        raise ValidationError("Must be 1-32 printable characters.")


class NameField(fields.String):
    """A display name, normalized to NFC before it is checked (the stored form)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        return names.normalize(super()._deserialize(value, attr, data, **kwargs))


class JoinSchema(Schema):
    name = NameField(
        validate=[
            validate.Length(1, 32),
            validate.Regexp(NAME_PATTERN, error="Must be 1-32 printable characters."),
            _no_surrogates,
        ],
        metadata={
            "description": "Display name, 1-32 printable characters (after NFC). A name "
            "that differs from one in the game only by case or by confusable characters "
            "(Unicode TR39 skeleton) is refused with 409 name-taken. Optional for a bot."
        },
    )
    bot = fields.String(
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "Host only (host token): add a seat played by this bot "
            "instead of joining."
        },
    )

    webhook = seat_webhook_field()

    @validates_schema
    def _name_unless_bot(self, data: dict[str, Any], **_: Any) -> None:
        if "name" not in data and "bot" not in data:
            raise ValidationError("Missing data for required field.", "name")


def _result_or_null() -> fields.Raw:
    """The engine's result (the game's ``Result`` payload), ``null`` until finished."""
    return payload(
        "Result",
        required=True,
        allow_none=True,
        metadata={"description": "Final standings once finished, else `null`."},
    )


class ListQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 200))


class ViewQuerySchema(Schema):
    include = fields.String(
        validate=validate.OneOf(["legal_moves"]),
        metadata={
            "description": "`legal_moves`: the view also carries the bearer's legal moves "
            "(`legal_moves`, as `GET /legal-moves` gives them), so a player needs one read "
            "per move."
        },
    )


class EventsQuerySchema(Schema):
    after = fields.String(
        validate=_event_id,
        metadata={
            "pattern": EVENT_ID_PATTERN,
            "description": "An event id (`<version>-<n>`) to read after, or a bare version "
            "`v` for everything after version v. Default: from the start.",
        },
    )
    wait = fields.Float(
        load_default=0.0,
        validate=validate.Range(0, 30),
        metadata={"description": "Seconds (0-30) to wait for an event when there is none."},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


# -- responses -------------------------------------------------------------------------
# Every field an answer always carries is ``required`` (so generated clients type it as
# present); ``PAYLOAD`` marks a field whose schema is the game's own (its state, score,
# result, events, moves): shared/http/openapi.py points it at the game's component.

REQ: dict[str, Any] = {"required": True}
TIMESTAMP = {"format": "date-time", "example": "2024-06-01T12:00:00.000Z"}


def payload(name: str, **kwargs: Any) -> fields.Raw:
    """A field documented by the game's ``<Game><name>`` component (see shared/http/openapi.py)."""
    nullable = kwargs.get("allow_none", False)
    metadata = {"x-payload": name, "x-nullable": nullable, **kwargs.pop("metadata", {})}
    return fields.Raw(metadata=metadata, **kwargs)


def timestamp(description: str) -> fields.String:
    """An RFC 3339 UTC timestamp with milliseconds, as the kit writes them."""
    return fields.String(required=True, metadata={"description": description, **TIMESTAMP})


class ProblemSchema(Schema):
    type = fields.String(required=True, metadata={"example": "urn:boardgames:problem:not-found"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(
        required=True, metadata={"description": "Stable machine-readable error code."}
    )
    errors = fields.Dict(metadata={"description": "Validation messages by location and field."})
    version = fields.Integer(metadata={"description": "The game's current version (on 412)."})
    request_id = fields.String(
        metadata={"description": "The request's id (also in the X-Request-Id header)."}
    )


class PlayerSchema(Schema):
    seat = fields.Integer(**REQ)
    name = fields.String(**REQ)
    status = fields.String(required=True, metadata={"enum": list(SEAT_STATUSES)})
    bot = fields.String(
        required=True,
        allow_none=True,
        metadata={"enum": list(BOT_STRATEGIES), "description": "The bot playing the seat."},
    )
    deadline = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "RFC 3339 UTC: when the seat's move is due (clock only).",
            **TIMESTAMP,
        },
    )
    timeouts = fields.Integer(required=True, metadata={"description": "Deadlines missed in a row."})


class GameSchema(Schema):
    """The public head of a view, a listing entry and a log."""

    id = fields.String(**REQ)
    game = fields.String(**REQ)
    status = fields.String(required=True, metadata={"enum": list(STATUSES)})
    version = fields.Integer(
        required=True, metadata={"description": "Bumped by every change; the ETag."}
    )
    options = payload(
        "Options", required=True, metadata={"description": "The options the game was made with."}
    )
    players = fields.List(fields.Nested(PlayerSchema), **REQ)
    seed_commitment = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "When the service picked the seed: SHA-256 hex of "
            '`"<seed>:<salt>"` (decimal seed, 32 hex digits of salt); the log reveals '
            "both once the game is over. `null` when the creator chose the seed."
        },
    )
    seed_chosen = fields.Boolean(
        required=True,
        metadata={"description": "The creator chose the seed (and may know every hand)."},
    )


class ViewSchema(GameSchema):
    you = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The bearer's seat (`null`: a spectator or the host)."},
    )
    to_act = fields.List(
        fields.Integer(), required=True, metadata={"description": "Seats expected to act."}
    )
    state = payload(
        "State",
        required=True,
        allow_none=True,
        metadata={"description": "The engine's view for the bearer; `null` until started."},
    )
    result = _result_or_null()
    created_at = timestamp("When the game was created.")
    updated_at = timestamp("When the game last changed.")
    legal_moves = fields.List(
        fields.Dict(),
        metadata={"description": "With `include=legal_moves`: the bearer's legal moves now."},
    )


class SummarySchema(GameSchema):
    to_act = fields.List(fields.Integer(), **REQ)
    created_at = timestamp("When the game was created.")


class GameListSchema(Schema):
    games = fields.List(fields.Nested(SummarySchema), **REQ)
    next_cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Pass as `cursor` for the next page; `null` on the last."},
    )


class CreatedSchema(Schema):
    id = fields.String(**REQ)
    host_token = fields.String(
        required=True, metadata={"description": "Shown once; starts or cancels."}
    )
    game = fields.Nested(ViewSchema, **REQ)
    webhook_id = fields.String()  # with a "webhook" only (shared/webhooks)
    webhook_secret = secret_field()


class JoinedSchema(Schema):
    seat = fields.Integer(**REQ)
    token = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The seat's secret token, shown once (null for a bot)."},
    )
    game = fields.Nested(ViewSchema, **REQ)
    webhook_id = fields.String()  # with a "webhook" only (shared/webhooks)
    webhook_secret = secret_field()


class PricedSchema(Schema):
    value = fields.String(required=True, metadata={"description": "E.g. a square, `C4`."})
    price = fields.Integer(required=True)


class ChoiceSchema(Schema):
    """A subset field of the listed moves, described instead of enumerated."""

    type = fields.String(required=True, metadata={"description": "The move type it fills."})
    field = fields.String(required=True, metadata={"description": "The move's list field."})
    options = fields.List(fields.Nested(PricedSchema), required=True)
    budget = fields.Integer(
        required=True, metadata={"description": "The prices taken add up to at most this."}
    )
    exclude_field = fields.String(
        metadata={"description": "Never the value the move names in this field."}
    )


class LegalMovesSchema(Schema):
    moves = fields.List(
        payload("Move"),
        required=True,
        metadata={
            "description": "Every legal move with its subset fields empty, plus a few "
            "ready-made subsets; each postable unchanged."
        },
    )
    choices = fields.List(
        fields.Nested(ChoiceSchema),
        required=True,
        metadata={
            "description": "A listed move of this `type` may carry in `field`, instead of "
            "its list, any distinct `options` whose prices add up to at most `budget` (and "
            "not the value of its `exclude_field`); the server checks exactly this. "
            "Empty when every legal move is listed."
        },
    )


EVENT_DESCRIPTION = "An event: `id`, `type`, `version` and the event's own fields."


def _events() -> fields.List[Any]:
    return fields.List(payload("Event"), required=True, metadata={"description": EVENT_DESCRIPTION})


class MoveResultSchema(Schema):
    game = fields.Nested(ViewSchema, **REQ)
    events = _events()


class EventPageSchema(Schema):
    """A page of events (not "Events": a generated model may not share a field's name)."""

    events = _events()
    last_id = fields.String(required=True, metadata={"description": "Pass as `after` to continue."})


class ScoreboardSchema(Schema):
    """The score and result (not "Score": a generated model may not share a field's name)."""

    status = fields.String(required=True, metadata={"enum": list(STATUSES)})
    score = payload(
        "Score",
        required=True,
        allow_none=True,
        metadata={"description": "Scores so far; `null` until started."},
    )
    result = _result_or_null()


class LoggedMoveSchema(Schema):
    seat = fields.Integer(**REQ)
    move = payload("Move", required=True)
    version = fields.Integer(required=True, metadata={"description": "The version the move made."})


class LogSchema(GameSchema):
    events = _events()
    moves = fields.List(
        fields.Nested(LoggedMoveSchema), metadata={"description": "Every move; once over."}
    )
    seed = fields.Integer(metadata={"description": "Only once the game is over."})
    salt = fields.String(
        allow_none=True,
        metadata={"description": "Only once over: the salt of `seed_commitment`."},
    )


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"enum": ["ok"]})


# -- events (documentation: the kit's own; a game adds its own, see shared/http/openapi.py) ---


class EventBase(Schema):
    """What every event has: its id, type and the version that made it."""

    id = fields.String(required=True, metadata={"description": "`<version>-<n>`; pass as `after`."})
    version = fields.Integer(required=True, metadata={"description": "The version it made."})


def event_type(name: str) -> fields.String:
    """An event's ``type``, fixed to ``name`` (the discriminator)."""
    return type_field(name)


class GameCreatedEvent(EventBase):
    type = event_type("game_created")
    options = payload("Options", required=True)


class PlayerJoinedEvent(EventBase):
    type = event_type("player_joined")
    seat = fields.Integer(**REQ)
    name = fields.String(**REQ)
    bot = fields.String(
        metadata={"enum": list(BOT_STRATEGIES), "description": "Only for a bot seat."}
    )


class SeatEvent(EventBase):
    seat = fields.Integer(**REQ)


class SeatResignedEvent(SeatEvent):
    type = event_type("seat_resigned")


class PlayerLeftEvent(SeatEvent):
    type = event_type("player_left")
    name = fields.String(**REQ)


class SeatTimedOutEvent(SeatEvent):
    type = event_type("seat_timed_out")


class SeatAbandonedEvent(SeatEvent):
    type = event_type("seat_abandoned")


class GameStartedEvent(EventBase):
    type = event_type("game_started")
    players = fields.List(fields.Nested(PlayerSchema), **REQ)


class GameFinishedEvent(EventBase):
    type = event_type("game_finished")
    result = payload("Result", required=True)


class GameCancelledEvent(EventBase):
    type = event_type("game_cancelled")


KIT_EVENTS: dict[str, type[Schema]] = {
    "game_created": GameCreatedEvent,
    "player_joined": PlayerJoinedEvent,
    "game_started": GameStartedEvent,
    "game_finished": GameFinishedEvent,
    "game_cancelled": GameCancelledEvent,
    "seat_resigned": SeatResignedEvent,
    "player_left": PlayerLeftEvent,
    "seat_timed_out": SeatTimedOutEvent,
    "seat_abandoned": SeatAbandonedEvent,
}

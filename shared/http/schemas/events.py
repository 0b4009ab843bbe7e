"""The kit's own events, for the OpenAPI document (a game adds its own, built on
:class:`EventBase` and :func:`event_type`; see shared/http/openapi.py)."""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.http.schemas.answers import PlayerSchema
from shared.http.schemas.chat import ChatMessageSchema
from shared.http.schemas.fields import BOT_STRATEGIES, REQ, payload
from shared.http.schemas.moves import type_field


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


class PlayerErasedEvent(EventBase):
    """A player deleted itself: its seats' names are the placeholder from now on."""

    type = event_type("player_erased")
    seats = fields.List(fields.Integer(), **REQ)


class RematchCreatedEvent(EventBase):
    """A finished game's rematch was created (``next_game`` in its view)."""

    type = event_type("rematch_created")
    game_id = fields.String(**REQ)


class HintUsedEvent(SeatEvent):
    """A seat asked for a hint (``POST /games/{id}/hint``); ``used``: its count so far."""

    type = event_type("hint_used")
    used = fields.Integer(**REQ)


class AnalysisReadyEvent(EventBase):
    """A finished game's analysis is ready (``GET /games/{id}/analysis``)."""

    type = event_type("analysis_ready")


class ChatEvent(EventBase):
    """A table chat message (GET /games/{id}/events only, for those who read its
    channel; never in the log)."""

    type = event_type("chat")
    message = fields.Nested(ChatMessageSchema, **REQ)


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
    "player_erased": PlayerErasedEvent,
    "rematch_created": RematchCreatedEvent,
    "hint_used": HintUsedEvent,
    "analysis_ready": AnalysisReadyEvent,
    "chat": ChatEvent,
}

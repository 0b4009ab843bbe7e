"""What the kit's routes answer, as the OpenAPI document describes it.

Documentation only: every answer is sent as built (:mod:`shared.games.answers` builds
views, listing entries, scores and logs; :mod:`shared.http.resources` wraps them), never
dumped through these schemas, so no field is dropped or reordered on the way out. Each
schema lists its fields in the order the answer has them, and
``tests/kit/test_answers_declared_once.py`` checks, for every kind of answer over whole
games, that its keys are exactly the schema's declared fields, in that order. A field
added to an answer is one edit where it is built plus its line here.

Every field an answer always carries is ``required`` (so generated clients type it as
present); :func:`~shared.http.schemas.fields.payload` marks a field whose schema is the
game's own (its state, score, result, events, moves).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import (
    BOT_STRATEGIES,
    REQ,
    SEAT_STATUSES,
    STATUSES,
    TIMESTAMP,
    payload,
    timestamp,
)
from shared.webhooks.schemas import secret_field

EVENT_DESCRIPTION = "An event: `id`, `type`, `version` and the event's own fields."


def _result_or_null() -> fields.Raw:
    """The engine's result (the game's ``Result`` payload), ``null`` until finished."""
    return payload(
        "Result",
        required=True,
        allow_none=True,
        metadata={"description": "Final standings once finished, else `null`."},
    )


def _events() -> fields.List[Any]:
    return fields.List(payload("Event"), required=True, metadata={"description": EVENT_DESCRIPTION})


PROBLEM_DESCRIPTION = (
    "An RFC 9457 problem. `title` and `detail` are in the request's language "
    "(`Accept-Language`: English, Japanese or German; English by default), named in the "
    "answer's `Content-Language` header. `code` and `type` never change with the language: "
    "branch on `code`."
)


def watch_code_field() -> fields.String:
    """``watch_code`` of a create or join answer (the ``spectators: link`` games)."""
    return fields.String(
        metadata={
            "description": "A game whose `spectators` is `link`: the code spectators read "
            "it with (`?watch=<code>`, 128 bits)."
        }
    )


def watch_link_field() -> fields.String:
    """``watch_link`` beside :func:`watch_code_field`."""
    return fields.String(
        metadata={
            "description": "The spectators' path to share (`/play?game=<id>&watch=<code>`, "
            "on this service)."
        }
    )


class ProblemSchema(Schema):
    """An RFC 9457 problem (:data:`PROBLEM_DESCRIPTION`; the OpenAPI document carries it:
    a ``Meta.description`` would cost the schema its ``additionalProperties``)."""

    type = fields.String(
        required=True,
        metadata={
            "example": "urn:boardgames:problem:not-found",
            "description": "`urn:boardgames:problem:<code>`; the same in every language.",
        },
    )
    title = fields.String(
        required=True,
        metadata={"description": "The status's name, in the language of `Content-Language`."},
    )
    status = fields.Integer(required=True)
    detail = fields.String(
        required=True,
        metadata={
            "description": "What happened, in the language of `Content-Language` "
            "(negotiated from `Accept-Language`)."
        },
    )
    code = fields.String(
        required=True,
        metadata={"description": "Stable machine-readable error code; the same in every language."},
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


class HintsSchema(Schema):
    allowed = fields.Integer(
        required=True,
        metadata={"description": "Hints each seat may ask in this game (0 in a rated game)."},
    )
    used = fields.List(
        fields.Integer(), required=True, metadata={"description": "Hints asked, by seat."}
    )


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
    visibility = fields.String(
        required=True,
        validate=validate.OneOf(["public", "unlisted"]),
        metadata={"description": "`unlisted`: in no listing; joined with its invite code."},
    )
    next_game = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The rematch's id, once a player asked for one."},
    )
    hints = fields.Nested(
        HintsSchema,
        required=True,
        metadata={"description": "Hints: the allowance and each seat's count (public)."},
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
    watch_link = fields.String(
        metadata={
            "description": "A seat's and the host's view of a game whose `spectators` is "
            "`link`: the spectators' link to share (`/play?game=<id>&watch=<code>`)."
        }
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
    invite_code = fields.String(
        metadata={"description": "An unlisted game's invite code (128 bits), shown once."}
    )
    join_link = fields.String(
        metadata={
            "description": "The path to share (`/play?game=<id>&invite=<code>`, "
            "on this service): the browser page of the game with its invite code, "
            "which `boardgames GAME join LINK` takes too."
        }
    )
    watch_code = watch_code_field()
    watch_link = watch_link_field()
    webhook_id = fields.String()  # with a "webhook" only (shared/webhooks)
    webhook_secret = secret_field()


class RematchSchema(Schema):
    game_id = fields.String(required=True, metadata={"description": "The next game's id."})
    host_token = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The next game's host token, for the request that made it."},
    )
    game = fields.Nested(ViewSchema, **REQ)


class JoinedSchema(Schema):
    seat = fields.Integer(**REQ)
    token = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The seat's secret token, shown once (null for a bot)."},
    )
    game = fields.Nested(ViewSchema, **REQ)
    watch_code = watch_code_field()
    watch_link = watch_link_field()
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

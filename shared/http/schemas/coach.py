"""The answers of hints and analyses: ``POST /games/{id}/hint`` and
``GET /games/{id}/analysis`` (shared/games/hints.py, shared/usecases/analysis.py)."""

from __future__ import annotations

from marshmallow import Schema, fields

from shared.http.schemas.fields import REQ


class HintSchema(Schema):
    move = fields.Dict(
        required=True, metadata={"description": "The move the bot level would play now."}
    )
    level = fields.String(required=True, metadata={"description": "The bot level asked."})
    seat = fields.Integer(**REQ)
    used = fields.Integer(required=True, metadata={"description": "Hints this seat has used."})
    left = fields.Integer(required=True, metadata={"description": "Hints this seat has left."})
    version = fields.Integer(required=True, metadata={"description": "The game's version."})


class MoveChancesSchema(Schema):
    index = fields.Integer(
        required=True, metadata={"description": "Moves played so far (0: the start)."}
    )
    version = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The move's game version."}
    )
    chances = fields.List(
        fields.Float(), required=True, metadata={"description": "Each seat's chance to win."}
    )


class DropSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The move's number (1-based)."})
    version = fields.Integer(required=True, allow_none=True)
    move = fields.Dict(required=True, metadata={"description": "The move played."})
    before = fields.Float(required=True, metadata={"description": "The seat's chance before it."})
    after = fields.Float(required=True, metadata={"description": "The seat's chance after it."})
    drop = fields.Float(required=True, metadata={"description": "`before - after`."})
    preferred = fields.Dict(
        required=True,
        metadata={"description": "The bot's move there, decided from the seat's view then."},
    )
    by = fields.Float(
        required=True,
        metadata={
            "description": "The preferred move's chance minus the played one's, as the seat "
            "could judge them (0 when they are the same move)."
        },
    )


class SeatDropsSchema(Schema):
    seat = fields.Integer(**REQ)
    drops = fields.List(fields.Nested(DropSchema), **REQ)


class AnalysisSchema(Schema):
    game_id = fields.String(**REQ)
    game = fields.String(**REQ)
    seats = fields.Integer(**REQ)
    moves = fields.Integer(required=True, metadata={"description": "Moves in the game."})
    chances = fields.List(fields.Nested(MoveChancesSchema), **REQ)
    drops = fields.List(fields.Nested(SeatDropsSchema), **REQ)
    method = fields.Dict(required=True, metadata={"description": "The budget used (docs/bots.md)."})

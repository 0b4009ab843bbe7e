"""What the player routes accept and answer (``/players``): a player, its key, its
games. Documentation and validation only, as for the other answers
(shared/http/schemas/answers.py)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import REQ, STATUSES, payload, timestamp
from shared.http.schemas.moderation import ModerationExportSchema
from shared.http.schemas.requests import NameField, name_validators


class PlayerCreateSchema(Schema):
    name = NameField(
        required=True,
        validate=name_validators(),
        metadata={"description": "Display name, 1-32 printable characters (after NFC)."},
    )
    external_id = fields.String(
        validate=validate.Length(1, 128),
        metadata={
            "description": "API keys only: the platform's own reference for this user, "
            "unique per API key. Creating it again answers 200 with the same player (and "
            "no key); then act for it with the API key and `X-Player: <external_id>`."
        },
    )


class MyGamesQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    turn = fields.String(
        validate=validate.OneOf(["mine"]),
        metadata={"description": "`mine`: only the games where it is the player's turn."},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 200))


class PlayerProfileSchema(Schema):
    id = fields.String(**REQ)
    name = fields.String(**REQ)
    external_id = fields.String(
        required=True, allow_none=True, metadata={"description": "The API key's reference."}
    )
    created_at = timestamp("When the player was created.")


class PlayerCreatedSchema(PlayerProfileSchema):
    key = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The player key (`bgp_...`), shown once: send it as bearer token "
            "wherever a seat token goes. `null` when the external_id already named a player."
        },
    )


class ExportedGameSchema(Schema):
    game = fields.String(**REQ)
    id = fields.String(**REQ)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seat = fields.Integer(**REQ)
    name = fields.String(required=True, metadata={"description": "The player's name there."})
    created_at = timestamp("When the game was created.")
    updated_at = timestamp("The game's last change.")
    result = payload("Result", required=True, allow_none=True)
    moves = fields.List(
        fields.Dict(), required=True, metadata={"description": "`{version, move}` of each."}
    )
    webhooks = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "The seat's webhook registrations, `{id, url, events}`."},
    )


class ExportedChatSchema(Schema):
    game = fields.String(**REQ)
    id = fields.String(required=True, metadata={"description": "The game's id."})
    messages = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "`{id, channel, text, phrase, at, version}` of each message the "
            "player sent there that the chat still keeps."
        },
    )


class StoredRatingSchema(Schema):
    mu = fields.Float(**REQ)
    sigma = fields.Float(**REQ)
    games = fields.Integer(required=True, metadata={"description": "Rated games counted."})
    wins = fields.Float(
        required=True, metadata={"description": "Win share summed (1/k for a k-way tie)."}
    )


class PlayerExportSchema(Schema):
    player = fields.Nested(PlayerProfileSchema, **REQ)
    rating = fields.Nested(
        StoredRatingSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The stored rating in this service's game; null: never rated."},
    )
    webhook = fields.Dict(
        required=True,
        allow_none=True,
        metadata={"description": "The player's webhook registration, `{id, url, events, since}`."},
    )
    push = fields.Dict(
        required=True,
        metadata={
            "description": "The player's push settings and each subscription as stored "
            "(`subscriptions`: `{id, endpoint, keys, device, since}`)."
        },
    )
    games = fields.List(fields.Nested(ExportedGameSchema), **REQ)
    chat = fields.List(fields.Nested(ExportedChatSchema), **REQ)
    moderation = fields.Nested(
        ModerationExportSchema,
        **REQ,
        metadata={"description": "The players it blocked and the reports it filed."},
    )


class OtherPlayerSchema(Schema):
    seat = fields.Integer(**REQ)
    name = fields.String(**REQ)
    bot = fields.String(required=True, allow_none=True)


class MyGameSchema(Schema):
    game = fields.String(required=True, metadata={"description": "The service's game."})
    id = fields.String(**REQ)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    seat = fields.Integer(required=True, metadata={"description": "The player's seat."})
    my_turn = fields.Boolean(**REQ)
    deadline = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "RFC 3339 UTC: when the player's move is due (clock only)."},
    )
    players = fields.List(fields.Nested(OtherPlayerSchema), **REQ)
    result = payload("Result", required=True, allow_none=True)
    updated_at = timestamp("The game's last change.")


class MyGamesSchema(Schema):
    games = fields.List(fields.Nested(MyGameSchema), **REQ)
    next_cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Pass as `cursor` for the next page; `null` on the last."},
    )

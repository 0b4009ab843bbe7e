"""What the table chat's routes accept and answer (shared/games/chat.py): a message
sent (text or a canned phrase), a page of messages, the phrases, a reader's mutes.
Documentation and validation only, as for the other answers.

May import marshmallow, the other schemas' helpers and ``shared.games.chat``'s names.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.games import names
from shared.games.chat import CHANNELS, MAX_LENGTH, MESSAGE, PHRASES
from shared.http.schemas.fields import REQ
from shared.http.schemas.requests import EVENT_ID_PATTERN, WatchQuerySchema, _event_id

PHRASE_CODES = [p.code for p in PHRASES]


class TextField(fields.String):
    """A message's text, normalized to NFC before it is checked (the stored form)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        return names.normalize(super()._deserialize(value, attr, data, **kwargs))


def _no_surrogates(value: str) -> None:
    if any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        raise ValidationError(MESSAGE)


class ChatPostSchema(Schema):
    """A message: ``text`` or ``phrase``, exactly one (documented as a ``oneOf`` of
    :class:`ChatTextSchema` and :class:`ChatPhraseSchema`: shared/http/app.py)."""

    text = TextField(
        validate=[
            validate.Length(1, MAX_LENGTH),
            validate.Regexp(names.PATTERN, error=MESSAGE),
            _no_surrogates,
        ],
        metadata={
            "pattern": names.PATTERN,
            "description": "One line of plain text (never markup): at most `CHAT_MAX_LENGTH` "
            f"characters ({MAX_LENGTH} by default and at most), visible characters only (a "
            "name's rule: no controls or line breaks, no bidi or zero-width characters), "
            "not only spaces.",
        },
    )
    phrase = fields.String(
        validate=validate.OneOf(PHRASE_CODES),
        metadata={"description": "A canned phrase's code (`GET /chat/phrases`)."},
    )

    @validates_schema
    def _one(self, data: dict[str, Any], **_: Any) -> None:
        if ("text" in data) == ("phrase" in data):
            raise ValidationError("Send text or phrase, exactly one.", "_schema")


class ChatQuerySchema(WatchQuerySchema):
    channel = fields.String(
        validate=validate.OneOf(CHANNELS),
        metadata={"description": "Only this channel (default: every channel you read)."},
    )
    after = fields.String(
        validate=_event_id,
        metadata={
            "pattern": EVENT_ID_PATTERN,
            "description": "A message id or an event id to read after (one cursor for both); "
            "a bare version `v`: after version v. Default: from the oldest kept.",
        },
    )
    wait = fields.Float(
        load_default=0.0,
        validate=validate.Range(0, 30),
        metadata={"description": "Seconds (0-30) to wait for a message when there is none."},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 500))


class ChatMessageSchema(Schema):
    id = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "`<version>-<2^32 + j>`: sorts among the game's event ids. Null"
            " only in the answer to a delayed spectator's own message (its id would tell the"
            " live version): the stream brings it, with its id, at the delayed position."
        },
    )
    channel = fields.String(**REQ, metadata={"enum": list(CHANNELS)})
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The sender's seat (players)."}
    )
    player = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The sender's player id, when it sent with a player key."},
    )
    name = fields.String(
        **REQ, metadata={"description": "The sender's name (`Deleted player` once erased)."}
    )
    text = fields.String(required=True, allow_none=True)
    phrase = fields.String(required=True, allow_none=True, metadata={"enum": [*PHRASE_CODES, None]})
    phrase_text = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The phrase in the request's language (Accept-Language)."},
    )
    at = fields.Integer(**REQ, metadata={"description": "When it was sent (ms since 1970)."})
    version = fields.Integer(
        **REQ,
        metadata={
            "description": "The game's version when it was sent; a delayed spectator's"
            " at most its delayed version (the answer to its own message too)."
        },
    )
    deleted = fields.Boolean(
        **REQ, metadata={"description": "Removed by an operator: text and phrase null."}
    )


class ChatPageSchema(Schema):
    messages = fields.List(fields.Nested(ChatMessageSchema), **REQ)
    last_id = fields.String(**REQ, metadata={"description": "Pass as `after` to continue."})


class ChatSentSchema(Schema):
    message = fields.Nested(ChatMessageSchema, **REQ)


class PhraseSchema(Schema):
    code = fields.String(**REQ, metadata={"enum": PHRASE_CODES})
    text = fields.String(**REQ, metadata={"description": "In the request's language."})


class ChatPhrasesSchema(Schema):
    """(Not "Phrases": a generated model may not share a field's name.)"""

    phrases = fields.List(fields.Nested(PhraseSchema), **REQ)


class ChatMutesSchema(Schema):
    mutes = fields.List(
        fields.String(),
        **REQ,
        metadata={"description": "The muted senders: seats (`2`) and players (`player:<id>`)."},
    )

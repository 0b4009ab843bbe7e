"""What the kit's routes accept: the join body and the query strings (a game's options
and moves are its own schemas, built from :mod:`shared.http.schemas.fields`)."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from shared.games import names
from shared.http.schemas.fields import BOT_STRATEGIES, STATUSES
from shared.webhooks.schemas import seat_webhook_field

# An event id or bare version: ASCII digits only (``\d`` would take any Unicode digit),
# at most 19 per part so every value fits a Redis stream id's 64 bits.
EVENT_ID_PATTERN = r"^[0-9]{1,19}(-[0-9]{1,19})?$"
_EVENT_ID = re.compile(EVENT_ID_PATTERN.removeprefix("^").removesuffix("$"))

# A display name: no control, separator, bidi or zero-width code points (nor surrogates), and
# not only whitespace. A regex (not str.isprintable) so the OpenAPI document states the
# exact rule (``pattern``) and clients and fuzzers can generate valid names.
NAME_PATTERN = names.PATTERN  # the same rule as names.check, for generated clients


def is_event_id(value: str) -> bool:
    """Whether ``value`` is an event id or a bare version (all of it: ``$`` in a
    pattern would also let a trailing newline through)."""
    return _EVENT_ID.fullmatch(value) is not None


def _event_id(value: str) -> None:
    if not is_event_id(value):
        raise ValidationError("Must be an event id (`<version>-<n>`) or a version.")


def _no_surrogates(value: str) -> None:
    """JSON may escape a lone surrogate, which is no character (and no UTF-8)."""
    if any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        raise ValidationError("Must be 1-32 printable characters.")


class NameField(fields.String):
    """A display name, normalized to NFC before it is checked (the stored form)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        return names.normalize(super()._deserialize(value, attr, data, **kwargs))


def name_validators() -> list[Any]:
    """A display name's checks (the pattern is in the OpenAPI document too)."""
    return [
        validate.Length(1, 32),
        validate.Regexp(NAME_PATTERN, error="Must be 1-32 printable characters."),
        _no_surrogates,
    ]


class JoinSchema(Schema):
    name = NameField(
        validate=name_validators(),
        metadata={
            "description": "Display name, 1-32 printable characters (after NFC). A name "
            "that differs from one in the game only by case or by confusable characters "
            "(Unicode TR39 skeleton) is refused with 409 name-taken. Optional for a bot, and "
            "for a player (player key), whose own name is then taken; required otherwise."
        },
    )
    bot = fields.String(
        validate=validate.OneOf(BOT_STRATEGIES),
        metadata={
            "description": "Host only (host token): add a seat played by this bot "
            "instead of joining."
        },
    )

    invite = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "An unlisted game's invite code (from its join link)."},
    )

    webhook = seat_webhook_field()


class EmptySchema(Schema):
    """No fields: any field sent is rejected."""


class ListQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 200))


class WatchQuerySchema(Schema):
    """The codes a spectator reads a game with (its ``spectators`` option: ``link``)."""

    watch = fields.String(
        validate=validate.Length(1, 200),
        metadata={
            "description": "The game's watch code (from its watch link): a spectator of a "
            "game whose `spectators` is `link` reads it with this."
        },
    )
    invite = fields.String(
        validate=validate.Length(1, 200),
        metadata={"description": "The game's invite code: lets one watch it, like `watch`."},
    )


class ViewQuerySchema(WatchQuerySchema):
    include = fields.String(
        validate=validate.OneOf(["legal_moves"]),
        metadata={
            "description": "`legal_moves`: the view also carries the bearer's legal moves "
            "(`legal_moves`, as `GET /legal-moves` gives them), so a player needs one read "
            "per move."
        },
    )


class EventsQuerySchema(WatchQuerySchema):
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

"""What the embed routes accept and answer (docs/api.md "Embedding in your platform"):
a platform's request for a signed seat link, the link, and the session it is exchanged
for. Documentation and validation only, as for the other answers.

May import marshmallow and ``shared.games.embeds``' names.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.embeds import LANGUAGES, SEAT, THEME_VALUE, WATCH
from shared.http.schemas.fields import REQ

THEME = validate.Regexp(THEME_VALUE, error="Not a colour, font list or length.")


class ThemeSchema(Schema):
    """The page's look: each a CSS value for one of its custom properties."""

    bg = fields.String(validate=THEME, metadata={"description": "Background colour."})
    fg = fields.String(validate=THEME, metadata={"description": "Text colour."})
    accent = fields.String(validate=THEME, metadata={"description": "Buttons, your turn."})
    panel = fields.String(validate=THEME, metadata={"description": "Panels' background."})
    font = fields.String(validate=THEME, metadata={"description": "Font family list."})
    radius = fields.String(validate=THEME, metadata={"description": "Corner radius, e.g. 8px."})


class EmbedRequestSchema(Schema):
    game_id = fields.String(**REQ, validate=validate.Length(1, 64))
    external_id = fields.String(
        validate=validate.Length(1, 128),
        metadata={"description": "The player (else `X-Player`): one of the API key's."},
    )
    mode = fields.String(
        load_default=SEAT,
        validate=validate.OneOf([SEAT, WATCH]),
        metadata={"description": "`seat`: the player's own seat; `watch`: a spectator's view."},
    )
    language = fields.String(load_default="en", validate=validate.OneOf(LANGUAGES))
    theme = fields.Nested(ThemeSchema, load_default=dict)
    expires_in = fields.Integer(
        validate=validate.Range(10, 3600),
        metadata={"description": "Seconds the link lasts unopened (at most EMBED_LINK_SECONDS)."},
    )


class EmbedLinkSchema(Schema):
    url = fields.String(**REQ, metadata={"description": "The embed page, for an iframe's src."})
    expires_at = fields.String(**REQ, metadata={"description": "ISO 8601 UTC."})


class EmbedExchangeSchema(Schema):
    token = fields.String(**REQ, validate=validate.Length(1, 4000))


class EmbedSessionSchema(Schema):
    credential = fields.String(
        **REQ, metadata={"description": "Bearer for this game only (`bge_...`)."}
    )
    expires_at = fields.String(**REQ, metadata={"description": "Refresh before it (ISO 8601)."})
    game_id = fields.String(**REQ)
    mode = fields.String(**REQ)
    seat = fields.Integer(**REQ, allow_none=True)
    language = fields.String(**REQ)
    theme = fields.Dict(**REQ, keys=fields.String(), values=fields.String())
    frame_origins = fields.List(
        fields.String(), **REQ, metadata={"description": "The origins the page talks to."}
    )

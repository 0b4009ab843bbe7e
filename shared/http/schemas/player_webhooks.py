"""What ``/players/me/webhook`` accepts and answers: a player's webhook registration
(shared/webhooks/players.py). Documentation and validation only, as for the other
answers (shared/http/schemas/answers.py).

May import marshmallow, the webhooks' field limits and ``shared.games.notify``'s types.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.notify import PLAYER_TYPES
from shared.http.schemas.fields import REQ
from shared.webhooks.schemas import URL_DOC
from shared.webhooks.ssrf import MAX_URL


class PlayerWebhookSetSchema(Schema):
    url = fields.String(
        required=True, validate=validate.Length(1, MAX_URL), metadata={"description": URL_DOC}
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(PLAYER_TYPES)),
        validate=validate.Length(1, len(PLAYER_TYPES)),
        metadata={"description": "The types to send (default: both)."},
    )


class PlayerWebhookSchema(Schema):
    id = fields.String(required=True, metadata={"description": "The registration's id."})
    url = fields.String(**REQ)
    events = fields.List(
        fields.String(validate=validate.OneOf(PLAYER_TYPES)),
        required=True,
        metadata={"description": "The types it hears, in every game the player sits in."},
    )


class PlayerWebhookSetAnswerSchema(PlayerWebhookSchema):
    secret = fields.String(
        required=True,
        metadata={
            "description": "The signing secret (whsec_...), shown once: a new one with "
            "each PUT (a new registration id)."
        },
    )

"""The request and answer schemas of webhooks (documented in the OpenAPI document)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.games.notify import TOURNAMENT_TYPES
from shared.webhooks.registry import TYPES
from shared.webhooks.ssrf import MAX_URL

URL_DOC = (
    "http:// or https:// URL on port 80, 443 or 1024-65535 whose host resolves to public "
    "addresses only (checked now and at every delivery)."
)


class GameWebhookSchema(Schema):
    url = fields.String(
        required=True, validate=validate.Length(1, MAX_URL), metadata={"description": URL_DOC}
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(TYPES)),
        validate=validate.Length(1, len(TYPES)),
        metadata={"description": "The types to send (default: all)."},
    )


class TournamentWebhookSchema(Schema):
    url = fields.String(
        required=True, validate=validate.Length(1, MAX_URL), metadata={"description": URL_DOC}
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(TOURNAMENT_TYPES)),
        validate=validate.Length(1, len(TOURNAMENT_TYPES)),
        metadata={
            "description": "The types to send (default all): `round_started`, `standings`, "
            "`finished`."
        },
    )


class SeatWebhookSchema(Schema):
    url = fields.String(
        required=True, validate=validate.Length(1, MAX_URL), metadata={"description": URL_DOC}
    )


def seat_webhook_field() -> fields.Nested:
    return fields.Nested(
        SeatWebhookSchema,
        metadata={"description": "Call this URL on this seat's turns and the game's end."},
    )


def secret_field() -> fields.String:
    return fields.String(
        metadata={"description": "The webhook's signing secret (whsec_...), shown once."}
    )


class DeliverySchema(Schema):
    id = fields.String(metadata={"description": "The webhook-id header of the delivery."})
    type = fields.String()
    webhook = fields.String(metadata={"description": "The registration's id."})
    seat = fields.Integer(allow_none=True)
    version = fields.Integer()
    status = fields.String(metadata={"enum": ["pending", "delivered", "failed"]})
    attempts = fields.Integer()
    last_error = fields.String(allow_none=True)
    next_attempt_at = fields.String(allow_none=True)
    delivered_at = fields.String(allow_none=True)
    created_at = fields.String()


class DeliveryListSchema(Schema):
    webhooks = fields.List(fields.Dict(), metadata={"description": "Registrations you see."})
    deliveries = fields.List(fields.Nested(DeliverySchema))


class TestSentSchema(Schema):
    ids = fields.List(fields.String(), metadata={"description": "webhook-ids queued."})

"""What the push routes accept and answer (shared/push): the VAPID public key, a push
subscription as ``PushManager.subscribe`` gives it, and a player's push settings.
Documentation and validation only, as for the other answers.

May import marshmallow, the webhooks' URL limit and ``shared.push``'s names.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.http.schemas.fields import REQ, Int
from shared.i18n import LANGUAGES
from shared.push.subscriptions import EVENTS
from shared.webhooks.ssrf import MAX_URL

B64URL = validate.Regexp(r"^[A-Za-z0-9_-]+={0,2}$", error="Not base64url.")
HHMM = validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$", error="Not a time HH:MM.")


class PushKeySchema(Schema):
    public_key = fields.String(
        **REQ,
        metadata={
            "description": "The VAPID public key (an uncompressed P-256 point, base64url): "
            "PushManager.subscribe's applicationServerKey."
        },
    )
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), **REQ)


class SubscriptionKeysSchema(Schema):
    p256dh = fields.String(**REQ, validate=[validate.Length(80, 100), B64URL])
    auth = fields.String(**REQ, validate=[validate.Length(20, 30), B64URL])


class SubscribeSchema(Schema):
    endpoint = fields.String(
        **REQ,
        validate=validate.Length(1, MAX_URL),
        metadata={"description": "The push service's URL for this device (https)."},
    )
    keys = fields.Nested(SubscriptionKeysSchema, **REQ)
    device = fields.String(
        validate=validate.Length(0, 80),
        metadata={"description": "A name for the device, for the player's list."},
    )
    expirationTime = fields.Raw(  # noqa: N815  (PushSubscription.toJSON's own name)
        allow_none=True, metadata={"description": "Ignored (browsers send it)."}
    )


class SubscriptionSchema(Schema):
    id = fields.String(**REQ)
    endpoint = fields.String(**REQ)
    device = fields.String(**REQ)
    since = Int(**REQ, metadata={"description": "When it was first registered (ms)."})
    games = fields.List(
        fields.String(),
        **REQ,
        metadata={
            "description": "The services it was registered with: it hears their games only "
            "(a push opens a page of the service that sent it)."
        },
    )


class QuietHoursSchema(Schema):
    start = fields.String(**REQ, validate=HHMM, metadata={"example": "22:00"})
    end = fields.String(**REQ, validate=HHMM, metadata={"example": "07:00"})


class PushSettingsSetSchema(Schema):
    events = fields.List(
        fields.String(validate=validate.OneOf(EVENTS)), validate=validate.Length(0, len(EVENTS))
    )
    quiet_hours = fields.Nested(
        QuietHoursSchema,
        allow_none=True,
        metadata={"description": "No push in these hours (null: none), in time_zone."},
    )
    time_zone = fields.String(
        validate=validate.Length(1, 64), metadata={"example": "Europe/Berlin"}
    )
    language = fields.String(validate=validate.OneOf(LANGUAGES))


class PushSettingsSchema(PushSettingsSetSchema):
    subscriptions = fields.List(fields.Nested(SubscriptionSchema), **REQ)

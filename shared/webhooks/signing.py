"""Secrets and signatures in the Standard Webhooks form (https://www.standardwebhooks.com).

A registration's secret is never stored: it is ``whsec_`` + base64 of HMAC-SHA256 of the
registration id under the server key ``WEBHOOK_SIGNING_KEY``, so the worker derives it
again at every delivery and a leaked Redis dump leaks no secret. Rotating the server key
changes every secret (re-register after a rotation).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

from shared.games.errors import Invalid


def new_registration_id() -> str:
    return "wh_" + secrets.token_hex(8)


def secret_for(server_key: str, registration_id: str) -> str:
    """The registration's signing secret, ``whsec_<base64 of 32 bytes>``."""
    if not server_key:
        raise Invalid(
            "webhooks-disabled",
            "This service signs no webhooks: its operator has not set WEBHOOK_SIGNING_KEY.",
        )
    raw = hmac.new(server_key.encode(), registration_id.encode(), hashlib.sha256).digest()
    return "whsec_" + base64.b64encode(raw).decode()


def headers(secret: str, message_id: str, body: str, at: datetime | None = None) -> dict[str, str]:
    """The three Standard Webhooks headers of one attempt (signed now, or at ``at``)."""
    at = at or datetime.now(UTC)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, at, body),
    }

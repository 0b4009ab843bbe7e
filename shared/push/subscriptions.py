"""A player's push subscriptions (one per device or browser) and push settings.

A subscription is what a browser's ``PushManager.subscribe`` gives: the push service's
``endpoint`` and the keys ``p256dh`` (the browser's P-256 public key) and ``auth`` (16
random bytes) that the message is encrypted for. Its id is derived from the endpoint,
so subscribing the same endpoint again replaces it. ``since`` (Redis time in ms) is when
it was first registered: notifications written before it are never pushed to it.

The settings are the player's, for all its devices: the ``events`` it wants
(:data:`EVENTS`), ``quiet_hours`` (``{"start": "22:00", "end": "07:00"}`` in its
``time_zone``, an IANA name) and the ``language`` of the texts.

Stored in the player registry (shared/store/push.py). May import ``shared.games``
(errors, notify), ``shared.store``, ``shared.i18n`` and ``shared.webhooks.ssrf``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shared.games.errors import Conflict, Invalid, NotFound
from shared.games.notify import PLAYER_TYPES, REMATCH
from shared.i18n import LANGUAGES
from shared.push import keys
from shared.store import dumps
from shared.store.players import Registry
from shared.store.push import SETTINGS, SUBSCRIPTION, PushRegistry
from shared.webhooks import ssrf

CLOCK_LOW = "clock_low"
DIGEST = "digest"
EVENTS = (*PLAYER_TYPES, CLOCK_LOW, REMATCH, DIGEST)
"""What a push subscription may hear: a player's webhook types, ``clock_low``,
``rematch`` (the ended game's next one is made: its seat is held for the player; the
invitation event: no one else seats a player without its own request) and ``digest``
(the games waiting for the player, once a day; shared/push/digest.py)."""
OPT_IN = (DIGEST,)
"""The events a player hears only once it asks for them."""
DEFAULTS: dict[str, Any] = {
    "events": [e for e in EVENTS if e not in OPT_IN],
    "quiet_hours": None,
    "time_zone": "UTC",
    "language": "en",
}


def _decoded(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return b""


def subscription_id(endpoint: str) -> str:
    return "ps_" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def settings_of(fields: dict[str, str]) -> dict[str, Any]:
    """The player's push settings (the defaults where it set none)."""
    raw = fields.get(SETTINGS)
    return {**DEFAULTS, **(json.loads(raw) if raw else {})}


def subscriptions_of(fields: dict[str, str]) -> list[dict[str, Any]]:
    """The player's subscriptions, oldest first."""
    subs = [json.loads(v) for k, v in fields.items() if k.startswith(SUBSCRIPTION)]
    return sorted(subs, key=lambda sub: (sub["since"], sub["id"]))


def public(sub: dict[str, Any]) -> dict[str, Any]:
    """A subscription as its player sees it (not its keys)."""
    return {k: sub[k] for k in ("id", "endpoint", "device", "since")} | {
        "games": sub.get("games", [])
    }


def subscribe(
    settings: dict[str, Any],
    registry: Registry,
    player_id: str,
    body: dict[str, Any],
    game: str,
) -> tuple[dict[str, Any], bool]:
    """Check and store a subscription (replacing one of the same endpoint): it and
    whether it is new. ``game``: the service it is registered with; it hears that
    service's games (``games``: every service the same endpoint was registered with),
    since a push's ``url`` is a path on the service that sent it. ``push-disabled``
    without a VAPID key, ``push-endpoint-refused`` for an endpoint the SSRF guard
    refuses, ``push-keys-invalid`` for keys that are no P-256 point and 16 bytes,
    ``push-subscriptions-full`` past
    ``PUSH_MAX_SUBSCRIPTIONS``."""
    keys.require(settings)
    endpoint = body["endpoint"]
    try:
        ssrf.check(endpoint, settings.get("WEBHOOK_ALLOW_PRIVATE", False))
    except Invalid as error:
        raise Invalid("push-endpoint-refused", error.template, **error.params) from None
    p256dh, auth = _decoded(body["keys"]["p256dh"]), _decoded(body["keys"]["auth"])
    if len(p256dh) != 65 or p256dh[0] != 4 or len(auth) != 16:
        raise Invalid(
            "push-keys-invalid",
            "A subscription's p256dh must be a P-256 public key (65 bytes) and its auth "
            "16 bytes, in base64url.",
        )
    fields = registry.get(player_id) or {}
    sub_id = subscription_id(endpoint)
    previous = fields.get(SUBSCRIPTION + sub_id)
    limit = int(settings.get("PUSH_MAX_SUBSCRIPTIONS", 10))
    if previous is None and len(subscriptions_of(fields)) >= limit:
        raise Conflict(
            "push-subscriptions-full",
            "This player has {limit} push subscriptions, the most it may have: remove one.",
            limit=limit,
        )
    since = json.loads(previous)["since"] if previous else registry.clock_ms()
    sub = {
        "id": sub_id,
        "endpoint": endpoint,
        "keys": {"p256dh": body["keys"]["p256dh"], "auth": body["keys"]["auth"]},
        "device": body.get("device") or "",
        "since": since,
        "games": sorted({game, *(json.loads(previous).get("games", []) if previous else [])}),
    }
    registry.update(player_id, {SUBSCRIPTION + sub_id: dumps(sub)})
    return sub, previous is None


def unsubscribe(registry: Registry, player_id: str, fields: dict[str, str], sub_id: str) -> None:
    """Remove one of the player's subscriptions (``push-subscription-not-found``)."""
    if SUBSCRIPTION + sub_id not in fields:
        raise NotFound("push-subscription-not-found", "This player has no such subscription.")
    registry.update(player_id, {}, (SUBSCRIPTION + sub_id,))


def configure(
    registry: Registry, player_id: str, fields: dict[str, str], body: dict[str, Any]
) -> dict[str, Any]:
    """Change the player's push settings (the fields given); the settings now. A
    player asking for the ``digest`` gets its first one at the worker's next chance (if
    games wait for it), then at most one a day.
    ``push-time-zone-unknown`` for a time zone that is no IANA name, ``push-quiet-hours-
    invalid`` for hours that are not ``HH:MM`` or start where they end."""
    current = {**settings_of(fields), **body}
    try:
        ZoneInfo(current["time_zone"])
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid(
            "push-time-zone-unknown",
            "Unknown time zone {zone}: give an IANA name such as Europe/Berlin.",
            zone=current["time_zone"],
        ) from None
    quiet = current["quiet_hours"]
    if quiet is not None and (
        minutes(quiet["start"]) is None
        or minutes(quiet["end"]) is None
        or quiet["start"] == quiet["end"]
    ):
        raise Invalid(
            "push-quiet-hours-invalid",
            "Quiet hours run from start to end, each HH:MM (00:00 to 23:59), and differ.",
        )
    current["events"] = [e for e in EVENTS if e in current["events"]]
    if current["language"] not in LANGUAGES:
        current["language"] = DEFAULTS["language"]
    registry.update(player_id, {SETTINGS: dumps(current)})
    due = int(time.time() * 1000) if DIGEST in current["events"] else None
    PushRegistry(registry.client).digest_plan(player_id, due)
    return current


def minutes(hhmm: str) -> int | None:
    """Minutes after midnight of ``HH:MM`` (``None``: not such a time)."""
    hours, sep, mins = hhmm.partition(":")
    if not sep or not (hours.isdigit() and mins.isdigit()) or len(mins) != 2:
        return None
    h, m = int(hours), int(mins)
    return h * 60 + m if h < 24 and m < 60 else None


def export(fields: dict[str, str]) -> dict[str, Any]:
    """The player's push settings and subscriptions as stored (its data export)."""
    return {**settings_of(fields), "subscriptions": subscriptions_of(fields)}

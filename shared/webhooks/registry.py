"""Registering webhooks: for the whole game at creation, for one seat at joining, for a
tournament at its creation.

A registration ``{"id", "url", "events", "seat"}`` is kept in the game document (never
in a view); its secret is derived from the id (see :mod:`.signing`) and shown once.
"""

from __future__ import annotations

from typing import Any

from shared.games.document import WebhookEntry
from shared.games.notify import TOURNAMENT_TYPES
from shared.webhooks import signing, ssrf

TYPES = (
    "game.started",
    "game.turn",
    "game.over",
    "game.cancelled",
    "seat.timed_out",
    "seat.abandoned",
    "analysis.ready",
)
DEFAULT_TYPES = tuple(t for t in TYPES if t != "analysis.ready")
"""What a game's registration hears when it names no ``events``: ``analysis.ready`` (a
finished game's analysis, shared/usecases/analysis.py) is asked for by name."""
SEAT_TYPES = ("game.turn", "game.over", "game.cancelled")
"""What a seat's registration hears: its own turns and the end of the game."""


def register(
    settings: dict[str, Any], body: dict[str, Any], seat: int | None
) -> tuple[WebhookEntry, str]:
    """A checked registration and its secret (:class:`~shared.games.errors.Invalid` for a
    refused URL, ``webhook-url-refused``, or no server key, ``webhooks-disabled``)."""
    ssrf.check(body["url"], settings.get("WEBHOOK_ALLOW_PRIVATE", False))
    reg_id = signing.new_registration_id()
    secret = signing.secret_for(settings.get("WEBHOOK_SIGNING_KEY", ""), reg_id)
    events = list(SEAT_TYPES) if seat is not None else list(body.get("events") or DEFAULT_TYPES)
    return {"id": reg_id, "url": body["url"], "events": events, "seat": seat}, secret


def register_tournament(
    settings: dict[str, Any], body: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """A tournament's checked registration ``{"id", "url", "events"}`` (default: every
    one of ``TOURNAMENT_TYPES``) and its secret; refused as a game's."""
    ssrf.check(body["url"], settings.get("WEBHOOK_ALLOW_PRIVATE", False))
    reg_id = signing.new_registration_id()
    secret = signing.secret_for(settings.get("WEBHOOK_SIGNING_KEY", ""), reg_id)
    wanted = body.get("events") or TOURNAMENT_TYPES
    events = [kind for kind in TOURNAMENT_TYPES if kind in wanted]
    return {"id": reg_id, "url": body["url"], "events": events}, secret

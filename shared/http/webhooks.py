"""The webhook endpoints and the registration helpers the create/join routes call."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from shared.games import Games, notify
from shared.games.access import require_host, seat_of
from shared.games.base import GAME_ID
from shared.games.document import GameDoc, WebhookEntry
from shared.games.errors import Conflict
from shared.games.notify import message_id
from shared.http.middleware.ratelimit import AddressLimits
from shared.store.layout import tournament_address
from shared.webhooks import registry
from shared.webhooks import schemas as ws

RECENT = 50


def for_game(kit: Games, body: dict[str, Any]) -> tuple[WebhookEntry | None, str | None]:
    """Pop ``webhook`` from create options: the checked registration and its secret."""
    spec = body.pop("webhook", None)
    if spec is None:
        return None, None
    return registry.register(kit.settings, spec, None)


def for_tournament(kit: Games, spec: dict[str, Any]) -> str | None:
    """Replace a new tournament's ``webhook`` with its checked registration; the secret."""
    body = spec.get("webhook")
    if body is None:
        return None
    spec["webhook"], secret = registry.register_tournament(kit.settings, body)
    return secret


def for_seat(
    kit: Games, body: dict[str, Any]
) -> tuple[Callable[[int], WebhookEntry] | None, str | None]:
    """A join's ``webhook``: a maker of the seat's registration (given the seat), and
    the secret. The URL is checked now, before the join's write."""
    spec = body.get("webhook")
    if spec is None:
        return None, None
    reg, secret = registry.register(kit.settings, spec, -1)
    return (lambda seat: {**reg, "seat": seat}), secret


def _visible(kit: Games, game_id: str, digest: str | None) -> tuple[GameDoc, set[str]]:
    """The game and the registrations the bearer may see: all for the host token, a
    seat's own for a seat token (401 without a token, 403 for another)."""
    doc = kit.writes.load(game_id)
    regs = doc.get("webhooks") or []
    seat = seat_of(doc, digest)  # (no spectator reads them: no ``watch`` code here)
    if seat is None:
        require_host(doc, digest)
        return doc, {r["id"] for r in regs}
    return doc, {r["id"] for r in regs if r["seat"] == seat}


def _recent(kit: Games, address: str, visible: set[str]) -> list[dict[str, Any]]:
    """The last :data:`RECENT` deliveries of the outbox at ``address`` (a game's id or a
    tournament's address) to the registrations ``visible``, newest first."""
    state = kit.store.webhook_state(address)
    out = []
    for entry_id, note in kit.store.outbox_recent(address, RECENT * 4):
        if note["reg"] not in visible:
            continue
        seen = json.loads(state.get(f"d:{entry_id}", "{}"))
        out.append(
            {
                "id": message_id(address, entry_id),
                "type": note["type"],
                "webhook": note["reg"],
                "seat": note["data"].get("seat"),
                "version": note["data"]["version"],
                "status": seen.get("status", "pending"),
                "attempts": seen.get("attempts", 0),
                "last_error": seen.get("last_error"),
                "next_attempt_at": seen.get("next_attempt_at"),
                "delivered_at": seen.get("delivered_at"),
                "created_at": note["timestamp"],
            }
        )
        if len(out) == RECENT:
            break
    return out


def deliveries(kit: Games, game_id: str, digest: str | None) -> dict[str, Any]:
    doc, visible = _visible(kit, game_id, digest)
    regs = [
        {"id": r["id"], "url": r["url"], "events": r["events"], "seat": r["seat"]}
        for r in doc.get("webhooks") or []
        if r["id"] in visible
    ]
    return {"webhooks": regs, "deliveries": _recent(kit, game_id, visible)}


def tournament_deliveries(kit: Games, tid: str, doc: dict[str, Any]) -> dict[str, Any]:
    """A tournament's webhook registration and its recent deliveries (for its host)."""
    reg = doc.get("webhook")
    regs = [{"id": reg["id"], "url": reg["url"], "events": reg["events"]}] if reg else []
    visible = {r["id"] for r in regs}
    return {"webhooks": regs, "deliveries": _recent(kit, tournament_address(tid), visible)}


def send_test(kit: Games, game_id: str, digest: str | None) -> dict[str, Any]:
    """Queue a ``webhook.test`` per registration the bearer sees: ``no-webhook`` without
    one, ``webhook-outbox-full`` when the game's outbox would then hold more than
    ``WEBHOOK_OUTBOX_MAX`` notifications (nothing is queued)."""
    doc, visible = _visible(kit, game_id, digest)
    regs = [r for r in doc.get("webhooks") or [] if r["id"] in visible]
    if not regs:
        raise Conflict("no-webhook", "No webhook you can see is registered for this game.")
    notes = [notify.test_notification(doc, reg) for reg in regs]
    cap = int(kit.settings["WEBHOOK_OUTBOX_MAX"])
    ids = kit.store.outbox_append(game_id, notes, kit.writes.ttl(doc), cap)
    if ids is None:
        raise Conflict(
            "webhook-outbox-full",
            "This game's webhook outbox holds {cap} notifications at most, and too many "
            "wait for their receivers; try again once they are delivered.",
            cap=cap,
        )
    return {"ids": [message_id(game_id, i) for i in ids]}


def add_routes(blp: Any, bearer: Callable[[], str | None], problems: Callable[..., Any]) -> None:
    """``GET /games/{id}/webhooks`` and ``POST /games/{id}/webhooks/test``."""
    from flask import current_app

    def kit() -> Games:
        games: Games = current_app.extensions["game_kit"].games
        return games

    @blp.route("/games/<game_id>/webhooks", methods=["GET"])
    @blp.response(200, ws.DeliveryListSchema)
    @blp.doc(operationId="listWebhookDeliveries")
    @blp.doc(security=[{"bearerAuth": []}])
    @blp.doc(responses=problems(401, 403, 404, 503))
    def list_webhook_deliveries(game_id: str) -> dict[str, Any]:
        """Recent webhook deliveries with status and attempts (host token: all; a seat
        token: its own registration's).

        For debugging a receiver: each delivery's status, attempts and last error.
        """
        return deliveries(kit(), game_id, bearer())

    @blp.route("/games/<game_id>/webhooks/test", methods=["POST"])
    @blp.response(202, ws.TestSentSchema)
    @blp.doc(operationId="testWebhooks")
    @blp.doc(security=[{"bearerAuth": []}])
    @blp.doc(responses=problems(401, 403, 404, 409, 429, 503))
    def test_webhooks(game_id: str) -> dict[str, Any]:
        """Queue a ``webhook.test`` for each registration the bearer can see.

        Check a receiver end to end (signature, reachability) without playing a move.
        """
        # 429: RATE_LIMIT_WEBHOOK_TESTS, per game and client address (on by default)
        limits: AddressLimits | None = current_app.extensions.get("address_limits")
        if limits is not None and GAME_ID.match(game_id):
            limits.count_webhook_test(game_id)
        return send_test(kit(), game_id, bearer())

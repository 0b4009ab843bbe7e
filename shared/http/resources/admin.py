"""The operators' routes (``/admin/...``), each needing an API key with the ``admin`` role
(shared/http/middleware/apikeys.py ``admin_key``): the report queue, a chat message's
deletion, suspensions and the audit log. Their data is the registry's, common to every
service, so either service answers them (a message: its game's service); every action is
written to the audit log (shared/usecases/moderation.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared.games import seats
from shared.games.errors import Invalid, NotFound
from shared.games.players import path_id
from shared.http.errors import invalid
from shared.http.middleware.apikeys import admin_key
from shared.http.resources.blueprint import (
    BEARER,
    Answer,
    KitBlueprint,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import moderation as m
from shared.usecases import chat_moderation, moderation


def _until(body: dict[str, Any]) -> int:
    """The end of a suspension from ``seconds`` or ``until`` (exactly one, in the future)."""
    if ("seconds" in body) == ("until" in body):
        raise invalid("json", "seconds", "Give seconds or until.", "Give seconds or until.")
    now = seats.now_ms()
    if "seconds" in body:
        return now + int(body["seconds"]) * 1000
    when: datetime = body["until"]
    until = int(when.astimezone(UTC).timestamp() * 1000)
    if not now < until <= now + moderation.MAX_SUSPENSION_SECONDS * 1000:
        raise Invalid.field(
            "json", "until", "until must be in the future (10 years at most).", "Out of range."
        )
    return until


def add_routes(blp: KitBlueprint) -> None:
    """``/admin/reports``, ``/admin/players/{id}/suspension`` and ``/admin/audit``."""

    @blp.route("/admin/reports", methods=["GET"])
    @blp.arguments(m.ReportsQuerySchema(), location="query")
    @blp.response(200, m.ReportsPageSchema)
    @blp.doc(security=BEARER, operationId="adminListReports")
    @blp.doc(responses=problems(401, 403, 422, 503))
    def admin_list_reports(query: dict[str, Any]) -> Any:
        """Operators: the reports of one status (`open` by default), oldest first.

        Each report with its reporter, its subject and the context captured when it
        was filed. Follow `next_cursor`.
        """
        admin_key()
        store = games().store.moderation
        found, more = store.page(query["status"], query.get("cursor"), query["limit"])
        cursor = found[-1]["id"] if more and found else None
        return send(json_answer({"reports": found, "next_cursor": cursor}))

    @blp.route("/admin/reports/<report_id>/resolve", methods=["POST"])
    @blp.arguments(m.ResolveBodySchema())
    @blp.response(200, m.ReportSchema)
    @blp.doc(security=BEARER, operationId="adminResolveReport")
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 413, 422, 503))
    def admin_resolve_report(body: dict[str, Any], report_id: str) -> Any:
        """Operators: resolve an open report.

        `dismissed` (nothing wrong) or `actioned` (acted on), with a note; audited.
        409 `report-resolved` once resolved.
        """
        key = admin_key()
        store = games().store.moderation
        if len(report_id) > 64:
            raise NotFound("report-not-found", "No report has this id.")
        found = moderation.resolve(store, report_id, body["action"], body.get("note"), key.id)
        return send(json_answer(found))

    @blp.route("/admin/players/<player_id>/suspension", methods=["PUT"])
    @blp.arguments(m.SuspendBodySchema())
    @blp.response(200, m.SuspensionSchema)
    @blp.doc(security=BEARER, operationId="adminSuspendPlayer")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def admin_suspend_player(body: dict[str, Any], player_id: str) -> Any:
        """Operators: suspend a player for a time (`seconds`, or `until`), with a reason.

        Its key, and an API key acting for it, get `403 player-suspended` on every
        route until then; the worker hands its seats in running games to the takeover
        bot at its next tick (open games: the seat is freed). Suspending again sets a
        new end. Audited.
        """
        key = admin_key()
        kit = games()
        until = _until(body)
        moderation.suspend(
            kit.store.moderation,
            kit.store.registry,
            path_id(player_id),
            until,
            body["reason"],
            key.id,
        )
        return send(json_answer({"player": player_id, "until": seats.rfc3339(until)}))

    @blp.route("/admin/players/<player_id>/suspension", methods=["DELETE"])
    @blp.arguments(m.ReasonBodySchema(), required=False)
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="adminLiftSuspension")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def admin_lift_suspension(body: dict[str, Any], player_id: str) -> Any:
        """Operators: lift a suspension now.

        The player's key works again; its seats taken over stay the bot's. Audited.
        404 `not-suspended`.
        """
        key = admin_key()
        kit = games()
        moderation.lift(
            kit.store.moderation, kit.store.registry, path_id(player_id), body.get("reason"), key.id
        )
        return send(Answer(204, [], b""))

    @blp.route("/admin/games/<game_id>/chat/<message_id>", methods=["DELETE"])
    @blp.arguments(m.DeleteMessageBodySchema())
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="adminDeleteChatMessage")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def admin_delete_message(body: dict[str, Any], game_id: str, message_id: str) -> Any:
        """Operators: delete a chat message of a game of this service (audited).

        Its text or phrase is gone from the store: every read (the chat, the events,
        SSE, from any cursor) shows it with `deleted: true` and `text`/`phrase` null,
        which the clients show as a placeholder. Deleting it again changes nothing.
        """
        key = admin_key()
        chat_moderation.delete_message(games(), game_id, message_id, body["reason"], key.id)
        return send(Answer(204, [], b""))

    @blp.route("/admin/audit", methods=["GET"])
    @blp.arguments(m.PageQuerySchema(), location="query")
    @blp.response(200, m.AuditSchema)
    @blp.doc(security=BEARER, operationId="adminAudit")
    @blp.doc(responses=problems(401, 403, 422, 503))
    def admin_audit(query: dict[str, Any]) -> Any:
        """Operators: the audit log, newest first.

        Who (the API key's id), when, the action, its target and reason of every
        operator action. Follow `next_cursor`.
        """
        admin_key()
        store = games().store.moderation
        cursor = query.get("cursor")
        if cursor is not None and not _stream_id(cursor):
            raise invalid(
                "query", "cursor", "The cursor is not one this service issued.", "Invalid cursor."
            )
        found, more = store.audit_page(cursor, query["limit"])
        following = found[-1]["id"] if more and found else None
        return send(json_answer({"entries": found, "next_cursor": following}))


def _stream_id(text: str) -> bool:
    head, _, tail = text.partition("-")
    return head.isdigit() and tail.isdigit() and len(text) <= 41

"""A player's moderation: its blocks (``/players/me/blocks``) and its reports of a player
(``POST /players/{id}/report``) or of a chat message (``POST
/games/{id}/chat/{message_id}/report``); the data is the registry's, common to every
service (shared/usecases/moderation.py, chat_moderation.py)."""

from __future__ import annotations

from typing import Any

from flask import current_app

from shared.games.chat import player_of
from shared.games.errors import NotFound
from shared.games.players import path_id
from shared.http.identity import current_player
from shared.http.resources.blueprint import (
    BEARER,
    Answer,
    KitBlueprint,
    games,
    json_answer,
    problems,
    reader,
    send,
)
from shared.http.resources.chat import chat_reader
from shared.http.schemas import moderation as m
from shared.usecases import chat_moderation, moderation


def add_routes(blp: KitBlueprint) -> None:
    """The blocks and a player's report."""

    @blp.route("/players/me/blocks", methods=["GET"])
    @blp.arguments(m.PageQuerySchema(), location="query")
    @blp.response(200, m.BlocksPageSchema)
    @blp.doc(security=BEARER, operationId="listBlocks")
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    def list_blocks(query: dict[str, Any]) -> Any:
        """The players the player blocked.

        By id, each with its name now (a deleted player's: the placeholder). Follow
        `next_cursor`. Blocks are common to both services.
        """
        kit = games()
        player, _ = current_player()
        found, cursor = moderation.blocks_page(
            kit.store.moderation, kit.store.registry, player, query.get("cursor"), query["limit"]
        )
        return send(json_answer({"blocks": found, "next_cursor": cursor}))

    @blp.route("/players/me/blocks/<player_id>", methods=["PUT"])
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="blockPlayer")
    @blp.doc(responses=problems(401, 403, 404, 409, 422, 503))
    def block_player(player_id: str) -> Any:
        """Block a player (both services).

        Quick match never seats the two of you at one table, it cannot join your
        unlisted tables (nor you its), and its chat messages never reach you. Blocking
        again changes nothing; at most 1000 blocks (409 `too-many-blocks`).
        """
        kit = games()
        player, _ = current_player()
        moderation.block(kit.store.moderation, kit.store.registry, player, path_id(player_id))
        return send(Answer(204, [], b""))

    @blp.route("/players/me/blocks/<player_id>", methods=["DELETE"])
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="unblockPlayer")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def unblock_player(player_id: str) -> Any:
        """Lift a block.

        404 `not-blocked` when there was none.
        """
        kit = games()
        player, _ = current_player()
        if not kit.store.moderation.unblock(player, path_id(player_id)):
            raise NotFound("not-blocked", "This player is not blocked.")
        return send(Answer(204, [], b""))

    @blp.route("/players/<player_id>/report", methods=["POST"])
    @blp.arguments(m.PlayerReportBodySchema())
    @blp.response(201, m.ReportReceiptSchema)
    @blp.doc(security=BEARER, operationId="reportPlayer")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 429, 503))
    def report_player(body: dict[str, Any], player_id: str) -> Any:
        """Report a player to the operators, with a reason (and a note).

        `game`: a game of this service where it happened; its players, version and
        latest messages go with the report. The answer is the report as filed; the
        operators see its context. At most 20 an hour per player, and
        `RATE_LIMIT_REPORTS_ADDRESS` per client address: 429 `rate-limited` with
        `Retry-After`, nothing filed.
        """
        kit = games()
        player, fields = current_player()
        subject = kit.store.registry.get(path_id(player_id))
        if subject is None or "key" not in subject:
            raise NotFound("player-not-found", "No player has this id.")
        current_app.extensions["address_limits"].count_report()
        context: dict[str, Any] = {"service": kit.engine.NAME, "game": None}
        if body.get("game"):
            context = moderation.game_context(kit, body["game"])
        report = moderation.file_report(
            kit.store.moderation,
            (player, fields["name"]),
            (player_id, subject["name"]),
            body["reason"],
            body.get("note"),
            context,
        )
        return send(json_answer(moderation.filed_receipt(report), 201))

    @blp.route("/games/<game_id>/chat/<message_id>/report", methods=["POST"])
    @blp.arguments(m.ReportBodySchema())
    @blp.response(201, m.ReportReceiptSchema)
    @blp.doc(security=BEARER, operationId="reportChatMessage")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 429, 503))
    def report_message(body: dict[str, Any], game_id: str, message_id: str) -> Any:
        """Report a chat message you read to the operators, with a reason (and a note).

        With a seat token or a player key (a seat token of a player's seat files it
        as that player). The messages around it (about ten that you read), the game,
        its version and players go with the report. 404 `message-not-found` for a
        message you do not read. At most 20 an hour per player, or per seat of no
        player, and `RATE_LIMIT_REPORTS_ADDRESS` per client address whatever token
        files them: 429 `rate-limited` with `Retry-After`, nothing filed.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        who = reader(doc)
        if who.player is None and who.seat is None:
            raise NotFound("message-not-found", "No chat message has this id in this game.")
        current_app.extensions["address_limits"].count_report()
        reporter = player_of(doc, who)  # a seat token of a player's seat: that player
        name = doc["players"][who.seat]["name"] if who.seat is not None else ""
        if reporter is not None:
            name = (kit.store.registry.get(reporter) or {}).get("name", name)
        seat = None if reporter else f"seat:{kit.engine.NAME}:{doc['id']}:{who.seat}"
        report = chat_moderation.report_message(
            kit,
            doc,
            chat_reader(doc, who),
            message_id,
            (reporter, name),
            body["reason"],
            body.get("note"),
            seat,
        )
        return send(json_answer(moderation.filed_receipt(report), 201))

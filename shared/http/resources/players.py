"""The player resource: ``POST /players`` (a player and its key), ``GET /players/me``
and ``GET /players/me/games`` (the games the player sits in, in this service)."""

from __future__ import annotations

from typing import Any

from flask import g

from shared.games import audience, players
from shared.http.errors import invalid
from shared.http.identity import current_player
from shared.http.resources.blueprint import (
    BEARER,
    Answer,
    KitBlueprint,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import players as p
from shared.push.subscriptions import export as push_export
from shared.usecases import moderation, privacy
from shared.webhooks import players as player_webhooks


def add_routes(blp: KitBlueprint) -> None:
    """``POST /players``, ``GET /players/me`` and ``GET /players/me/games``."""

    @blp.route("/players", methods=["POST"])
    @blp.arguments(p.PlayerCreateSchema())
    @blp.response(201, p.PlayerCreatedSchema)
    @blp.alt_response(200, schema=p.PlayerCreatedSchema, description="The player existed.")
    @blp.doc(security=[{}, *BEARER])  # an API key, when the operator turned keys on
    @blp.doc(responses=problems(400, 401, 403, 409, 413, 422, 429, 503))
    @blp.doc(operationId="createPlayer")
    def create_player(body: dict[str, Any]) -> Any:
        """Create a player: one identity for every game of this service's Redis.

        The answer carries the player key (`bgp_...`), shown once and stored hashed:
        send it as bearer token to join games (the seat becomes the player's), to play
        them, and for `/players/me`. With API keys on, the API key is the bearer, and
        `external_id` names the player in the platform's own terms.
        """
        kit = games()
        key = g.get("api_key")
        external = body.get("external_id")
        if external is not None and key is None:
            detail = "external_id needs API keys, which this service does not use."
            raise invalid("json", "external_id", detail, "Needs an API key.")
        tenant = key.id if key is not None else ""
        player_id, secret, new = players.create(kit.store.registry, body["name"], tenant, external)
        fields = kit.store.registry.get(player_id) or {}
        answer = {**players.profile(player_id, fields), "key": secret}
        return send(json_answer(answer, 201 if new else 200))

    @blp.route("/players/me", methods=["GET"])
    @blp.response(200, p.PlayerProfileSchema)
    @blp.doc(security=BEARER, operationId="getMe")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def get_me() -> Any:
        """The player the request acts for.

        The player of the bearer's player key, or with API keys on, of the API key's
        player named by `X-Player`.
        """
        player, fields = current_player()
        return send(json_answer(players.profile(player, fields)))

    @blp.route("/players/me/export", methods=["GET"])
    @blp.response(200, p.PlayerExportSchema)
    @blp.doc(security=BEARER, operationId="exportMe")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def export_me() -> Any:
        """Everything this service stores about the player.

        Its profile, its rating in this service's game as stored (`null`: never
        rated), its webhook registration (`null`: none), its push settings and
        subscriptions, each game it sits in with its seat, its name there, its moves
        and the seat's webhook registrations, the table chat messages it sent (seated
        or not), and its moderation data (the players it blocked, the reports it
        filed). Ask both services for both games.
        """
        kit = games()
        player, fields = current_player()
        reg = player_webhooks.registration(fields)
        body = {
            "player": players.profile(player, fields),
            "rating": privacy.stored_rating(fields, kit.engine.NAME),
            "webhook": None
            if reg is None
            else {**player_webhooks.public(reg), "since": reg["since"]},
            "push": push_export(fields),
            "games": privacy.export(kit, audience.as_player(player)),
            "chat": privacy.export_chat(kit, player),
            "moderation": moderation.export(kit.store.moderation, kit.store.registry, player),
        }
        return send(json_answer(body))

    @blp.route("/players/me", methods=["DELETE"])
    @blp.response(204)
    @blp.doc(security=BEARER, operationId="deleteMe")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def delete_me() -> Any:
        """Delete the player and erase its name.

        Its key stops working at once, and its name becomes `Deleted player` in every
        game it sat in, finished ones included (this service's now, the other's by the
        worker), without breaking their logs or replays. Its blocks go (both ways) and
        the reports it filed are deleted; in reports naming it, its id and name are
        erased.
        """
        kit = games()
        player, fields = current_player()
        kit.store.registry.forget(player, fields)
        moderation.erase(kit.store.moderation, player)
        privacy.erase(kit, player)
        return send(Answer(204, [], b""))

    @blp.route("/players/me/games", methods=["GET"])
    @blp.arguments(p.MyGamesQuerySchema(), location="query")
    @blp.response(200, p.MyGamesSchema)
    @blp.doc(security=BEARER, operationId="listMyGames")
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    def list_my_games(query: dict[str, Any]) -> Any:
        """The games the player sits in here, newest activity first.

        Each entry has the player's seat, `my_turn`, the deadline when the game has a
        clock, the other players and the result once over. `turn=mine`: only those
        where the player is to act. Follow `next_cursor`. Each service lists its own
        games: ask both for both games.
        """
        kit = games()
        player, _ = current_player()
        mine = query.get("turn") == "mine"
        try:
            entries, cursor = kit.player_games(
                player, query.get("status"), mine, query["limit"], query.get("cursor")
            )
        except ValueError as error:
            detail = "The cursor is not one this service issued."
            raise invalid("query", "cursor", detail, "Invalid cursor.") from error
        return send(json_answer({"games": entries, "next_cursor": cursor}))

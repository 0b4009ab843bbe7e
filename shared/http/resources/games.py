"""The game resource: create, list, read, start and cancel a game."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import request
from marshmallow import Schema

from shared.games import Games, audience
from shared.games.access import audience_of
from shared.games.players import is_player_key
from shared.games.tokens import PlayerRef
from shared.http import webhooks
from shared.http.errors import invalid
from shared.http.middleware.apikeys import listing_reader, owner
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    IF_MATCH_DOC,
    IF_NONE_MATCH_DOC,
    Answer,
    KitBlueprint,
    bearer,
    bearer_of,
    etag_headers,
    games,
    if_match,
    json_answer,
    not_modified,
    problems,
    reader,
    send,
)
from shared.http.schemas import answers as a
from shared.http.schemas import requests as q


def game_answer(
    kit: Games,
    game_id: str,
    authorization: str | None,
    include: str | None,
    if_none_match: str | None = None,
    watch: str | None = None,
) -> Answer:
    """The whole answer of ``GET /games/{id}`` from the request's raw headers and its
    ``include``: the view of the reader (:func:`shared.games.access.audience_of`), with its
    legal moves when ``include`` asks, or a bodiless 304 while ``If-None-Match`` holds
    the current version (the version the reader reads: a delayed spectator's is behind);
    ``watch``: the spectator's watch code. The view sends it,
    and shared/http/fastpath.py sends the same for the requests it answers."""
    doc = kit.writes.load(game_id)
    who = audience_of(doc, bearer_of(authorization), watch)
    answers = kit.answers(who)
    version = answers.version(doc)  # a delayed spectator's is behind
    unchanged = not_modified(if_none_match, version)
    if unchanged is not None:
        return unchanged
    body = answers.view(doc)
    if include == "legal_moves":
        body["legal_moves"] = answers.legal_moves(doc)
    return json_answer(body, 200, etag_headers(version))


def _player_key() -> bool:
    """Whether the request's bearer is a player key (with API keys on, the bearer of a
    create is the API key, and the player comes from ``X-Player``)."""
    header = request.headers.get("Authorization", "")
    return is_player_key(header.strip().partition(" ")[2].strip())


def add_create_and_list(blp: KitBlueprint, options_schema: type[Schema]) -> None:
    """``POST /games`` (validated by the game's options schema) and ``GET /games``."""

    @blp.route("/games", methods=["POST"])
    @blp.arguments(options_schema(), required=False, description="The game's options.")
    @blp.response(
        201, a.CreatedSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG}
    )
    @blp.doc(security=[{}, *BEARER])  # an API key, when the operator turned keys on
    @blp.doc(responses=problems(400, 401, 403, 409, 413, 422, 429, 503))
    @blp.doc(operationId="createGame")
    def create_game(options: dict[str, Any]) -> Any:
        """Create a game; the answer carries the host token, shown once.

        Options are the game's own plus `players` (seats) and `seed` (random when omitted, and
        then committed to by `seed_commitment`). Keep `host_token`: it starts and cancels
        the game and is never shown again. With API keys on, send a key as bearer token.
        """
        kit = games()
        webhook, secret = webhooks.for_game(kit, options)
        who = bearer() if "X-Player" in request.headers or _player_key() else None
        host_player = who if isinstance(who, PlayerRef) else None
        doc, host_token, invite = kit.lifecycle.create(options, owner(), webhook, host_player)
        body: dict[str, Any] = {
            "id": doc["id"],
            "host_token": host_token,
            "game": kit.answers(audience.host(host_player)).view(doc),
        }
        if invite is not None:
            link = "/play?" + urlencode({"game": doc["id"], "invite": invite})
            body |= {"invite_code": invite, "join_link": link}
        watch = doc.get("watch_code")
        if watch is not None:
            body |= {"watch_code": watch, "watch_link": audience.watch_link(doc["id"], watch)}
        if webhook is not None:
            body |= {"webhook_id": webhook["id"], "webhook_secret": secret}
        headers = {"Location": f"/games/{doc['id']}", **etag_headers(doc["version"])}
        return send(json_answer(body, 201, headers))

    @blp.route("/games", methods=["GET"])
    @blp.arguments(q.ListQuerySchema(), location="query")
    @blp.response(200, a.GameListSchema)
    @blp.doc(security=[{}, *BEARER])  # an API key, when the operator turned keys on
    @blp.doc(responses=problems(401, 403, 422, 503))
    @blp.doc(operationId="listGames")
    def list_games(query: dict[str, Any]) -> Any:
        """List games, newest first; filter by ``status``; follow ``next_cursor``.

        Public facts only (never tokens or hidden state). Pass `next_cursor` back as
        `cursor` for the next page; it is `null` on the last one.
        """
        kit = games()
        who = listing_reader()
        try:
            docs, cursor = kit.list_games(
                query.get("status"), query["limit"], query.get("cursor"), who
            )
        except ValueError as error:
            detail = "The cursor is not one this service issued."
            raise invalid("query", "cursor", detail, "Invalid cursor.") from error
        entries = kit.answers(who).summaries(docs)
        return send(json_answer({"games": entries, "next_cursor": cursor}))


def add_start_cancel_and_read(blp: KitBlueprint) -> None:
    """``POST /games/{id}/start``, ``DELETE /games/{id}`` and ``GET /games/{id}``."""

    @blp.route("/games/<game_id>/start", methods=["POST"])
    @blp.arguments(q.EmptySchema(), required=False)
    @blp.response(200, a.ViewSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 503))
    @blp.doc(operationId="startGame", parameters=[IF_MATCH_DOC])
    def start_game(_body: dict[str, Any], game_id: str) -> Any:
        """The host starts the game with the players who joined.

        Needs the host token and at least the game's minimum of players; the seats left
        empty are dropped. The answer is the spectator's view of the started game.
        """
        kit = games()
        doc = kit.lifecycle.start(game_id, bearer(), if_match())
        view = kit.answers(reader(doc)).view(doc)
        return send(json_answer(view, 200, etag_headers(doc["version"])))

    @blp.route("/games/<game_id>", methods=["DELETE"])
    @blp.response(200, a.ViewSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 409, 412, 503))
    @blp.doc(operationId="cancelGame", parameters=[IF_MATCH_DOC])
    def cancel_game(game_id: str) -> Any:
        """The host cancels the game.

        Needs the host token; an open or running game becomes `cancelled` (409 once over).
        """
        kit = games()
        doc = kit.lifecycle.cancel(game_id, bearer(), if_match())
        view = kit.answers(reader(doc)).view(doc)
        return send(json_answer(view, 200, etag_headers(doc["version"])))

    @blp.route("/games/<game_id>", methods=["GET"])
    @blp.arguments(q.ViewQuerySchema(), location="query")
    @blp.response(200, a.ViewSchema, headers=ETAG)
    @blp.alt_response(304, description="Not modified (If-None-Match).", headers=ETAG)
    @blp.doc(security=[{}, *BEARER])
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    @blp.doc(operationId="getGame", parameters=[IF_NONE_MATCH_DOC])
    def get_game(query: dict[str, Any], game_id: str) -> Any:
        """The game as the bearer's seat may see it (a spectator's view without a token).

        A seat's token shows that seat's private information (its hand, its plan) too;
        without a token, or with the host token, it is the spectator's view. Send the
        last `ETag` in `If-None-Match` to get a bodiless 304 while nothing changed. With
        `include=legal_moves` the view also lists the seat's legal moves (none for a spectator).
        """
        headers = request.headers
        answer = game_answer(
            games(),
            game_id,
            headers.get("Authorization"),
            query.get("include"),
            headers.get("If-None-Match"),
            query.get("watch") or query.get("invite"),
        )
        return send(answer)

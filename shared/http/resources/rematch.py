"""Rematch: ``POST /games/{id}/rematch``, the next game after an ended one
(shared/usecases/rematch.py)."""

from __future__ import annotations

from typing import Any

from shared.games import audience
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    KitBlueprint,
    bearer,
    etag_headers,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import answers as a
from shared.usecases import rematch


def add_routes(blp: KitBlueprint) -> None:
    """``POST /games/{id}/rematch``."""

    @blp.route("/games/<game_id>/rematch", methods=["POST"])
    @blp.response(201, a.RematchSchema, headers=ETAG)
    @blp.alt_response(200, schema=a.RematchSchema, description="The rematch existed.")
    @blp.doc(security=BEARER, operationId="rematchGame")
    @blp.doc(responses=problems(401, 403, 404, 409, 503))
    def rematch_game(game_id: str) -> Any:
        """Play again: the next game with the same options, a fresh seed and the same bots.

        For a player of the ended game (its seat token or player key). The first request
        creates it (`201`, with its `host_token`), later ones get the same game (`200`,
        `host_token: null`). The ended game's `next_game` names it. Each former player's
        seat is held for `REMATCH_HOLD_SECONDS`: join it with the old seat token or the
        player key as bearer (no name needed: the seat takes its held name, whatever
        `name` says). It starts when its last seat is taken.
        """
        kit = games()
        doc, host_token = rematch.rematch(kit, game_id, bearer())
        # the first asker holds the new game's host token; the others have no seat in it yet
        who = audience.ANYONE if host_token is None else audience.host()
        body = {"game_id": doc["id"], "host_token": host_token, "game": kit.answers(who).view(doc)}
        status = 201 if host_token is not None else 200
        return send(json_answer(body, status, etag_headers(doc["version"])))

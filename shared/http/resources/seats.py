"""The seats of a game: join (or seat a bot), leave an open game, resign a running one."""

from __future__ import annotations

from typing import Any

from shared.games import Games, audience
from shared.games.access import seated_audience
from shared.games.tokens import PlayerRef
from shared.http import webhooks
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    IF_MATCH_DOC,
    KitBlueprint,
    bearer,
    etag_headers,
    games,
    if_match,
    json_answer,
    problems,
    reader,
    send,
)
from shared.http.schemas import answers as a
from shared.http.schemas import requests as q
from shared.usecases import moderation, seat_ops


def player_name(kit: Games, player: PlayerRef) -> str:
    """The display name of a player whose key was checked in this request."""
    fields = kit.store.registry.get(player)
    return fields["name"] if fields else "Player"


def add_routes(blp: KitBlueprint) -> None:
    """``POST /games/{id}/players``, ``DELETE /games/{id}/players/me`` and
    ``POST /games/{id}/resign``."""

    @blp.route("/games/<game_id>/players", methods=["POST"])
    @blp.arguments(q.JoinSchema())
    @blp.response(201, a.JoinedSchema, headers=ETAG)
    @blp.doc(security=[{}, *BEARER])
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 429, 503))
    @blp.doc(operationId="joinGame", parameters=[IF_MATCH_DOC])
    def join_game(body: dict[str, Any], game_id: str) -> Any:
        """Take the next seat; the answer carries the seat's token, shown once. With
        ``bot`` and the host token, seat a bot instead (its token is ``null``).

        Seats are given in join order while the game is open. Keep `token`: it acts for
        this seat alone and is never shown again. With a player key as bearer, the seat
        is the player's: the key acts for it too, and `name` defaults to the player's.
        An unlisted game needs its `invite` code, and refuses a player blocked by
        (or blocking) its host player or a seated player (403 `blocked`).
        """
        kit = games()
        if "bot" in body:
            doc, seat = seat_ops.add_bot(
                kit, game_id, bearer(), body["bot"], body.get("name"), if_match()
            )
            view = kit.answers(reader(doc)).view(doc)  # the host's
            payload: dict[str, Any] = {"seat": seat, "token": None, "game": view}
            return send(json_answer(payload, 201, etag_headers(doc["version"])))
        webhook, secret = webhooks.for_seat(kit, body)
        who = bearer()
        player = who if isinstance(who, PlayerRef) else None
        name = body.get("name") or (player_name(kit, player) if player else None)
        invite = body.get("invite")
        avoid = moderation.avoided(kit.store.moderation, None if player is None else str(player))
        doc, seat, token = kit.lifecycle.join(
            game_id,
            name,
            if_match(),
            webhook,
            player,
            invite,
            who,
            (lambda d: moderation.check_blocks(d, avoid)) if avoid else None,
        )
        view = kit.answers(seated_audience(seat, who)).view(doc)
        payload = {"seat": seat, "token": token, "game": view}
        if webhook is not None:
            reg = next(r for r in doc["webhooks"] if r["seat"] == seat)
            payload |= {"webhook_id": reg["id"], "webhook_secret": secret}
        return send(json_answer(payload, 201, etag_headers(doc["version"])))

    @blp.route("/games/<game_id>/players/me", methods=["DELETE"])
    @blp.response(200, a.ViewSchema, headers=ETAG)
    @blp.doc(operationId="leaveGame", parameters=[IF_MATCH_DOC])
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 409, 412, 503))
    def leave_game(game_id: str) -> Any:
        """Leave an open game (seat token): later joiners move down one seat.

        Only while the game is open; once it runs, resign instead. The token stops working.
        """
        kit = games()
        doc = seat_ops.leave(kit, game_id, bearer(), if_match())
        view = kit.answers(audience.ANYONE).view(doc)  # the seat is gone
        return send(json_answer(view, 200, etag_headers(doc["version"])))

    @blp.route("/games/<game_id>/resign", methods=["POST"])
    @blp.arguments(q.EmptySchema(), required=False)
    @blp.response(200, a.ViewSchema, headers=ETAG)
    @blp.doc(operationId="resignGame", parameters=[IF_MATCH_DOC])
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 503))
    def resign_game(_body: dict[str, Any], game_id: str) -> Any:
        """Resign (seat token): a bot plays the seat to the end; it ranks last.

        The answer is the resigning seat's view; the seat's status becomes `resigned`.
        """
        kit = games()
        doc, seat = seat_ops.resign(kit, game_id, bearer(), if_match())
        view = kit.answers(seated_audience(seat, bearer())).view(doc)
        return send(json_answer(view, 200, etag_headers(doc["version"])))

"""The quick match resource: ``POST /matches`` seats the player at the oldest open
public table with the options it asks for, or opens one (shared/usecases/matches.py).

May import the games layer and the HTTP layer's own modules.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from shared.games.access import seated_audience
from shared.http.identity import current_player
from shared.http.middleware.apikeys import owner
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    KitBlueprint,
    etag_headers,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import matches as m
from shared.usecases import matches, moderation


def add_routes(blp: KitBlueprint, options_schema: type[Schema]) -> None:
    """``POST /matches`` (the game's options, validated by its options schema)."""

    @blp.route("/matches", methods=["POST"])
    @blp.arguments(m.match_schema(options_schema)(), required=False, description="The table.")
    @blp.response(
        201, m.MatchedSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG}
    )
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 413, 422, 429, 503))
    @blp.doc(operationId="quickMatch")
    def quick_match(options: dict[str, Any]) -> Any:
        """Quick match: a seat at the oldest open public table with these options.

        Needs a player (a player key, or an API key with `X-Player`). Options are the
        game's own plus `players` and `clock`; the table is public, gets a random seed
        and starts when its last seat is taken. With no such table with a free seat, a
        new one is opened. `bots_after`: server bots take the empty seats that many
        seconds after the table was opened. Asking again while the table waits answers
        the same seat (`token` is then `null`: the player key acts for the seat). With
        API keys on, players meet only players of their own key. Nobody hosts the
        table: a seat left while it waits goes back to the next players asking. Two
        players one of whom blocked the other never get the same table.
        """
        kit = games()
        player, fields = current_player()
        bots_after = options.pop("bots_after", None)
        avoid = moderation.avoided(kit.store.moderation, player)
        doc, seat, token = matches.quick_match(
            kit,
            options,
            player,
            fields["name"],
            owner(),
            bots_after,
            fields.get("tenant", ""),
            avoid,
        )
        view = kit.answers(seated_audience(seat, player)).view(doc)
        body = {"game_id": doc["id"], "seat": seat, "token": token, "game": view}
        headers = {"Location": f"/games/{doc['id']}", **etag_headers(doc["version"])}
        return send(json_answer(body, 201, headers))

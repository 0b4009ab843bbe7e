"""A game's public records: the score so far and the log (replayable once over)."""

from __future__ import annotations

from typing import Any

from shared.http.resources.blueprint import (
    KitBlueprint,
    games,
    json_answer,
    problems,
    public_reader,
    send,
)
from shared.http.schemas import answers as a
from shared.http.schemas import requests as q


def add_score(blp: KitBlueprint) -> None:
    """``GET /games/{id}/score``."""

    @blp.route("/games/<game_id>/score", methods=["GET"])
    @blp.arguments(q.WatchQuerySchema(), location="query")
    @blp.response(200, a.ScoreboardSchema)
    @blp.doc(responses=problems(403, 404, 422, 503))
    @blp.doc(operationId="getScore")
    def get_score(_query: dict[str, Any], game_id: str) -> Any:
        """Scores so far (public) and the result once over.

        No token needed: the score breakdown is public (to the spectators the game
        admits: its `spectators` option; a delayed spectator's as it was).
        """
        kit = games()
        doc = kit.writes.load(game_id)
        return send(json_answer(kit.answers(public_reader(doc)).score(doc)))


def add_log(blp: KitBlueprint) -> None:
    """``GET /games/{id}/log``."""

    @blp.route("/games/<game_id>/log", methods=["GET"])
    @blp.arguments(q.WatchQuerySchema(), location="query")
    @blp.response(200, a.LogSchema)
    @blp.doc(responses=problems(403, 404, 422, 503))
    @blp.doc(operationId="getLog")
    def get_log(_query: dict[str, Any], game_id: str) -> Any:
        """Every event; once the game is over also the seed and all moves, to replay it.

        Once over, `seed`, `salt` and `moves` let anyone replay the game and check
        `seed_commitment`.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        return send(json_answer(kit.answers(public_reader(doc)).log(doc)))

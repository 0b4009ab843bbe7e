"""Analysis after the game: ``GET /games/{id}/analysis`` (shared/usecases/analysis.py)."""

from __future__ import annotations

from typing import Any

from shared.http.errors import ApiError
from shared.http.resources.blueprint import (
    KitBlueprint,
    games,
    json_answer,
    problems,
    public_reader,
    send,
)
from shared.http.schemas import coach
from shared.http.schemas import requests as q
from shared.usecases import analysis

RETRY_SECONDS = 5


def add_routes(blp: KitBlueprint) -> None:
    """``GET /games/{id}/analysis``."""

    @blp.route("/games/<game_id>/analysis", methods=["GET"])
    @blp.arguments(q.WatchQuerySchema(), location="query")
    @blp.response(200, coach.AnalysisSchema)
    @blp.doc(responses=problems(202, 403, 404, 409, 422, 503))
    @blp.doc(operationId="getAnalysis")
    def get_analysis(_query: dict[str, Any], game_id: str) -> Any:
        """A finished game's analysis: every seat's chance to win after each move, and
        each seat's three biggest drops with the move the bot would have preferred.

        Public like the log (to the spectators the game admits). The worker makes it in
        the background once the game is over (docs/bots.md); until then `202`
        `analysis-pending` (problem+json, `Retry-After`), `409 game-not-finished` before
        the end. When it is ready the game gets an `analysis_ready` event and its
        webhooks (`analysis.ready`) are called.
        """
        kit = games()
        public_reader(kit.writes.load(game_id))
        body = analysis.read(kit, game_id)
        if body is None:
            raise ApiError(
                202,
                "analysis-pending",
                "The analysis of this game is being made; ask again shortly.",
                headers={"Retry-After": str(RETRY_SECONDS)},
            )
        return send(json_answer(body, 200))

"""Hints: ``POST /games/{id}/hint``, the move a bot would play for the bearer's seat
(shared/games/hints.py)."""

from __future__ import annotations

from typing import Any

from shared.games import hints
from shared.http.offload import cpu_bound
from shared.http.resources.blueprint import (
    BEARER,
    KitBlueprint,
    bearer,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import coach


def add_routes(blp: KitBlueprint) -> None:
    """``POST /games/{id}/hint``."""

    @blp.route("/games/<game_id>/hint", methods=["POST"])
    @blp.response(200, coach.HintSchema)
    @blp.doc(security=BEARER, operationId="askHint")
    @blp.doc(responses=problems(401, 403, 404, 409, 503))
    def ask_hint(game_id: str) -> Any:
        """What would the bot play? The `medium` bot's move for the bearer's seat, from
        that seat's view only.

        For a seat to act (its seat token or player key). Each answer counts one of the
        seat's hints (the `hints` option; `hints.used` in every view is public): 409
        `hints-used-up` beyond the allowance, 403 `hints-rated-game` in a rated game,
        409 `not-your-turn` when the seat is not to act. The move is postable to
        `/moves` unchanged.
        """
        body = hints.hint(games(), game_id, bearer(), run=cpu_bound)
        return send(json_answer(body, 200))

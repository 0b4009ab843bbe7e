"""A seat's moves: what it may play now, and playing one."""

from __future__ import annotations

import re
from typing import Any

from flask import request

from shared.games import Games
from shared.games.access import require_seated
from shared.http.errors import invalid
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    Answer,
    KitBlueprint,
    bearer,
    bearer_of,
    etag_headers,
    games,
    if_match_of,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import answers as a

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


def move_answer(
    kit: Games,
    game_id: str,
    authorization: str | None,
    move: dict[str, Any],
    if_match_header: str | None,
    key: str | None,
) -> Answer:
    """The work and the whole answer of ``POST /games/{id}/moves``, from the request's
    parsed move and raw headers. The view sends it, and shared/http/fastpath.py sends the
    same for the requests it answers."""
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        detail = "Idempotency-Key must be 1-200 visible ASCII characters."
        raise invalid("headers", "Idempotency-Key", detail, "Invalid.")
    who = bearer_of(authorization, with_the_game=True)  # (a player key: read with the game)
    body = kit.moves.move(game_id, who, move, if_match_of(if_match_header), key)
    return json_answer(body, 200, etag_headers(body["game"]["version"]))


def add_routes(blp: KitBlueprint) -> None:
    """``GET /games/{id}/legal-moves`` and ``POST /games/{id}/moves`` (validated by the
    game's move schema, ``blp.move_args``)."""

    @blp.route("/games/<game_id>/legal-moves", methods=["GET"])
    @blp.response(200, a.LegalMovesSchema, headers=ETAG)
    @blp.doc(security=BEARER)
    @blp.doc(responses=problems(401, 403, 404, 503))
    @blp.doc(operationId="listLegalMoves")
    def legal_moves(game_id: str) -> Any:
        """The bearer's legal moves now, each postable unchanged, and their subset choices.

        `moves`: every legal move, each postable to `/moves` unchanged. `choices`: the
        subset fields (e.g. Wind City's renewals and insurance) a listed move may fill
        instead, with each option's price and the budget; see docs/api.md. Both are empty
        unless the game runs and the bearer's seat is expected to act.
        """
        kit = games()
        doc = kit.writes.load(game_id)
        answers = kit.answers(require_seated(doc, bearer()))
        body = {"moves": answers.legal_moves(doc), "choices": answers.choices(doc)}
        return send(json_answer(body, 200, etag_headers(doc["version"])))

    @blp.route("/games/<game_id>/moves", methods=["POST"])
    @blp.arguments(blp.move_args)
    @blp.response(200, a.MoveResultSchema, headers=ETAG)
    @blp.doc(
        security=BEARER,
        parameters=[
            {
                "in": "header",
                "name": "If-Match",
                "schema": {"type": "string"},
                "description": 'Apply only at this version, e.g. `"7"` (else 412).',
            },
            {
                "in": "header",
                "name": "Idempotency-Key",
                "schema": {"type": "string", "pattern": IDEMPOTENCY_KEY.pattern},
                "description": "A retry with the same key gets the first answer.",
            },
        ],
    )
    @blp.doc(responses=problems(400, 401, 403, 404, 409, 412, 413, 422, 429, 503))
    @blp.doc(operationId="makeMove")
    def make_move(move: dict[str, Any], game_id: str) -> Any:
        """Make a move for the bearer's seat: the new view and the events it caused.

        The move is checked against the game's rules (409 with the rule's `code` when
        illegal, and nothing changes). Retry safely with the same `Idempotency-Key`.
        """
        headers = request.headers
        answer = move_answer(
            games(),
            game_id,
            headers.get("Authorization"),
            move,
            headers.get("If-Match"),
            headers.get("Idempotency-Key"),
        )
        return send(answer)

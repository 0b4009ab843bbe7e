"""Public standings: ``GET /players/{id}`` (a player's profile and ratings) and
``GET /leaderboards/{game}`` (this service's game, best first; shared/games/ratings.py,
shared/store/ratings.py)."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from flask import g

from shared.games import players, ratings
from shared.games.errors import NotFound
from shared.http.errors import invalid
from shared.http.resources.blueprint import (
    BEARER,
    KitBlueprint,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import ratings as r


def _cursor(stamp: str, offset: int) -> str:
    return base64.urlsafe_b64encode(f"{stamp}:{offset}".encode()).decode().rstrip("=")


CURSOR = re.compile(r"([0-9]{1,20}(?:\.[0-9]{1,6})?):([0-9]{1,9})", re.ASCII)
"""A cursor's text: the snapshot's stamp and the offset (below 10**9: Redis takes it)."""


def _position(cursor: str) -> tuple[str, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        found = CURSOR.fullmatch(raw)
        if found is None:
            raise ValueError(cursor)
        return found[1], int(found[2])
    except (ValueError, binascii.Error, UnicodeDecodeError) as error:
        detail = "The cursor is not one this service issued."
        raise invalid("query", "cursor", detail, "Invalid cursor.") from error


def add_routes(blp: KitBlueprint) -> None:
    """``GET /players/{id}`` and ``GET /leaderboards/{game}``."""

    @blp.route("/players/<player_id>", methods=["GET"])
    @blp.response(200, r.ProfileSchema)
    @blp.doc(security=[], operationId="getPlayer")
    @blp.doc(responses=problems(404, 503))
    def get_player(player_id: str) -> Any:
        """A player's public profile.

        Its name and, per game it played rated games of, its rating (`rating`, from
        `ordinal` = mu - 3 sigma), rated games, games still needed to be ranked, and win
        share.
        """
        kit = games()
        fields = kit.store.registry.get(player_id) if players.PLAYER_ID.match(player_id) else None
        if fields is None or "key" not in fields:
            raise NotFound("player-not-found", "No such player.")
        least = int(kit.settings["LEADERBOARD_MIN_GAMES"])
        return send(json_answer(ratings.profile(player_id, fields, least)))

    @blp.route("/leaderboards/<game>", methods=["GET"])
    @blp.arguments(r.LeaderboardQuerySchema(), location="query")
    @blp.response(200, r.LeaderboardSchema)
    @blp.doc(security=[{}, *BEARER], operationId="getLeaderboard")
    @blp.doc(responses=problems(401, 403, 404, 422, 503))
    def get_leaderboard(query: dict[str, Any], game: str) -> Any:
        """Players by rating, best first: this service's game only.

        Only players with at least `min_games` rated games. Pages come from
        a snapshot the worker takes every `LEADERBOARD_SNAPSHOT_SECONDS`: follow
        `next_cursor` and no player is repeated or skipped while ratings change. With API
        keys on, each key (its bearer) has its own players and leaderboard.
        """
        kit = games()
        if game != kit.engine.NAME:
            raise NotFound("game-not-found", "This service serves {game}.", game=kit.engine.NAME)
        key = g.get("api_key")
        tenant = key.id if key is not None else ""
        board = kit.ctx.ratings
        if "cursor" in query:
            stamp, offset = _position(query["cursor"])
        else:
            every = kit.settings["LEADERBOARD_SNAPSHOT_SECONDS"]
            stamp, offset = board.snapshot(tenant, every), 0
        found = board.page(tenant, stamp, offset, query["limit"])
        if found is None and "cursor" not in query:  # an empty board has no snapshot
            found = [], 0
        if found is None:
            detail = "This page's snapshot has expired: start again without a cursor."
            raise invalid("query", "cursor", detail, "Expired cursor.")
        rows, size = found
        entries = ratings.leaderboard_entries(board, rows, offset)
        after = offset + len(rows)
        body = {
            "game": game,
            "min_games": int(kit.settings["LEADERBOARD_MIN_GAMES"]),
            "entries": entries,
            "next_cursor": _cursor(stamp, after) if after < size else None,
        }
        return send(json_answer(body))

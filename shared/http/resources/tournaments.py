"""The tournaments resource (shared/usecases/tournaments.py; the worker runs the rounds,
shared/usecases/tournament_rounds.py): create, list, read, register, withdraw or
remove, check in, start, end, standings.

May import the games layer, the use cases and the HTTP layer's own modules.
"""

from __future__ import annotations

import re
from typing import Any

from flask import request
from marshmallow import Schema

from shared.games import ratings
from shared.games.errors import NotFound
from shared.http import webhooks
from shared.http.errors import invalid
from shared.http.identity import current_actor, current_player
from shared.http.resources.blueprint import (
    BEARER,
    ETAG,
    IF_NONE_MATCH_DOC,
    KitBlueprint,
    etag_headers,
    games,
    json_answer,
    not_modified,
    problems,
    send,
)
from shared.http.schemas import tournaments as t
from shared.usecases import tournaments
from shared.webhooks import schemas as ws

TID = re.compile(r"[0-9a-f]{16}", re.ASCII)


def _offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit() or len(cursor) > 15:
        raise invalid(
            "query", "cursor", "The cursor is not one this service issued.", "Invalid cursor."
        )
    return int(cursor)


def _read(tid: str) -> dict[str, Any]:
    return _read_versioned(tid)[0]


def _read_versioned(tid: str) -> tuple[dict[str, Any], int]:
    doc, version = games().store.tournaments.read(tid) if TID.fullmatch(tid) else (None, 0)
    if doc is None:
        raise NotFound("tournament-not-found", "No tournament {id}.", id=tid)
    return doc, version


def add_routes(blp: KitBlueprint, options_schema: type[Schema]) -> None:
    """The ``/tournaments`` routes."""

    @blp.route("/tournaments", methods=["POST"])
    @blp.arguments(t.create_schema(options_schema)(), description="The tournament.")
    @blp.response(201, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="createTournament")
    @blp.doc(responses=problems(400, 401, 403, 413, 422, 503))
    def create_tournament(spec: dict[str, Any]) -> Any:
        """Create a tournament (Swiss or arena) of this game; the caller hosts it.

        The host: a player (player key, or API key + `X-Player`), or with API keys on a
        platform's API key alone (its tenant hosts). The games' `options` need a `clock`.
        Players of the host's API key only may register.
        It starts at `starts_at`, or when the host starts it; the worker pairs,
        seats and closes each round."""
        host, tenant = current_actor()
        secret = webhooks.for_tournament(games(), spec)
        doc = tournaments.create(games(), spec, host, tenant)
        body = tournaments.public(doc)
        if secret is not None:
            body |= {"webhook_id": doc["webhook"]["id"], "webhook_secret": secret}
        return send(json_answer(body, 201, {"Location": f"/tournaments/{doc['id']}"}))

    @blp.route("/tournaments", methods=["GET"])
    @blp.arguments(t.TournamentListQuerySchema(), location="query")
    @blp.response(200, t.TournamentListSchema)
    @blp.doc(security=[], operationId="listTournaments")
    @blp.doc(responses=problems(422, 503))
    def list_tournaments(query: dict[str, Any]) -> Any:
        """List this game's tournaments.

        Newest first, without their entries and rounds (`players`: how many entries);
        `next_cursor` to the next page.
        """
        store = games().store.tournaments
        before = query.get("cursor")
        if before is not None and not before.isdigit():
            raise invalid(
                "query", "cursor", "The cursor is not one this service issued.", "Invalid cursor."
            )
        found = store.page(query["limit"], int(before) if before else None)
        items = [d for d in (store.read(tid)[0] for tid, _ in found) if d is not None]
        nxt = str(found[-1][1]) if len(found) == query["limit"] else None
        hidden = ("entries", "history", "webhook")
        summary = [
            {**{k: v for k, v in d.items() if k not in hidden}, "players": len(d["entries"])}
            for d in items
        ]
        return send(json_answer({"items": summary, "next_cursor": nxt}))

    @blp.route("/tournaments/<tid>", methods=["GET"])
    @blp.response(200, t.TournamentSchema, headers=ETAG)
    @blp.alt_response(304, description="Not modified (If-None-Match).", headers=ETAG)
    @blp.doc(security=[], operationId="getTournament", parameters=[IF_NONE_MATCH_DOC])
    @blp.doc(responses=problems(404, 503))
    def get_tournament(tid: str) -> Any:
        """Read a tournament.

        Its settings, status, every round's tables with their games and byes, and its
        entries (points, opponents, games, missed games); `place_points`, the points per
        place of every table size its rounds may seat; `version`, also its ETag. Public.
        With `If-None-Match` holding the current version: a bodiless 304, the document
        not even read (a page polling a tournament of thousands pays nothing while
        nothing changed).
        """
        tag = request.headers.get("If-None-Match")
        if tag is not None and TID.fullmatch(tid):
            unchanged = not_modified(tag, games().store.tournaments.version(tid))
            if unchanged is not None:
                return send(unchanged)
        doc, version = _read_versioned(tid)
        body = {
            **tournaments.public(doc),
            "place_points": tournaments.place_points(doc),
            "version": version,
        }
        return send(json_answer(body, 200, etag_headers(version)))

    @blp.route("/tournaments/<tid>/players", methods=["POST"])
    @blp.response(200, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="registerTournament")
    @blp.doc(responses=problems(401, 403, 404, 409, 503))
    def register(tid: str) -> Any:
        """Register the player.

        Before the start, up to `max_players`; a player of the host's API key only.
        The player's rating in this game now is kept (a tie-break, and round 1's
        order). Registering again changes nothing.
        """
        player, fields = current_player()
        _read(tid)
        kit = games()
        rating = float(ratings.rating_of(fields, kit.engine.NAME, 0)["rating"])
        tenant = fields.get("tenant", "")
        doc = tournaments.register(kit, tid, str(player), fields["name"], tenant, rating)
        return send(json_answer(tournaments.public(doc)))

    @blp.route("/tournaments/<tid>/players/<player_id>", methods=["DELETE"])
    @blp.response(200, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="withdrawTournament")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def withdraw(tid: str, player_id: str) -> Any:
        """Withdraw, or remove a player.

        `me` (or the player's own id) withdraws; the host (a player, or the API key
        alone that created it) may remove anyone. Before the start the entry goes; later
        the player is seated no more (points are kept).
        """
        actor, _ = current_actor()
        _read(tid)
        who = actor if player_id == "me" else player_id
        return send(json_answer(tournaments.public(tournaments.withdraw(games(), tid, who, actor))))

    @blp.route("/tournaments/<tid>/checkin", methods=["POST"])
    @blp.response(200, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="checkInTournament")
    @blp.doc(responses=problems(401, 404, 409, 503))
    def check_in(tid: str) -> Any:
        """Check in.

        Within `checkin_seconds` before `starts_at`, when the tournament has a check-in
        window: at the start, players who did not check in are dropped.
        """
        player, _ = current_player()
        _read(tid)
        doc = tournaments.check_in(games(), tid, str(player))
        return send(json_answer(tournaments.public(doc)))

    @blp.route("/tournaments/<tid>/webhook", methods=["GET"])
    @blp.response(200, ws.DeliveryListSchema)
    @blp.doc(security=BEARER, operationId="getTournamentWebhook")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def get_tournament_webhook(tid: str) -> Any:
        """The tournament's webhook and its recent deliveries (the host only).

        `webhooks`: its registration (`id`, `url`, `events`; none without one), and
        `deliveries`: the last 50 notifications, newest first, each with its status,
        attempts and last error, for debugging a receiver. 403 `not-host` for anyone
        but the host (its player, or its API key alone).
        """
        actor, _ = current_actor()
        doc = _read(tid)
        tournaments.require_host(doc, actor)
        return send(json_answer(webhooks.tournament_deliveries(games(), tid, doc)))

    def _host(tid: str, action: str) -> Any:
        actor, _ = current_actor()
        _read(tid)
        doc = tournaments.host_action(games(), tid, actor, action)
        return send(json_answer(tournaments.public(doc)))

    @blp.route("/tournaments/<tid>/start", methods=["POST"])
    @blp.response(200, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="startTournament")
    @blp.doc(responses=problems(401, 403, 404, 409, 503))
    def start_tournament(tid: str) -> Any:
        """Start a tournament now (the host: its player, or its API key alone).

        The worker pairs and seats the first round at its next tick.
        """
        return _host(tid, "start")

    @blp.route("/tournaments/<tid>/end", methods=["POST"])
    @blp.response(200, t.TournamentSchema)
    @blp.doc(security=BEARER, operationId="endTournament")
    @blp.doc(responses=problems(401, 403, 404, 503))
    def end_tournament(tid: str) -> Any:
        """End a tournament early (the host).

        Before the start it is cancelled at once; later it finishes when the round being
        played closes, and its standings are final.
        """
        return _host(tid, "end")

    @blp.route("/tournaments/<tid>/standings", methods=["GET"])
    @blp.arguments(t.StandingsQuerySchema(), location="query")
    @blp.response(200, t.TournamentStandingsSchema)
    @blp.doc(security=[], operationId="getTournamentStandings")
    @blp.doc(responses=problems(404, 422, 503))
    def standings(query: dict[str, Any], tid: str) -> Any:
        """A tournament's standings.

        Best first: points, then Buchholz (the sum of the opponents' points), then
        rating, then registration order. They change only when a round closes, so pages
        read while a round runs agree; `next_cursor` to the next page.
        """
        doc = _read(tid)
        page, nxt = tournaments.standings_page(doc, query["limit"], _offset(query.get("cursor")))
        body = {"round": doc["round"], "status": doc["status"], "items": page}
        body["next_cursor"] = None if nxt is None else str(nxt)
        return send(json_answer(body))

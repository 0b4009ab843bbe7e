"""Embeds (issue 44): a platform's signed seat links and the sessions they open.

- ``POST /embeds`` (API key, and ``X-Player`` or ``external_id``): a one-use link to
  the embed page for the player's seat in a game, or a spectator's view of it;
- ``POST /embed/session``: the page exchanges the link's token (once) for a session
  credential scoped to that player in that game (shared/http/embedding.py);
- ``POST /embed/session/refresh`` (the session as bearer): a fresh one, while the game
  is open or running.

Tokens are signed here and never stored (shared/games/embeds.py); the store keeps the
links' one-use claims. Registered with ``embeds.add_routes(blp)`` in
shared/http/resources/__init__.py.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from flask import current_app, g, request

from shared.games import access, audience, players
from shared.games import embeds as tokens
from shared.games.document import GameDoc
from shared.games.embeds import Claims
from shared.games.errors import Conflict, Forbidden
from shared.games.tokens import EmbedRef
from shared.http import embedding
from shared.http.errors import ApiError
from shared.http.identity import PLAYER_HEADER
from shared.http.resources.blueprint import (
    BEARER,
    KitBlueprint,
    bearer,
    games,
    json_answer,
    problems,
    send,
)
from shared.http.schemas import embeds as s

OVER = ("finished", "cancelled")


def _iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _platform_player(body: dict[str, Any]) -> str:
    """The player the request names, of the request's API key (401/403 as a create)."""
    key = g.get("api_key")
    if key is None:  # keys are off: no platform to act for
        raise ApiError(
            401, "api-key-required", "Embeds need API keys, which this service does not use."
        )
    external = request.headers.get(PLAYER_HEADER) or body.get("external_id")
    if not external:
        raise ApiError(400, "invalid-header", "X-Player must be 1-{max} characters.", max=128)
    player, _ = players.by_external(games().store.registry, key.id, external)
    return str(player)


def _session(claims: Claims, doc: GameDoc) -> dict[str, Any]:
    """A fresh session of ``claims``' player in ``doc``, and what the page needs."""
    now = int(time.time())
    expires = now + int(current_app.config["EMBED_SESSION_SECONDS"])
    made = Claims(
        tokens.SESSION,
        claims.service,
        claims.game,
        claims.player,
        claims.mode,
        claims.tenant,
        expires,
    )
    seat = access.seat_of(doc, made.ref())
    return {
        "credential": tokens.sign(embedding.secret(), made),
        "expires_at": _iso(expires),
        "game_id": claims.game,
        "mode": claims.mode,
        "seat": seat,
        "language": claims.language,
        "theme": claims.theme or {},
        "frame_origins": list(embedding.frame_origins(claims.tenant)),
    }


def add_routes(blp: KitBlueprint) -> None:
    """The embed routes (see the module's docstring)."""

    @blp.route("/embeds", methods=["POST"])
    @blp.arguments(s.EmbedRequestSchema())
    @blp.response(201, s.EmbedLinkSchema)
    @blp.doc(security=BEARER, operationId="createEmbedLink")
    @blp.doc(responses=problems(400, 401, 403, 404, 413, 422, 503))
    def create_embed(body: dict[str, Any]) -> Any:
        """A signed, one-use link to the embed page for one of the key's players.

        `mode` `seat` (the player must hold a seat in the game: 403 `player-not-seated`)
        or `watch` (a spectator's view, never a hand; 403 `spectators-not-allowed` for a
        game whose `spectators` is `players`, while a `link` game admits it). The link
        expires unopened after `expires_in` seconds (at most `EMBED_LINK_SECONDS`),
        opens once, and carries the page's `language` and `theme`; it holds no key. Put
        `url` in an iframe on an origin the key's `frame_origins` list, or use
        `/embed.js`.
        """
        player = _platform_player(body)
        kit = games()
        doc = kit.writes.load(body["game_id"])
        if body["mode"] == tokens.SEAT and access.seat_of_player(doc, player) is None:
            raise Forbidden("player-not-seated", "This player has no seat in this game.")
        if body["mode"] == tokens.WATCH:  # a game only its players read: 403 now, not a
            audience.admit(doc, audience.ANYONE, None, linked=True)  # page that fails
        longest = int(current_app.config["EMBED_LINK_SECONDS"])
        expires = int(time.time()) + min(body.get("expires_in", longest), longest)
        claims = Claims(
            tokens.LINK,
            embedding.service(),
            doc["id"],
            player,
            body["mode"],
            g.api_key.id,
            expires,
            secrets.token_hex(12),
            body["language"],
            body["theme"],
        )
        link = tokens.sign(embedding.secret(), claims)
        url = f"{request.url_root}embed?{urlencode({'t': link})}"
        return send(json_answer({"url": url, "expires_at": _iso(expires)}, 201))

    @blp.route("/embed/session", methods=["POST"])
    @blp.arguments(s.EmbedExchangeSchema())
    @blp.response(200, s.EmbedSessionSchema)
    @blp.doc(operationId="openEmbedSession", responses=problems(400, 403, 404, 413, 422, 503))
    def open_embed_session(body: dict[str, Any]) -> Any:
        """Exchange an embed link's token for a session (once: 403 `embed-link-used`).

        The embed page does this itself. The session's `credential` acts for the link's
        player in its game only (its seat, or as a spectator), until `expires_at`.
        """
        claims = embedding.read(body["token"], tokens.LINK)
        kit = games()
        if not kit.store.embeds.claim(claims.id, claims.expires - int(time.time()) + 1):
            raise tokens.link_used()
        doc = kit.writes.load(claims.game)
        return send(json_answer(_session(claims, doc)))

    @blp.route("/embed/session/refresh", methods=["POST"])
    @blp.response(200, s.EmbedSessionSchema)
    @blp.doc(security=BEARER, operationId="refreshEmbedSession")
    @blp.doc(responses=problems(401, 403, 404, 409, 503))
    def refresh_embed_session() -> Any:
        """A fresh embed session for the bearer's (an embed session).

        While the game is open or running; 409 `embed-game-over` once it ended (the
        session ends with its game). The embed page refreshes before `expires_at`.
        """
        ref = bearer()
        if ref is None:
            raise access.missing_token()
        if not isinstance(ref, EmbedRef):
            raise tokens.scope_refused()
        doc = games().writes.load(ref.game)
        if doc["status"] in OVER:
            raise Conflict("embed-game-over", "This game is over: its embed session ends with it.")
        mode = tokens.SEAT if ref.seated else tokens.WATCH
        claims = Claims(tokens.LINK, embedding.service(), ref.game, ref.player, mode, ref.tenant, 0)
        return send(json_answer(_session(claims, doc)))

"""Who a request acts for, from its ``Authorization`` header (and ``X-Player``):

- a seat or host token: its SHA-256, compared with the game's (shared/games/access.py);
- a player key (``bgp_...``): the player, its key checked against the registry (one
  read; a move's is read with the game, in the same round trip), as a
  :class:`~shared.games.tokens.PlayerRef`;
- with API keys on, an API key and ``X-Player: <external_id>``: the key's player with
  that reference (the platform acts for its users without holding their keys);
- an embed session (``bge_...``): its player in its one game only, as an
  :class:`~shared.games.tokens.EmbedRef` (shared/http/embedding.py).

The fast path (shared/http/fastpath.py) leaves requests with a player key or
``X-Player`` to Flask, so only a token's hash is ever computed without a request context.
"""

from __future__ import annotations

from flask import current_app, has_request_context, request

from shared.games import Games, embeds, players
from shared.games.access import invalid_token, missing_token
from shared.games.tokens import PlayerRef, hash_token
from shared.http import embedding
from shared.http.errors import ApiError

PLAYER_HEADER = "X-Player"
MAX_EXTERNAL_ID = 128


def credential_of(header: str | None, with_the_game: bool = False) -> str | None:
    """The hash of a token, or the player (:class:`PlayerRef`) the request acts for;
    ``None`` without an Authorization header. Any other scheme or an empty token is a
    401, like a missing token. ``with_the_game``: a player key is checked by the game's
    own read (an :class:`~shared.games.tokens.UncheckedPlayer`; a move's, which saves
    it a round trip)."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise missing_token()
    if embeds.is_embed_token(token):  # (longer than any other token: checked first)
        return embedding.session_credential(token)
    if len(token) > 256:
        raise invalid_token()
    if players.is_player_key(token):
        if with_the_game:
            return players.unchecked(token)
        return players.verify_key(_games().store.registry, token)[0]
    if has_request_context() and PLAYER_HEADER in request.headers:
        return platform_player(token, request.headers[PLAYER_HEADER])[0]
    return hash_token(token)


def platform_player(api_key: str, external: str) -> tuple[PlayerRef, dict[str, str]]:
    """The player ``external`` of the API key ``api_key``: 401 ``api-key-required``
    when the service has no API keys, 403 for a key that is not one, 404 for an
    unknown reference."""
    ring = current_app.extensions.get("api_key_ring")
    if ring is None:
        raise ApiError(
            401, "api-key-required", "X-Player needs API keys, which this service does not use."
        )
    key = ring.find(api_key)
    if key is None:
        raise ApiError(403, "invalid-api-key", "This API key is not valid (unknown or revoked).")
    if not 1 <= len(external) <= MAX_EXTERNAL_ID:
        raise ApiError(
            400, "invalid-header", "X-Player must be 1-{max} characters.", max=MAX_EXTERNAL_ID
        )
    return players.by_external(_games().store.registry, key.id, external)


def current_player() -> tuple[PlayerRef, dict[str, str]]:
    """The player the request acts for (``/players/me``): 401 without a player key or
    an API key with ``X-Player``."""
    header = request.headers.get("Authorization")
    if header is None:
        raise ApiError(
            401,
            "player-key-required",
            "This needs a player key (Authorization: Bearer bgp_...).",
            headers={"WWW-Authenticate": 'Bearer realm="boardgames"'},
        )
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise missing_token()
    if embeds.is_embed_token(token):
        raise embeds.scope_refused()  # an embed session is no player's key
    if len(token) > 256:
        raise missing_token()
    if players.is_player_key(token):
        return players.verify_key(_games().store.registry, token)
    if PLAYER_HEADER in request.headers:
        return platform_player(token, request.headers[PLAYER_HEADER])
    raise ApiError(403, "player-key-required", "This needs a player key, not a seat token.")


TENANT_ACTOR = "key:"
"""Who acts when an API key comes without ``X-Player``: its tenant, ``key:<key id>``."""


def current_actor() -> tuple[str, str]:
    """Who the request acts for and its tenant: a player (as :func:`current_player`:
    its id and its API key's id, or ``""``), or with API keys on, an API key alone
    (``key:<key id>``, the key's id: a platform's backend acting as itself)."""
    header = request.headers.get("Authorization") or ""
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    ring = current_app.extensions.get("api_key_ring")
    alone = PLAYER_HEADER not in request.headers and not players.is_player_key(token)
    if alone and ring is not None and scheme.lower() == "bearer" and 0 < len(token) <= 256:
        key = ring.find(token)
        if key is not None:
            return TENANT_ACTOR + key.id, key.id
    player, fields = current_player()
    return str(player), fields.get("tenant", "")


def _games() -> Games:
    found: Games = current_app.extensions["game_kit"].games
    return found

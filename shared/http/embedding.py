"""What the embed routes, the embed page and the identity of a request share: the
service's embed secret, a session credential checked and scoped, and the origins an
API key lets frame its embeds (docs/api.md "Embedding in your platform").

The secret is the ``EMBED_SECRET`` setting; when it is empty, one made once in Redis
(``embed:secret``, shared/store/embeds.py) and kept by each process, so every worker of
both services signs and checks alike with nothing to configure.
"""

from __future__ import annotations

import time

from flask import current_app, has_request_context, request

from shared.games import Games
from shared.games import embeds as tokens
from shared.games.embeds import Claims
from shared.games.tokens import EmbedRef
from shared.http.errors import ApiError

# what an embed session may reach: its game's view, legal moves, moves, hints (as the
# game allows them its seat), resigning, score, log, events and table chat (its
# messages and mutes), and its own refresh;
# nothing else (a player's own data, blocks and reports, hosting, joining, webhooks,
# other games)
SESSION_ENDPOINTS = frozenset(
    {
        "games.get_game",
        "games.legal_moves",
        "games.make_move",
        "games.ask_hint",
        "games.resign_game",
        "games.get_score",
        "games.get_log",
        "games.get_events",
        "games.get_chat",
        "games.post_chat",
        "games.get_mutes",
        "games.mute",
        "games.unmute",
        "games.refresh_embed_session",
    }
)


def _games() -> Games:
    found: Games = current_app.extensions["game_kit"].games
    return found


def secret() -> bytes:
    """The key embed tokens are signed with (see the module's docstring)."""
    found = current_app.extensions.get("embed_secret")
    if found is None:
        setting = current_app.config.get("EMBED_SECRET") or _games().store.embeds.secret()
        found = current_app.extensions["embed_secret"] = setting.encode("utf-8")
    return bytes(found)


def service() -> str:
    """The name of this service (tokens of the other service are refused here)."""
    return current_app.name


def read(token: str, kind: str) -> Claims:
    """A link's or a session's claims, checked (shared/games/embeds.py ``read``)."""
    return tokens.read(secret(), token, kind, service(), time.time())


def session_credential(token: str) -> EmbedRef:
    """The credential of an embed session ``token``, checked (its API key still
    active), and refused (403 ``embed-scope``) on any route but its game's own
    (:data:`SESSION_ENDPOINTS`)."""
    ref = read(token, tokens.SESSION).ref()
    ring = current_app.extensions.get("api_key_ring")
    if ring is not None and ring.by_id(ref.tenant) is None:  # its key was revoked
        raise ApiError(403, "invalid-api-key", "This API key is not valid (unknown or revoked).")
    if has_request_context():
        game = (request.view_args or {}).get("game_id")
        if request.endpoint not in SESSION_ENDPOINTS or game not in (None, ref.game):
            raise tokens.scope_refused()
    return ref


def frame_origins(tenant: str) -> tuple[str, ...]:
    """The origins the API key ``tenant`` lets frame its embeds (none when keys are off
    or the key is gone)."""
    ring = current_app.extensions.get("api_key_ring")
    key = ring.by_id(tenant) if ring is not None else None
    return key.frame_origins if key is not None else ()

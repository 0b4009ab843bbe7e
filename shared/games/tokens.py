"""Secret bearer tokens: issued once, stored only as a SHA-256 hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


class PlayerRef(str):
    """The id of the player a request acts for, its player key (or its tenant's API key)
    checked (shared/games/players.py). It passes where a token's hash does, and
    :mod:`shared.games.access` tells the two apart: a player acts for the seats bound
    to it (and as host of the games it created), never by comparing hashes."""


class UncheckedPlayer(PlayerRef):
    """A player whose key (``key_hash``) is still to be checked: a move's, read from the
    registry in the same round trip as the game and checked before anything else
    (shared/games/writes.py). Only the move route makes one."""

    key_hash: str

    def __new__(cls, player_id: str, key_hash: str) -> UncheckedPlayer:
        made = super().__new__(cls, player_id)
        made.key_hash = key_hash
        return made


def new_token() -> str:
    """A fresh secret token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The hex SHA-256 of ``token``: what the store keeps instead of the token.

    A plain hash suffices (no salt, no slow KDF): the token has 256 random bits, so
    there is nothing to brute-force, and a fast hash keeps each request cheap.
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token_hash: str, stored_hash: str | None) -> bool:
    """Whether two hashes are equal, in constant time."""
    return stored_hash is not None and hmac.compare_digest(token_hash, stored_hash)


class EmbedRef(str):
    """The credential of an embed session (shared/games/embeds.py): the player
    ``player`` in the game ``game`` only, acting for its seat there (``seated``) or
    watching as a spectator. Its text is ``embed:<player>``, which equals no token hash
    and no player id, so anywhere it is not expected it matches nothing (an invalid
    token); shared/games/access.py resolves it."""

    game: str
    player: str
    seated: bool
    tenant: str

    @classmethod
    def make(cls, game: str, player: str, seated: bool, tenant: str) -> EmbedRef:
        made = cls(f"embed:{player}")
        made.game, made.player, made.seated, made.tenant = game, player, seated, tenant
        return made

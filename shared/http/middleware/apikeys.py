"""Optional API keys: who may create games, how many, and whose games a listing shows.

Off unless ``API_KEYS_FILE`` names a keys file (JSON, managed by
``boardgames admin keys add|list|revoke``; see docs/operations.md). Then
``POST /games`` needs ``Authorization: Bearer <key>`` (401 without, 403 for an unknown or
revoked key, 429 with ``Retry-After`` over a quota) and ``GET /games`` shows a key only
the games it created (401 without a key: with keys on, the listing is no longer public).
Seat and host tokens work as before on every other route. Without keys a game's owner
is its creator's address (:func:`owner`), for the worker's fair share only.

The file holds SHA-256 hashes of the keys, never a key. It is re-read when its
modification time, size or inode changes (one ``stat`` per request on these two routes),
so the admin command takes effect without a restart. Quotas are counted in Redis per
service (Manhattan and Wind City count apart), through :class:`shared.store.Tracking`.
A key with ``"roles": ["admin"]`` is an operator's: it opens the ``/admin`` routes
(:func:`admin_key`); no seat or player key ever does.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request

from shared.games import Games, audience
from shared.games.audience import Audience
from shared.http.errors import ApiError
from shared.http.middleware.ratelimit import client_address
from shared.store import StoreError, address_owner

log = logging.getLogger(__name__)

CREATE_ENDPOINT = "games.create_game"
LIST_ENDPOINT = "games.list_games"
PLAYER_ENDPOINT = "games.create_player"  # a platform's players are its key's
BOARD_ENDPOINT = "games.get_leaderboard"  # and its leaderboard
HOUR = 3600
ADMIN = "admin"
"""The role of an operator's key (the ``/admin`` routes)."""
# A live-set place held for a create that never finished (a killed worker) is dropped
# after this long; the live quota's Retry-After when no game is about to end.
SETTLE_SECONDS = 600
LIVE_RETRY_AFTER = 60


@dataclass(frozen=True)
class ApiKey:
    """One key as the service sees it (its id is what games record as their owner)."""

    id: str
    name: str
    games_per_hour: int | None
    max_live_games: int | None
    roles: frozenset[str] = frozenset()


def hash_key(key: str) -> str:
    """The hex SHA-256 of a key, as the keys file stores it."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def parse_keys(text: str) -> dict[str, ApiKey]:
    """Active keys by hash from a keys file's text. Raises ValueError if malformed."""
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        raise ValueError('a keys file is a JSON object with a "keys" list')
    keys: dict[str, ApiKey] = {}
    for entry in data["keys"]:
        if entry.get("revoked"):
            continue
        digest = entry["hash"]
        if not isinstance(digest, str) or len(digest) != 64:
            raise ValueError(f"key {entry.get('id')!r}: hash is not a SHA-256 hex digest")
        keys[digest] = ApiKey(
            id=str(entry["id"]),
            name=str(entry.get("name", "")),
            games_per_hour=_quota(entry.get("games_per_hour")),
            max_live_games=_quota(entry.get("max_live_games")),
            roles=_roles(entry.get("roles")),
        )
    return keys


def _roles(value: Any) -> frozenset[str]:
    """A key's roles from the file: a list of names (``["admin"]``: an operator's)."""
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise ValueError(f"roles must be a list of names, not {value!r}")
    return frozenset(value)


def _quota(value: Any) -> int | None:
    """A quota from the file: a positive int, or ``None`` (0 or absent) for no limit."""
    if value in (None, 0):
        return None
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"a quota must be a whole number >= 0, not {value!r}")
    return value


class KeyRing:
    """The keys of one keys file, re-read when the file changes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._keys: dict[str, ApiKey] = {}
        self._lock = threading.Lock()
        self.refresh(strict=True)

    def refresh(self, strict: bool = False) -> None:
        """Re-read the file if it changed. A missing file means no keys (every key is
        refused); a malformed one is an error at start, and later keeps the last good
        keys (logged)."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            if self._stamp != (0, 0, 0):
                log.warning("API_KEYS_FILE %s does not exist: no key is accepted", self.path)
            self._stamp, self._keys = (0, 0, 0), {}
            return
        stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
        if stamp == self._stamp:
            return
        with self._lock:
            try:
                with open(self.path, encoding="utf-8") as handle:
                    keys = parse_keys(handle.read())
            except (OSError, ValueError, KeyError, TypeError) as error:
                if strict:
                    raise ValueError(f"API_KEYS_FILE {self.path}: {error}") from error
                log.error(
                    "API_KEYS_FILE %s unreadable, keeping the last keys: %s", self.path, error
                )
                self._stamp = stamp
                return
            self._stamp, self._keys = stamp, keys

    def find(self, key: str) -> ApiKey | None:
        """The active key ``key`` is, if any."""
        self.refresh()
        return self._keys.get(hash_key(key))


def _bearer() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else ""


def _authenticate(ring: KeyRing) -> ApiKey:
    """The request's API key: 401 without one, 403 for an unknown or revoked one."""
    token = _bearer()
    if token is None or token == "":
        raise ApiError(
            401,
            "api-key-required",
            "This service needs an API key (Authorization: Bearer <key>).",
            headers={"WWW-Authenticate": 'Bearer realm="boardgames-api"'},
        )
    key = ring.find(token) if len(token) <= 256 else None
    if key is None:
        raise ApiError(403, "invalid-api-key", "This API key is not valid (unknown or revoked).")
    return key


def _over_quota(detail: str, retry_after: int, **params: Any) -> ApiError:
    headers = {"Retry-After": str(max(1, retry_after))}
    return ApiError(429, "quota-exceeded", detail, headers=headers, **params)


def owner() -> str:
    """Who creates a game, for its ``owner``: the id of the request's API key, or when
    keys are off the client's address (``addr:<address>``, counted as the per-address
    rate limits count it). The worker shares itself fairly between owners
    (shared/store/schedule.py); listings and quotas are by key only."""
    key = g.get("api_key")
    return key.id if key is not None else address_owner(client_address())


def admin_key() -> ApiKey:
    """The operator's API key the request carries (a key with the role ``admin``):
    401 ``admin-required`` without a bearer, 403 ``admin-required`` for anything else (a
    player key, a seat token, an unknown key or one without the role; a service without
    API keys has no operator)."""
    token = _bearer()
    if not token:
        raise ApiError(
            401,
            "admin-required",
            "This needs an operator's API key (Authorization: Bearer <key>).",
            headers={"WWW-Authenticate": 'Bearer realm="boardgames-admin"'},
        )
    ring: KeyRing | None = current_app.extensions.get("api_key_ring")
    key = ring.find(token) if ring is not None and len(token) <= 256 else None
    if key is None or ADMIN not in key.roles:
        raise ApiError(403, "admin-required", "This needs an API key with the admin role.")
    return key


def listing_reader() -> Audience:
    """Who reads the listing: its API key's tenant (the games it created), or anyone."""
    key = g.get("api_key")
    return audience.ANYONE if key is None else audience.tenant(key.id)


def init_api_keys(app: Flask, games: Games, path: str) -> None:
    """Enforce API keys on creating and listing games (nothing when ``path`` is empty)."""
    if not path:
        return
    ring = KeyRing(path)
    app.extensions["api_key_ring"] = ring  # (players acted for by their platform)
    tracking = games.store.tracking

    @app.before_request
    def _require_key() -> None:
        if request.endpoint not in (
            CREATE_ENDPOINT,
            LIST_ENDPOINT,
            PLAYER_ENDPOINT,
            BOARD_ENDPOINT,
        ):
            return
        key = _authenticate(ring)
        g.api_key = key
        if request.endpoint == CREATE_ENDPOINT:
            _reserve(key)

    def _reserve(key: ApiKey) -> None:
        """Hold a creation and a live place for this request, or 429 over a quota."""
        member = f"pending:{uuid.uuid4().hex}"
        created, oldest, live = tracking.reserve(key.id, member, HOUR, SETTLE_SECONDS)
        if key.games_per_hour is not None and created > key.games_per_hour:
            tracking.release(key.id, member, creation=True)
            wait = math.ceil((oldest or time.time()) + HOUR - time.time())
            raise _over_quota(
                "This key may create {games} games per hour; retry in {wait} s.",
                wait,
                games=key.games_per_hour,
                wait=wait,
            )
        if key.max_live_games is not None and live > key.max_live_games:
            tracking.release(key.id, member, creation=True)
            raise _over_quota(
                "This key may have {games} games open or running at once; "
                "finish or cancel one first.",
                LIVE_RETRY_AFTER,
                games=key.max_live_games,
            )
        g.api_key_reservation = member

    @app.after_request
    def _settle(response: Response) -> Response:
        member = g.pop("api_key_reservation", None)
        if member is not None:  # the game (if created) holds its own live place now
            try:
                tracking.release(g.api_key.id, member, creation=response.status_code != 201)
            except StoreError as error:  # pruned later (SETTLE_SECONDS)
                log.warning("could not release a quota reservation: %s", error)
        return response

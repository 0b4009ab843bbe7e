"""Players: one identity across games and services, its secret player key, and its
place in each game (shared/store/players.py keeps the registry and the indexes).

A player key reads ``bgp_<player id>_<secret>``: the id says whose it is, so checking
it is one read of that player (no index of keys), and the store keeps only its SHA-256.
A request made with a player key, or with an API key naming one of its players
(``X-Player``), acts as a :class:`PlayerRef`: it stands where a seat token's hash
stands, and the seats it acts for are those whose record names the player
(``"player"``), so no seat record holds the key.
"""

from __future__ import annotations

import hmac
import re
import secrets
from typing import Any

from shared.games import names, seats, tokens
from shared.games.access import seat_of_player
from shared.games.base import OVER
from shared.games.document import GameDoc
from shared.games.errors import Forbidden, NotFound
from shared.games.tokens import PlayerRef, UncheckedPlayer
from shared.store.players import Registry

KEY_PREFIX = "bgp_"
PLAYER_ID = re.compile(r"^[0-9a-f]{16}$")
_KEY = re.compile(r"^bgp_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$")


def path_id(player_id: str) -> str:
    """A player id from a route's path: 404 ``player-not-found`` for one no player can
    have (nothing is read for it)."""
    if not PLAYER_ID.match(player_id):
        raise NotFound("player-not-found", "No player has this id.")
    return player_id


def is_player_key(token: str) -> bool:
    return token.startswith(KEY_PREFIX)


def new_key(player_id: str) -> str:
    return f"{KEY_PREFIX}{player_id}_{secrets.token_urlsafe(32)}"


def invalid_key() -> Forbidden:
    return Forbidden("invalid-player-key", "This player key is not valid.")


def create(
    registry: Registry, name: str, tenant: str = "", external: str | None = None
) -> tuple[str, str | None, bool]:
    """A new player named ``name``: its id, its key (``None`` when the tenant's
    ``external`` reference already names a player: that player's id comes back) and
    whether it is new."""
    name = names.check(name)
    player_id = secrets.token_hex(8)
    key = new_key(player_id)
    fields = {
        "name": name,
        "key": tokens.hash_token(key),
        "tenant": tenant,
        "ext": external or "",
        "created": seats.rfc3339(seats.now_ms()),
    }
    found = registry.create(player_id, fields, external)
    if found != player_id:
        return found, None, False
    return player_id, key, True


def unchecked(token: str) -> UncheckedPlayer:
    """The player a well-formed key names, its key still to check against the registry
    (:func:`check_key`, with the game's read); 403 ``invalid-player-key`` for a
    malformed one."""
    match = _KEY.match(token)
    if match is None:
        raise invalid_key()
    return UncheckedPlayer(match.group(1), tokens.hash_token(token))


def check_key(player: UncheckedPlayer, stored: tuple[str | None, str | None] | None) -> None:
    """403 ``invalid-player-key`` unless ``stored`` (the registry's key hash of the
    player and its suspension, ``None`` without one) has the hash of the key the
    request sent; 403 ``player-suspended`` while the player is suspended."""
    key, suspended = stored if stored is not None else (None, None)
    if key is None or not hmac.compare_digest(key, player.key_hash):
        raise invalid_key()
    check_standing(suspended)


def check_standing(suspended: str | None, now_ms: int | None = None) -> None:
    """403 ``player-suspended`` (with ``until``) while a suspension (``suspended``: the
    registry's field, until when in ms) runs. The one check of every way a request acts
    as a player (:func:`verify_key`, :func:`by_external`, :func:`check_key`); an
    expired suspension is no longer one (nothing to lift)."""
    if not suspended:
        return
    until = int(suspended)
    if until <= (seats.now_ms() if now_ms is None else now_ms):
        return
    stamp = seats.rfc3339(until)
    raise Forbidden(
        "player-suspended",
        "This player is suspended until {until}.",
        extra={"until": stamp},
        until=stamp,
    )


def verify_key(registry: Registry, token: str) -> tuple[PlayerRef, dict[str, str]]:
    """The player a player key belongs to, and its fields; 403 ``invalid-player-key``
    for a malformed, unknown or revoked key."""
    match = _KEY.match(token)
    if match is None:
        raise invalid_key()
    fields = registry.get(match.group(1))
    if fields is None or "key" not in fields:
        raise invalid_key()
    if not hmac.compare_digest(fields["key"], tokens.hash_token(token)):
        raise invalid_key()
    check_standing(fields.get("suspended"))
    return PlayerRef(match.group(1)), fields


def by_external(registry: Registry, tenant: str, external: str) -> tuple[PlayerRef, dict[str, str]]:
    """The tenant's player named ``external``; 404 ``player-not-found`` if none."""
    player_id = registry.by_external(tenant, external)
    fields = registry.get(player_id) if player_id else None
    if player_id is None or fields is None or "key" not in fields:
        raise NotFound("player-not-found", "No player of this API key has this external_id.")
    check_standing(fields.get("suspended"))
    return PlayerRef(player_id), fields


def members(doc: GameDoc) -> list[tuple[str, str | None]]:
    """The players seated in ``doc``, each with ``None`` while the game is live, else
    its status (the index of ended games it joins, shared/store/players.py)."""
    ended = doc["status"] if doc["status"] in OVER else None
    return [(p["player"], ended) for p in doc["players"] if p.get("player")]


def entry(doc: GameDoc, player_id: str, game: str) -> dict[str, Any] | None:
    """One game in a player's list of games (``None``: the player no longer sits in it)."""
    seat = seat_of_player(doc, player_id)
    if seat is None:
        return None
    mine = doc["players"][seat]
    my_turn = doc["status"] == "running" and seat in doc["to_act"]
    return {
        "game": game,
        "id": doc["id"],
        "status": doc["status"],
        "seat": seat,
        "my_turn": my_turn,
        "deadline": mine.get("deadline") if my_turn else None,
        "players": [
            {"seat": p["seat"], "name": p["name"], "bot": p.get("bot")}
            for p in doc["players"]
            if p["seat"] != seat
        ],
        "result": doc["result"],
        "updated_at": doc["updated_at"],
    }


def profile(player_id: str, fields: dict[str, str]) -> dict[str, Any]:
    """The player as its own key (or its tenant) sees it."""
    return {
        "id": player_id,
        "name": fields["name"],
        "external_id": fields.get("ext") or None,
        "created_at": fields["created"],
    }

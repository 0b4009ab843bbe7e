"""How a table is set: who may find it (``visibility``), how one gets in (an invite code
for an unlisted game) and when it starts (``start``).

- ``visibility: "public"`` (the default): listed, and anyone may join.
- ``visibility: "unlisted"``: in no listing, and a join needs the game's invite code:
  128 random bits, given once to the host in the create answer and carried in the join
  link; the document keeps only its SHA-256 (``invite``).
- ``start: "host"`` (the default): the host starts the game; ``"when_full"``: the join
  that takes the last seat also starts it, in the same write.
- ``spectators``: who may watch (shared/games/audience.py ``admit``): ``"everyone"``
  (the default of a listed table), ``"link"`` (with the game's watch code: the default
  of an unlisted table; the code is made here, :func:`new_watch_code`) or ``"players"``
  (nobody but the seats and the host).
- ``pool``: a quick match's table (shared/usecases/matches.py) names its pool; a seat
  freed while it is open (a leave, an erasure) puts it back there (:func:`repool`).

May import the games layer's own modules (document, errors, seats, tokens) and the
store's type.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from shared.games import seats, tokens
from shared.games.base import OPEN
from shared.games.document import GameDoc
from shared.games.errors import Forbidden

if TYPE_CHECKING:
    from shared.store import GameStore

PUBLIC, UNLISTED = "public", "unlisted"
BY_HOST, WHEN_FULL = "host", "when_full"
EVERYONE, LINK, PLAYERS = "everyone", "link", "players"
WATCHERS = (EVERYONE, LINK, PLAYERS)
"""The values of the ``spectators`` option: anyone may watch; only with the game's watch
code (its link); nobody but its seats and its host."""


def new_invite() -> tuple[str, str]:
    """A fresh invite code (128 bits, URL-safe) and the hash the document keeps."""
    code = secrets.token_urlsafe(16)
    return code, tokens.hash_token(code)


def new_watch_code() -> str:
    """A fresh watch code (128 bits, URL-safe). Kept as it is in the document
    (``watch_code``), not as a hash: the seats' and the host's views show the watch link
    so they can share it, and it lets one read only what any spectator of a public
    table reads."""
    return secrets.token_urlsafe(16)


def is_listed(doc: GameDoc) -> bool:
    return doc.get("visibility", PUBLIC) != UNLISTED


def check_invite(doc: GameDoc, code: str | None) -> None:
    """403 ``invite-required`` (no code) or ``invalid-invite`` (a wrong one) for a join
    of an unlisted game. A public game ignores a code."""
    stored = doc.get("invite")
    if stored is None:
        return
    if code is None:
        raise Forbidden(
            "invite-required", "This game is private: joining it needs its invite code."
        )
    if not tokens.matches(tokens.hash_token(code), stored):
        raise Forbidden("invalid-invite", "This invite code is not this game's.")


def starts_now(doc: GameDoc) -> bool:
    """Whether this join, which made ``doc``, starts the game: its last seat is taken
    and it was created to start when full."""
    return doc.get("start") == WHEN_FULL and len(doc["players"]) >= doc["seats"]


def pool_bounds(settings: dict[str, Any], now: int) -> tuple[int, int]:
    """A pool's oldest creation time still taking players (ms: a table in the last tenth
    of an open game's life takes nobody new) and its keys' ttl (s)."""
    ttl = int(settings["GAME_TTL_OPEN"])
    return now - ttl * 900, ttl


def repool(store: GameStore, settings: dict[str, Any], doc: GameDoc, player: str | None) -> None:
    """After a seat of ``doc`` was freed (``player``: whose, if bound): a quick match's
    table still open goes back to its pool, with its seats taken now."""
    pool = doc.get("pool")
    if pool is None or doc["status"] != OPEN:
        return
    oldest, ttl = pool_bounds(settings, seats.now_ms())
    created = seats.parse_ms(doc["created_at"])
    taken = len(doc["players"])
    store.release_seat(pool, doc["id"], player, taken, doc["seats"], created, oldest, ttl)

"""How a table is set: who may find it (``visibility``), how one gets in (an invite code
for an unlisted game) and when it starts (``start``).

- ``visibility: "public"`` (the default): listed, and anyone may join.
- ``visibility: "unlisted"``: in no listing, and a join needs the game's invite code:
  128 random bits, given once to the host in the create answer and carried in the join
  link; the document keeps only its SHA-256 (``invite``).
- ``start: "host"`` (the default): the host starts the game; ``"when_full"``: the join
  that takes the last seat also starts it, in the same write.

May import the games layer's own modules (document, errors, tokens).
"""

from __future__ import annotations

import secrets

from shared.games import tokens
from shared.games.document import GameDoc
from shared.games.errors import Forbidden

PUBLIC, UNLISTED = "public", "unlisted"
BY_HOST, WHEN_FULL = "host", "when_full"


def new_invite() -> tuple[str, str]:
    """A fresh invite code (128 bits, URL-safe) and the hash the document keeps."""
    code = secrets.token_urlsafe(16)
    return code, tokens.hash_token(code)


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

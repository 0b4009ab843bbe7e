"""What every reader sees of an erased player: a document keeps the SHA-256 of each
erased name and id (``erased``, :func:`name_hash`, :func:`id_hash`), and every answer
that reads old events shows :data:`PLACEHOLDER` and ``null`` in their place
(:func:`scrub`). The erasure itself, a write over the games: shared/usecases/privacy.py.
"""

from __future__ import annotations

import hashlib
from typing import Any

from shared.games.document import GameDoc

PLACEHOLDER = "Deleted player"


def name_hash(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def id_hash(player_id: str) -> str:
    """What ``erased`` keeps of an erased player's id (apart from any name's hash)."""
    return name_hash(f"player:{player_id}")


def scrub(value: Any, erased: set[str]) -> Any:
    """``value`` (events, nested) with every ``name`` whose hash is in ``erased``
    replaced by the placeholder, and every ``player`` id whose :func:`id_hash` is in
    it by ``None``."""
    if not erased:
        return value
    if isinstance(value, list):
        return [scrub(v, erased) for v in value]
    if isinstance(value, dict):
        out = {k: scrub(v, erased) for k, v in value.items()}
        name = out.get("name")
        if isinstance(name, str) and name_hash(name) in erased:
            out["name"] = PLACEHOLDER
        player = out.get("player")
        if isinstance(player, str) and id_hash(player) in erased:
            out["player"] = None
        return out
    return value


def erased_of(doc: GameDoc) -> set[str]:
    return set(doc.get("erased", []))

"""What a ready entry names (shared/webhooks/delivery.py): a game by its id, or a
tournament by its address ``tn:<id>`` (shared/store/layout.py), and the registrations
its outbox's notifications are addressed to.

May import ``shared.store``.
"""

from __future__ import annotations

from typing import Any

from shared.store import GameStore
from shared.store.layout import TOURNAMENT_ADDRESS


def registrations(store: GameStore, address: str) -> tuple[int, dict[str, list[Any]]] | None:
    """The version of the game or tournament at ``address`` and its own registrations
    by id (a player's are looked up apart); ``None`` once it is gone."""
    if address.startswith(TOURNAMENT_ADDRESS):
        doc, version = store.tournaments.read(address[len(TOURNAMENT_ADDRESS) :])
        if doc is None:
            return None
        reg = doc.get("webhook")
        return version, ({reg["id"]: [reg]} if reg else {})
    game, _ = store.read(address)
    if game is None:
        return None
    return game["version"], {r["id"]: [r] for r in game.get("webhooks") or []}

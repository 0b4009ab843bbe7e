"""Held seats: the seats a rematch keeps for the last game's players
(shared/usecases/rematch.py) until ``until``; a join takes its bearer's hold, and nobody
else may take a held seat meanwhile.
"""

from __future__ import annotations

from shared.games import tokens
from shared.games.document import GameDoc, HeldSeat
from shared.games.errors import Conflict
from shared.games.tokens import PlayerRef


def active_holds(doc: GameDoc, now: int) -> list[HeldSeat]:
    return [h for h in doc.get("held", []) if h["until"] > now]


def take_hold(doc: GameDoc, digest: str | None, now: int) -> HeldSeat | None:
    """The hold the joiner's bearer (its old seat token's hash, or its player) takes."""
    if digest is None:
        return None
    for hold in active_holds(doc, now):
        if isinstance(digest, PlayerRef):
            if hold.get("player") == digest:
                return hold
        elif tokens.matches(digest, hold["token_hash"]):
            return hold
    return None


def check_free_seat(doc: GameDoc, now: int) -> None:
    """409 ``seats-held`` when every free seat is held for the last game's players."""
    if len(doc["players"]) + len(active_holds(doc, now)) >= doc["seats"]:
        raise Conflict(
            "seats-held",
            "The free seats are held for the last game's players for a few minutes.",
        )


def without_hold(doc: GameDoc, hold: HeldSeat) -> list[HeldSeat]:
    return [h for h in doc.get("held", []) if h is not hold]

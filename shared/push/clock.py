"""``clock_low``: a reminder when a player's clock for a turn has a set share left.

The cheapest sound way: with push on, a game's due time in the worker's schedule is
also the moment a seat bound to a player has ``PUSH_CLOCK_LOW_SHARE`` of its turn's
time left (shared/games/seats.py ``due_ms``, written by the move itself: no extra round
trip). The worker claims the game then, finds no move due, and calls :func:`remind`
before putting the game back at its deadline: a ``clock_low`` notification for each
such seat goes to the game's outbox, once per turn (the delivery state's field
``low:<seat>`` holds the deadline it was made for), and is delivered as the other
notifications are (shared/push/sending.py; a player's webhook does not hear it).
"""

from __future__ import annotations

from typing import Any

from shared.games import Games, seats
from shared.games.document import GameDoc
from shared.games.notify import PLAYER, data_of, now_iso
from shared.push.subscriptions import CLOCK_LOW


def remind(games: Games, doc: GameDoc, now: int) -> int:
    """Write the ``clock_low`` of every seat of ``doc`` whose moment has come and whose
    deadline has not; how many were new."""
    low = seats.low_share(games.settings)
    if not low or doc["status"] != "running":
        return 0
    made = 0
    for player in doc["players"]:
        at, deadline = seats.low_ms(doc, player, low), player.get("deadline")
        if at is None or deadline is None or player["seat"] not in doc["to_act"]:
            continue
        if not at <= now < seats.parse_ms(deadline):
            continue
        data: dict[str, Any] = {**data_of(doc), "seat": player["seat"]}
        note = {"reg": PLAYER + player["player"], "type": CLOCK_LOW, "timestamp": now_iso()}
        mark = (f"low:{player['seat']}", deadline)
        ttl = int(games.settings.get("GAME_TTL_IDLE", 30 * 86400))
        made += games.store.outbox_once(doc["id"], mark, {**note, "data": data}, ttl)
    return made

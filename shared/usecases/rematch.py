"""Rematch: after a game ends, any of its players asks for the next one. The first
request creates it (the same options, a fresh seed, the same bot seats) and records its
id in the ended game (``next_game``, one compare-and-set write with a
``rematch_created`` event); later requests, racing or not, get the same game.

Each former human seat is held in the next game for ``REMATCH_HOLD_SECONDS`` (default
600): its player takes it back with its old seat token or its player key, under the
held name whatever name the join sends, and nobody else may take it meanwhile
(shared/games/holds.py). Erasing the player drops its hold
(shared/usecases/privacy.py). The next game starts when its last seat is taken.

May import the games layer (shared/games).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shared.games import options as kit_options
from shared.games import seats, tables, tokens
from shared.games.access import require_seat
from shared.games.base import OVER, Outcome
from shared.games.document import GameDoc, HeldSeat, PlayerEntry
from shared.games.errors import Conflict

if TYPE_CHECKING:
    from shared.games import Games


class _Taken(Exception):
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id


def next_options(doc: GameDoc) -> dict[str, Any]:
    """The create options of the game after ``doc``: the kit's it carries
    (shared/games/options.py) and the engine's; a fresh seed, and it starts when full."""
    return {**kit_options.carried(doc), **doc["options"], "start": tables.WHEN_FULL}


def holds_and_bots(doc: GameDoc, hold_seconds: int) -> tuple[list[HeldSeat], list[PlayerEntry]]:
    """The next game's held seats (``doc``'s human seats) and its bot seats (``doc``'s
    seats a bot played from the start), the bots seated in order."""
    until = seats.now_ms() + hold_seconds * 1000
    held: list[HeldSeat] = []
    bots: list[PlayerEntry] = []
    for record in doc["players"]:
        if record.get("status") == seats.BOT:
            hidden = tokens.hash_token(tokens.new_token())
            bot = seats.new_player(len(bots), record["name"], hidden, record.get("bot"))
            bots.append(bot)
            continue
        hold: HeldSeat = {
            "name": record["name"],
            "token_hash": record["token_hash"],
            "until": until,
        }
        if "player" in record:
            hold["player"] = record["player"]
        held.append(hold)
    return held, bots


def mark_next(game_id: str) -> Callable[[GameDoc], Outcome]:
    """The decision that records ``game_id`` as the ended game's next one (or raises
    :class:`_Taken` with the one already recorded)."""

    def decide(doc: GameDoc) -> Outcome:
        if doc.get("next_game"):
            raise _Taken(doc["next_game"])
        new: GameDoc = {**doc, "next_game": game_id}
        return Outcome(new, [{"type": "rematch_created", "game_id": game_id}])

    return decide


def rematch(kit: Games, game_id: str, digest: str | None) -> tuple[GameDoc, str | None]:
    """The next game after ``game_id`` for one of its players (seat token or player
    key): created by the first request, with its host token (``None`` for the later
    ones, which get the same game). 409 ``game-not-over`` before the game ended."""
    doc = kit.writes.load(game_id)
    require_seat(doc, digest)
    if doc["status"] not in OVER or doc["state"] is None:
        raise Conflict("game-not-over", "A rematch follows a game that was played to its end.")
    if doc.get("next_game"):
        return kit.writes.load(doc["next_game"]), None
    hold_seconds = int(kit.settings["REMATCH_HOLD_SECONDS"])
    held, bots = holds_and_bots(doc, hold_seconds)
    next_id = secrets.token_hex(8)
    created, host_token, _ = kit.lifecycle.create(
        next_options(doc),
        doc.get("owner"),
        None,
        doc.get("host_player"),
        game_id=next_id,
        held=held,
        bots=bots,
    )
    try:
        kit.writes.mutate(game_id, mark_next(next_id))
    except _Taken as taken:  # another request won the race: its game, and ours goes
        kit.store.discard(next_id)
        kit.store.tracking.forget_created(next_id, doc.get("owner"))
        return kit.writes.load(taken.game_id), None
    return created, host_token

"""A player's data: everything stored about it in one service (:func:`export`), and its
erasure (:func:`erase`), which keeps every game it sat in playable, replayable and
readable.

Erasing a player in a game renames its seat ``Deleted player`` and unbinds it, in one
compare-and-set write of the game (a ``player_erased`` event). The name may still sit
in events written before (``player_joined``, ``game_started``...): the document keeps
the SHA-256 of each erased name (``erased``), and every answer that reads old events
(the log, events rebuilt from the history) shows the placeholder in its place
(:func:`scrub`); the erasing write also restarts the game's event stream, so a reader
behind it gets those events rebuilt. The history itself is left as it was written, so
replays and the seed check still hold; it expires with the game.

May import the games layer's own modules and the store.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from shared.games import history
from shared.games.audience import Audience
from shared.games.base import Outcome
from shared.games.document import GameDoc, PlayerEntry
from shared.games.errors import GameError, NotFound
from shared.store import History

if TYPE_CHECKING:
    from shared.games import Games

PLACEHOLDER = "Deleted player"


def name_hash(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def scrub(value: Any, erased: set[str]) -> Any:
    """``value`` (events, nested) with every ``name`` whose hash is in ``erased``
    replaced by the placeholder."""
    if not erased:
        return value
    if isinstance(value, list):
        return [scrub(v, erased) for v in value]
    if isinstance(value, dict):
        out = {k: scrub(v, erased) for k, v in value.items()}
        name = out.get("name")
        if isinstance(name, str) and name_hash(name) in erased:
            out["name"] = PLACEHOLDER
        return out
    return value


def erased_of(doc: GameDoc) -> set[str]:
    return set(doc.get("erased", []))


def _erase_decision(player_id: str) -> Any:
    def decide(doc: GameDoc) -> Outcome:
        erased = list(doc.get("erased", []))
        players: list[PlayerEntry] = []
        seats = []
        for record in doc["players"]:
            if record.get("player") == player_id:
                erased.append(name_hash(record["name"]))
                record = {k: v for k, v in record.items() if k != "player"}  # type: ignore[assignment]
                record["name"] = PLACEHOLDER
                seats.append(record["seat"])
            players.append(record)
        held = doc.get("held", [])
        kept = [h for h in held if h.get("player") != player_id]
        if not seats and len(kept) == len(held):
            raise NotFound("player-not-seated", "The player has no seat in this game.")
        erased += [name_hash(h["name"]) for h in held if h.get("player") == player_id]
        new: GameDoc = {**doc, "players": players, "erased": sorted(set(erased))}
        if held:
            new["held"] = kept
        return Outcome(new, [{"type": "player_erased", "seats": seats}], restart_stream=True)

    return decide


def erase(games: Games, player_id: str) -> int:
    """Erase the player from every game of this service it sat in (its index of them),
    then drop that index; the number of games changed. Safe to run again."""
    changed = 0
    for game_id in games.store.member_ids(player_id):
        try:
            games.mutate(game_id, _erase_decision(player_id))
            changed += 1
        except GameError:  # gone, or no longer the player's
            continue
    games.store.drop_members(player_id)
    return changed


def export(games: Games, reader: Audience) -> list[dict[str, Any]]:
    """Every game of this service the reader (a player, as itself) sits in: its seat,
    name and moves."""
    player_id = reader.player
    if player_id is None:
        return []
    out = []
    for game_id in games.store.member_ids(player_id):
        found = games.store.history(game_id)
        if not isinstance(found, History):  # gone, or not migrated yet (old code's)
            continue
        try:
            doc = games.load(game_id)
        except GameError:
            continue
        seat = next((p for p in doc["players"] if p.get("player") == player_id), None)
        if seat is None:
            continue
        written = history.stored(found.tail, found.hist)
        moves = [m for m in history.all_moves(written) if m["seat"] == seat["seat"]]
        out.append(
            {
                "game": doc["game"],
                "id": doc["id"],
                "status": doc["status"],
                "seat": seat["seat"],
                "name": seat["name"],
                "created_at": doc["created_at"],
                "updated_at": doc["updated_at"],
                "result": doc["result"],
                "moves": [{"version": m["version"], "move": m["move"]} for m in moves],
            }
        )
    return out

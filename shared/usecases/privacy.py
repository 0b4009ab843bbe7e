"""A player's data: everything stored about it in one service (:func:`export`,
:func:`stored_rating`), and its erasure (:func:`erase`), which keeps every game it sat
in playable, replayable and readable.

Erasing a player in a game renames its seat ``Deleted player`` and unbinds it, in one
compare-and-set write of the game (a ``player_erased`` event); in an open game its seat
is freed instead, as a leave frees it (a ``player_left`` event), and a quick match's
table goes back to its pool. A seat a rematch holds for it goes too. The name may still
sit in events written before (``player_joined``, ``game_started``...), and its id in a
rated result (``result.ratings[].player``): the document keeps the SHA-256 of each
erased name and of each erased id (``erased``, :func:`id_hash`), the result is
rewritten, and every answer that reads old events (the log, events rebuilt from the
history) shows the placeholder and ``null`` in their place (:func:`scrub`); the erasing
write also restarts the game's event stream, so a reader behind it gets those events
rebuilt. The history itself is left as it was written, so replays and the seed check
still hold; it expires with the game. The player also leaves this service's
leaderboards and their snapshots. Its table chat messages, in the games it sat in and
those it talked in as a spectator, are rewritten with the placeholder name and no
player id (:func:`erase_chat`); :func:`export_chat` gives them in its export.

May import the games layer (shared/games) and the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.games import history, seats, tables
from shared.games.audience import Audience
from shared.games.base import OPEN, Outcome
from shared.games.document import GameDoc, PlayerEntry
from shared.games.erased import PLACEHOLDER, id_hash, name_hash, scrub
from shared.games.errors import GameError, NotFound
from shared.store import History

if TYPE_CHECKING:
    from shared.games import Games


def _erase_decision(player_id: str) -> Any:
    def decide(doc: GameDoc) -> Outcome:
        mine = [p for p in doc["players"] if p.get("player") == player_id]
        held = doc.get("held", [])
        kept = [h for h in held if h.get("player") != player_id]
        if not mine and len(kept) == len(held):
            raise NotFound("player-not-seated", "The player has no seat in this game.")
        erased = set(doc.get("erased", []))
        erased.update(name_hash(p["name"]) for p in mine)
        erased.update(name_hash(h["name"]) for h in held if h.get("player") == player_id)
        erased.add(id_hash(player_id))
        events: list[dict[str, Any]]
        if mine and doc["status"] == OPEN:  # its seat is freed, as a leave frees it
            seat = mine[0]["seat"]
            new: GameDoc = seats.without_seat(doc, seat)
            events = [{"type": "player_left", "seat": seat, "name": PLACEHOLDER}]
        else:
            players: list[PlayerEntry] = [
                _unbound(p) if p.get("player") == player_id else p for p in doc["players"]
            ]
            new = {**doc, "players": players}
            events = [{"type": "player_erased", "seats": [p["seat"] for p in mine]}]
        new["erased"] = sorted(erased)
        if held:
            new["held"] = kept
        if new["result"] is not None:
            new["result"] = scrub(new["result"], erased)
        return Outcome(new, events, restart_stream=True)

    return decide


def _unbound(record: PlayerEntry) -> PlayerEntry:
    out: PlayerEntry = {**record, "name": PLACEHOLDER}
    out.pop("player", None)
    return out


def erase(games: Games, player_id: str) -> int:
    """Erase the player from every game of this service it sat in (its index of them)
    and from the rematch after each, where a seat may be held for it (a hold is in no
    index), then drop that index; the number of games changed. Safe to run again."""
    changed = 0
    erase_chat(games, player_id)  # (before its index of games goes)
    for game_id in games.store.member_ids(player_id):
        try:
            doc = games.writes.mutate(game_id, _erase_decision(player_id))[0]
            changed += 1
        except GameError:  # gone, or no longer the player's
            continue
        tables.repool(games.store, games.settings, doc, player_id)
        if doc.get("next_game"):  # its rematch holds a seat for the player, no index has
            try:
                games.writes.mutate(doc["next_game"], _erase_decision(player_id))
                changed += 1
            except GameError:  # gone, hold taken (that seat is in the index) or ended
                pass
    games.store.drop_members(player_id)
    games.ctx.ratings.forget(player_id)
    return changed


def erase_chat(games: Games, player_id: str) -> None:
    """The player's chat messages in every game it talked in (seated or not: its
    index of those without a seat) rewritten with the placeholder name and no player
    id, and its mutes there dropped; then that index. (A seat's messages also show the
    placeholder through the game's ``erased`` hashes, as its events do.)"""
    store = games.store
    for game_id in dict.fromkeys([*store.member_ids(player_id), *store.spectated_ids(player_id)]):
        mine = [m for m in store.chat_all(game_id) if m.get("player") == player_id]
        new = {
            m["id"]: {
                **{k: v for k, v in m.items() if k not in ("id", "version")},
                "name": PLACEHOLDER,
                "player": None,
            }
            for m in mine
        }
        store.rewrite_chat(game_id, f"player:{player_id}", new)
    store.drop_spectated(player_id)


def export_chat(games: Games, player_id: str) -> list[dict[str, Any]]:
    """The player's chat messages in each game of this service it talked in (seated or
    not), as it sent them: ``{game, id, messages: [{id, channel, text, phrase, at,
    version}]}``."""
    store, out = games.store, []
    for game_id in dict.fromkeys([*store.member_ids(player_id), *store.spectated_ids(player_id)]):
        mine = [m for m in store.chat_all(game_id) if m.get("player") == player_id]
        if mine:
            keys = ("id", "channel", "text", "phrase", "at", "version")
            messages = [{k: m.get(k) for k in keys} for m in mine]
            out.append({"game": games.engine.NAME, "id": game_id, "messages": messages})
    return out


def export(games: Games, reader: Audience) -> list[dict[str, Any]]:
    """Every game of this service the reader (a player, as itself) sits in: its seat,
    name, moves and the seat's webhook registrations."""
    player_id = reader.player
    if player_id is None:
        return []
    out = []
    for game_id in games.store.member_ids(player_id):
        found = games.store.history(game_id)
        if not isinstance(found, History):  # gone, or not migrated yet (old code's)
            continue
        try:
            doc = games.writes.load(game_id)
        except GameError:
            continue
        seat = next((p for p in doc["players"] if p.get("player") == player_id), None)
        if seat is None:
            continue
        hooks = [w for w in doc.get("webhooks") or [] if w["seat"] == seat["seat"]]
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
                "webhooks": [{k: w[k] for k in ("id", "url", "events")} for w in hooks],
            }
        )
    return out


def stored_rating(fields: dict[str, str], game: str) -> dict[str, Any] | None:
    """The player's rating in ``game`` as its registry fields store it (``None``: never
    rated): mu, sigma, rated games and win share summed."""
    if f"{game}:mu" not in fields:
        return None
    return {
        "mu": float(fields[f"{game}:mu"]),
        "sigma": float(fields[f"{game}:sigma"]),
        "games": int(fields.get(f"{game}:n", 0)),
        "wins": float(fields.get(f"{game}:won", 0)),
    }

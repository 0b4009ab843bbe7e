"""Seat changes beyond joining: the host adds a bot seat, a player resigns a running game
or leaves an open one. Each is one compare-and-set write through ``games.writes.mutate``;
a quick match's table left while open goes back to its pool (shared/games/tables.py)."""

from __future__ import annotations

from shared.games import (
    OPEN,
    RUNNING,
    Games,
    IfMatch,
    Outcome,
    check_if_match,
    names,
    seats,
    tables,
    tokens,
)
from shared.games.access import require_host, require_seat
from shared.games.document import GameDoc, PlayerEntry
from shared.games.errors import Conflict


def _bot_name(doc: GameDoc, bot: str) -> str:
    """``Random bot 2``-style: the first number whose name clashes with nobody's in this
    game (:func:`names.clashes`: a human ``random bot 1`` takes that one too)."""
    number = 1
    while names.taken_by(f"{bot.capitalize()} bot {number}", doc["players"]) is not None:
        number += 1
    return f"{bot.capitalize()} bot {number}"


def add_bot(
    games: Games, game_id: str, digest: str | None, bot: str, name: str | None, if_match: IfMatch
) -> tuple[GameDoc, int]:
    """The host seats a bot in an open game; the document and the bot's seat. The seat
    gets a token nobody ever sees, so no request can act for it. A chosen ``name`` is
    checked as a joining player's is (:func:`names.check`, then ``name-taken``)."""
    hidden = tokens.hash_token(tokens.new_token())
    checked = None if name is None else names.check(name)

    def decide(doc: GameDoc) -> Outcome:
        require_host(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] != OPEN:
            raise Conflict("game-not-open", "This game does not take players now.")
        if len(doc["players"]) >= doc["seats"]:
            raise Conflict("game-full", "Every seat of this game is taken.")
        label = checked if checked is not None else _bot_name(doc, bot)
        names.refuse_taken(label, doc["players"])  # the same clash check as a join's
        seat = len(doc["players"])
        player = seats.new_player(seat, label, hidden, bot)
        new: GameDoc = {**doc, "players": [*doc["players"], player]}
        event = {"type": "player_joined", "seat": seat, "name": label, "bot": bot}
        return Outcome(new, [event])

    doc, _, _ = games.writes.mutate(game_id, decide)
    return doc, len(doc["players"]) - 1


def resign(
    games: Games, game_id: str, digest: str | None, if_match: IfMatch
) -> tuple[GameDoc, int]:
    """A player resigns a running game: a bot plays the seat to the end and the result
    ranks it last. The document and the seat."""
    seat = -1

    def decide(doc: GameDoc) -> Outcome:
        nonlocal seat
        seat = require_seat(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] == OPEN:
            raise Conflict(
                "game-not-running",
                "The game has not started: leave it with DELETE /games/{id}/players/me.",
            )
        if doc["status"] != RUNNING:
            raise Conflict("game-not-running", "The game is {status}.", status=doc["status"])
        if doc["players"][seat].get("status") == seats.RESIGNED:
            raise Conflict("seat-resigned", "Seat {seat} has already resigned.", seat=seat)
        players: list[PlayerEntry] = [
            {**p, "status": seats.RESIGNED, "bot": seats.takeover(doc)} if p["seat"] == seat else p
            for p in doc["players"]
        ]
        new: GameDoc = {**doc, "players": players}
        return Outcome(new, [{"type": "seat_resigned", "seat": seat}])

    doc, _, _ = games.writes.mutate(game_id, decide)
    return doc, seat


def leave(games: Games, game_id: str, digest: str | None, if_match: IfMatch) -> GameDoc:
    """A player leaves an open game: the seat is freed and later joiners move down one
    seat (seats are join order and must stay 0..n-1). Each token stays bound to its own
    player record, so it keeps acting for that player at the new seat number, and each
    seat's webhook follows its player too (:func:`without_seat`)."""

    left: list[PlayerEntry] = []

    def decide(doc: GameDoc) -> Outcome:
        seat = require_seat(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] != OPEN:
            raise Conflict("game-not-open", "Only an open game can be left; resign a running one.")
        gone = doc["players"][seat]
        left[:] = [gone]
        new = seats.without_seat(doc, seat)
        return Outcome(new, [{"type": "player_left", "seat": seat, "name": gone["name"]}])

    doc = games.writes.mutate(game_id, decide)[0]
    tables.repool(games.store, games.settings, doc, left[0].get("player"))
    return doc

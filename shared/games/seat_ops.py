"""Seat changes beyond joining: the host adds a bot seat, a player resigns a running game
or leaves an open one. Each is one compare-and-set write through :meth:`Games.mutate`."""

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

    doc, _, _ = games.mutate(game_id, decide)
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

    doc, _, _ = games.mutate(game_id, decide)
    return doc, seat


def leave(games: Games, game_id: str, digest: str | None, if_match: IfMatch) -> GameDoc:
    """A player leaves an open game: the seat is freed and later joiners move down one
    seat (seats are join order and must stay 0..n-1). Each token stays bound to its own
    player record, so it keeps acting for that player at the new seat number, and each
    seat's webhook follows its player too (:func:`without_seat`)."""

    def decide(doc: GameDoc) -> Outcome:
        seat = require_seat(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] != OPEN:
            raise Conflict("game-not-open", "Only an open game can be left; resign a running one.")
        gone = doc["players"][seat]
        new = without_seat(doc, seat)
        return Outcome(new, [{"type": "player_left", "seat": seat, "name": gone["name"]}])

    return games.mutate(game_id, decide)[0]


def without_seat(doc: GameDoc, seat: int) -> GameDoc:
    """``doc`` without the player at ``seat``: the later players move down one seat, and
    what the document keeps by seat number moves with its player. That is the seat
    webhook registrations (``doc["webhooks"]``): the departed player's is dropped (no
    one else may see its URL or hear its notifications), the others take their
    player's new seat, and one naming no current seat (left behind by code before this
    fix) is dropped. Nothing else needs it: tokens, idempotency records and move
    counters are kept by token hash, delivery cursors by registration id, and an open
    game has no deadlines, turns or engine state yet."""
    staying = [p for p in doc["players"] if p["seat"] != seat]
    moved = {p["seat"]: n for n, p in enumerate(staying)}
    new: GameDoc = {**doc, "players": [{**p, "seat": moved[p["seat"]]} for p in staying]}
    if "webhooks" in doc:
        new["webhooks"] = [
            reg if reg["seat"] is None else {**reg, "seat": moved[reg["seat"]]}
            for reg in doc["webhooks"] or []
            if reg["seat"] is None or reg["seat"] in moved
        ]
    return new

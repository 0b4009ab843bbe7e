"""Seat changes beyond joining: the host adds a bot seat, a player resigns a running game
or leaves an open one. Each is one compare-and-set write through :meth:`Games.mutate`."""

from __future__ import annotations

from shared.games import OPEN, RUNNING, Games, IfMatch, Outcome, check_if_match, seats, tokens
from shared.games.access import require_host, require_seat
from shared.http.errors import ApiError
from shared.store import Doc


def _bot_name(doc: Doc, bot: str) -> str:
    """``Random bot 2``-style: the first number not taken in this game."""
    taken = {p["name"] for p in doc["players"]}
    number = 1
    while f"{bot.capitalize()} bot {number}" in taken:
        number += 1
    return f"{bot.capitalize()} bot {number}"


def add_bot(
    games: Games, game_id: str, digest: str | None, bot: str, name: str | None, if_match: IfMatch
) -> tuple[Doc, int]:
    """The host seats a bot in an open game; the document and the bot's seat. The seat
    gets a token nobody ever sees, so no request can act for it."""
    hidden = tokens.hash_token(tokens.new_token())

    def decide(doc: Doc) -> Outcome:
        require_host(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] != OPEN:
            raise ApiError(409, "game-not-open", "This game does not take players now.")
        if len(doc["players"]) >= doc["seats"]:
            raise ApiError(409, "game-full", "Every seat of this game is taken.")
        label = name if name is not None else _bot_name(doc, bot)
        if any(p["name"] == label for p in doc["players"]):
            raise ApiError(409, "name-taken", f"A player named {label!r} already joined.")
        seat = len(doc["players"])
        player = seats.new_player(seat, label, hidden, bot)
        new = {**doc, "players": [*doc["players"], player]}
        event = {"type": "player_joined", "seat": seat, "name": label, "bot": bot}
        return Outcome(new, [event])

    doc, _, _ = games.mutate(game_id, decide)
    return doc, len(doc["players"]) - 1


def resign(games: Games, game_id: str, digest: str | None, if_match: IfMatch) -> tuple[Doc, int]:
    """A player resigns a running game: a bot plays the seat to the end and the result
    ranks it last. The document and the seat."""
    seat = -1

    def decide(doc: Doc) -> Outcome:
        nonlocal seat
        seat = require_seat(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] == OPEN:
            raise ApiError(
                409,
                "game-not-running",
                "The game has not started: leave it with DELETE /games/{id}/players/me.",
            )
        if doc["status"] != RUNNING:
            raise ApiError(409, "game-not-running", f"The game is {doc['status']}.")
        if doc["players"][seat].get("status") == seats.RESIGNED:
            raise ApiError(409, "seat-resigned", f"Seat {seat} has already resigned.")
        players = [
            {**p, "status": seats.RESIGNED, "bot": seats.TAKEOVER_BOT} if p["seat"] == seat else p
            for p in doc["players"]
        ]
        new = {**doc, "players": players}
        return Outcome(new, [{"type": "seat_resigned", "seat": seat}])

    doc, _, _ = games.mutate(game_id, decide)
    return doc, seat


def leave(games: Games, game_id: str, digest: str | None, if_match: IfMatch) -> Doc:
    """A player leaves an open game: the seat is freed and later joiners move down one
    seat (seats are join order and must stay 0..n-1). Each token stays bound to its own
    player record, so it keeps acting for that player at the new seat number."""

    def decide(doc: Doc) -> Outcome:
        seat = require_seat(doc, digest)
        check_if_match(doc, if_match)
        if doc["status"] != OPEN:
            raise ApiError(
                409, "game-not-open", "Only an open game can be left; resign a running one."
            )
        gone = doc["players"][seat]
        players = [
            {**p, "seat": n} for n, p in enumerate(p for p in doc["players"] if p["seat"] != seat)
        ]
        new = {**doc, "players": players}
        return Outcome(new, [{"type": "player_left", "seat": seat, "name": gone["name"]}])

    return games.mutate(game_id, decide)[0]

"""One step of a game that is due: a bot's move for a seat played by a bot, or for an
active seat whose deadline passed (a timeout; ``max_timeouts`` in a row abandon it), or
bots filling and starting an open quick-match table whose ``bots_after`` passed.

The step goes through ``games.writes.mutate``, the compare-and-set write of a human move:
a human move that lands first wins (the step re-reads, finds nothing due and writes
nothing), and two workers playing the same turn cannot both succeed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared import bots as levels
from shared.engine import Engine, Move, RuleError, State, Strategy
from shared.games import OPEN, Games, Outcome, seats
from shared.games.audience import seated
from shared.games.base import settle
from shared.games.document import GameDoc, started
from shared.games.errors import NotFound
from shared.usecases import matches


class NothingDue(Exception):
    """The fresh document has no seat to play now (someone moved first, or the game
    ended or expired); carries the document (``None`` when gone)."""

    def __init__(self, doc: GameDoc | None) -> None:
        super().__init__("nothing due")
        self.doc = doc


class _RatingsDue(Exception):
    def __init__(self, doc: GameDoc) -> None:
        self.doc = doc


def _random(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    return rng.choice(legal)


def strategy(engine: Engine, name: str) -> Strategy:
    """The engine's strategy ``name``; random when the engine has no such strategy."""
    bots = engine.BOTS
    return bots.get(name) or bots.get("random") or _random


def bot_rng(doc: GameDoc, seat: int) -> random.Random:
    """Deterministic per game, version and seat: replaying the log gives the same moves,
    yet nobody can predict a bot from outside without the game's id and version."""
    return random.Random(f"{doc['id']}:{doc['version']}:{seat}")


class Thinking(Exception):  # noqa: N818 (a signal, not an error)
    """A search bot's decision is being made elsewhere (shared/worker/thinking.py):
    come back to this game later."""


Think = Callable[[Engine, State, int, str, int, Any], Move]
"""Where a search bot's move is decided: ``(engine, state, seat, level, seed, key)``."""


def _think_here(engine: Engine, state: State, seat: int, level: str, seed: int, key: Any) -> Move:
    return levels.decide(engine, state, seat, level, seed)


def play_due(games: Games, game_id: str, think: Think | None = None) -> tuple[GameDoc, int]:
    """Play one due seat of the game: the written document and the lag in ms (from the
    moment the move was due to now). Raises :class:`NothingDue`."""
    engine = games.engine
    lag = 0
    table = False  # an open quick-match table that bots filled (shared/usecases/matches.py)

    def decide(doc: GameDoc) -> Outcome:
        nonlocal lag, table
        if doc.get("ratings_pending"):
            raise _RatingsDue(doc)
        now, table = seats.now_ms(), False
        if doc["status"] == OPEN:
            filled = matches.fill_with_bots(games, doc, now)
            if filled is None:
                raise NothingDue(doc)
            lag, table = now - (seats.due_ms(doc, now) or now), True
            return filled
        due = seats.due_seats(doc, now)
        if not due:
            raise NothingDue(doc)
        seat, timed_out = due[0]
        since = doc["players"][seat]["deadline"] if timed_out else doc["updated_at"]
        assert since is not None  # a timeout is of a seat with a deadline (seats.due_seats)
        lag = now - seats.parse_ms(since)
        players = [p.copy() for p in doc["players"]]
        player = players[seat]
        events: list[dict[str, Any]] = []
        if timed_out:
            player["timeouts"] = player.get("timeouts", 0) + 1
            events.append({"type": "seat_timed_out", "seat": seat})
            clock = doc.get("clock")
            assert clock is not None  # a deadline runs under a clock only
            if player["timeouts"] >= clock["max_timeouts"]:
                player["status"] = seats.ABANDONED
                player["bot"] = seats.takeover(doc)
                events.append({"type": "seat_abandoned", "seat": seat})
        name = player.get("bot") or seats.takeover(doc)
        before = started(doc)
        legal = list(engine.legal_moves(before, seat))
        rng = bot_rng(doc, seat)
        if name in levels.SEARCH_LEVELS:  # a search bot: the worker's pool thinks
            seed = rng.getrandbits(63)
            key = (doc["id"], doc["version"], seat)
            move = (think or _think_here)(engine, before, seat, name, seed, key)
        else:
            move = strategy(engine, name)(games.answers(seated(seat)).view(doc), legal, rng)
        try:
            state, move_events = engine.apply_move(before, seat, move)
        except RuleError:  # a strategy's own move (not a listed one) was refused
            move = rng.choice(legal)
            state, move_events = engine.apply_move(before, seat, move)
        new: GameDoc = {**doc, "state": state, "players": players}
        produced = (len(events), len(move_events))
        events += move_events
        settle(games.engine, new, events)
        moved = [{"seat": seat, "move": move, "version": doc["version"] + 1}]
        return Outcome(new, events, moved, produced)

    try:
        doc = games.writes.mutate(game_id, decide)[0]
    except NotFound as error:  # the game expired or was never there
        raise NothingDue(None) from error
    except _RatingsDue as due:  # an ended game whose process died before its ratings
        games.writes.settle_ratings(due.doc)
        return due.doc, 0
    if table:
        matches.leaves_pool(games, doc)
    return doc, lag

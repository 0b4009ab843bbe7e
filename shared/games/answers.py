"""What the games layer answers about a game: views, listing entries, scores, legal
moves, the log, and the events a capped stream no longer holds, rebuilt from the history.
Reads only; what each audience may see is decided here."""

from __future__ import annotations

from typing import Any

from shared.engine import Choice
from shared.games import history, options, privacy, seats
from shared.games.base import OVER, RUNNING, Context, not_found
from shared.games.document import GameDoc, from_store, started
from shared.store import History, LegacyLog


def players(doc: GameDoc) -> list[dict[str, Any]]:
    return [{"seat": p["seat"], "name": p["name"], **seats.public(p)} for p in doc["players"]]


def public(doc: GameDoc) -> dict[str, Any]:
    """The facts about a game anyone may see (the head of a view, summary and log)."""
    return {
        "id": doc["id"],
        "game": doc["game"],
        "status": doc["status"],
        "version": doc["version"],
        "options": {**options.shown(doc), **doc["options"]},
        "players": players(doc),
        # documents stored before seed commitments have neither (null, false)
        "seed_commitment": doc.get("seed_commitment"),
        "seed_chosen": doc.get("seed_chosen", False),
        "visibility": doc.get("visibility", "public"),
        "next_game": doc.get("next_game"),
    }


def summary(doc: GameDoc) -> dict[str, Any]:
    """A listing entry: public facts only."""
    return {**public(doc), "to_act": doc["to_act"], "created_at": doc["created_at"]}


class Answers:
    """The answers that need the engine (views, scores, moves) or the store (the log)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def view(self, doc: GameDoc, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` (``None``: a spectator) may see it. Never the seed, the
        token hashes or the raw engine state: only the engine's own view of it."""
        state = doc["state"]
        return {
            **public(doc),
            "you": seat,
            "to_act": doc["to_act"],
            "state": None if state is None else self.ctx.engine.view(state, seat),
            "result": doc["result"],
            "created_at": doc["created_at"],
            "updated_at": doc["updated_at"],
        }

    def legal_moves(self, doc: GameDoc, seat: int) -> list[dict[str, Any]]:
        """The seat's legal moves now (none unless the game runs and the seat is to act).

        The engine's shared read-only moves (``legal_actions``: the same moves as
        ``legal_moves``, without a fresh copy of each), as answers only encode them."""
        if doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return list(self.ctx.engine.legal_actions(started(doc), seat))

    def choices(self, doc: GameDoc, seat: int) -> list[Choice]:
        """How the seat may fill the subset fields of its legal moves (see shared.engine)."""
        if doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return self.ctx.engine.choices(started(doc), seat)

    def score(self, doc: GameDoc) -> dict[str, Any]:
        """Public scores so far and the result once over."""
        state = doc["state"]
        return {
            "status": doc["status"],
            "score": None if state is None else self.ctx.engine.score(state),
            "result": doc["result"],
        }

    def log(self, doc: GameDoc) -> dict[str, Any]:
        """Every event; once the game is over also the seed, its commitment's salt and
        every move (replayable, and checkable against ``seed_commitment``)."""
        found = self.ctx.store.history(doc["id"])
        if found is None:
            raise not_found(doc["id"])
        doc = from_store(found.doc)  # read with the history, so that the two agree
        if isinstance(found, LegacyLog):  # written by older code, not migrated yet
            events, moves = found.events, found.moves
        else:
            written = history.stored(found.tail, found.hist)
            events = [e for w in history.replay(self.ctx.engine, doc, written) for e in w.events]
            moves = history.all_moves(written)
        body = {**public(doc), "events": privacy.scrub(events, privacy.erased_of(doc))}
        if doc["status"] in OVER:
            body["moves"] = moves
            body["seed"] = doc["seed"]
            body["salt"] = doc.get("salt")
        return body

    def rebuilt_events(
        self, found: History, after: tuple[int, int], count: int
    ) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after`` that the capped stream no longer holds,
        rebuilt from the history the store read instead (``found``)."""
        written = history.stored(found.tail, found.hist)
        doc = from_store(found.doc)
        events = history.events_after(self.ctx.engine, doc, written, after, count)
        return list(privacy.scrub(events, privacy.erased_of(doc)))

"""What the games layer answers about a game: views, listing entries, scores, legal
moves, the log, and the events (those a capped stream no longer holds rebuilt from the
history). Reads only; each answer is built for one reader (:class:`Answers`, given an
:class:`~shared.games.audience.Audience`), and what it may see is decided here."""

from __future__ import annotations

from typing import Any

from shared.engine import Choice
from shared.games import audience, erased, history, options, seats
from shared.games.audience import Audience
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


class Answers:
    """Every answer about a game, for one reader: built by :meth:`shared.games.Games.answers`
    with the request's audience (resolved once, :func:`shared.games.access.audience_of`).
    What a reader may see is decided here, by the policies of
    :mod:`shared.games.audience`; a new one (such as a delay for spectators) is written
    there and applied in these methods, the only builders of these answers."""

    def __init__(self, ctx: Context, reader: Audience) -> None:
        self.ctx = ctx
        self.reader = reader

    def view(self, doc: GameDoc) -> dict[str, Any]:
        """The game as the reader may see it: a seat's own hidden information, nobody's
        for anyone else. Never the seed, the token hashes or the raw engine state: only
        the engine's own view of it."""
        state = doc["state"]
        seat = audience.private_seat(self.reader)
        body = {
            **public(doc),
            "you": seat,
            "to_act": doc["to_act"],
            "state": None if state is None else self.ctx.engine.view(state, seat),
            "result": doc["result"],
            "created_at": doc["created_at"],
            "updated_at": doc["updated_at"],
        }
        link = audience.watch_link_of(doc, self.reader)
        if link is not None:
            body["watch_link"] = link
        return body

    def summary(self, doc: GameDoc) -> dict[str, Any]:
        """A listing entry: public facts only."""
        return {**public(doc), "to_act": doc["to_act"], "created_at": doc["created_at"]}

    def legal_moves(self, doc: GameDoc) -> list[dict[str, Any]]:
        """The reader's legal moves now: none unless it is a seat, the game runs and the
        seat is to act.

        The engine's shared read-only moves (``legal_actions``: the same moves as
        ``legal_moves``, without a fresh copy of each), as answers only encode them."""
        seat = audience.acting_seat(self.reader)
        if seat is None or doc["status"] != RUNNING or seat not in doc["to_act"]:
            return []
        return list(self.ctx.engine.legal_actions(started(doc), seat))

    def choices(self, doc: GameDoc) -> list[Choice]:
        """How the reader's seat may fill the subset fields of its legal moves (see
        shared.engine)."""
        seat = audience.acting_seat(self.reader)
        if seat is None or doc["status"] != RUNNING or seat not in doc["to_act"]:
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
        body = {**public(doc), "events": erased.scrub(events, erased.erased_of(doc))}
        if doc["status"] in OVER:
            body["moves"] = moves
            body["seed"] = doc["seed"]
            body["salt"] = doc.get("salt")
        return body

    def events(
        self, found: list[dict[str, Any]] | History, after: tuple[int, int], count: int
    ) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after`` (long-poll and SSE), from what the store
        read: the stream's events as they are, or when the capped stream no longer holds
        them the history (``found``), from which they are rebuilt."""
        if not isinstance(found, History):
            return found
        written = history.stored(found.tail, found.hist)
        doc = from_store(found.doc)
        events = history.events_after(self.ctx.engine, doc, written, after, count)
        return list(erased.scrub(events, erased.erased_of(doc)))

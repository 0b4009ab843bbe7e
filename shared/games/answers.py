"""What the games layer answers about a game: views, listing entries, scores, legal
moves, the log, and the events (those a capped stream no longer holds rebuilt from the
history). Reads only; each answer is built for one reader (:class:`Answers`, given an
:class:`~shared.games.audience.Audience`), and what it may see is decided here."""

from __future__ import annotations

from typing import Any

from shared.engine import Choice
from shared.games import audience, erased, hints, history, options, seats, spectate
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
        "hints": hints.public(doc),
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
        self._seen: tuple[tuple[str, int], GameDoc] | None = None

    # -- the spectator delay (audience.moves_behind; shared/games/spectate.py) ----------

    def visible_version(self, doc: GameDoc) -> int | None:
        """The last version of ``doc`` the reader may see (events, chat messages and
        log entries of later versions are not its yet), or ``None``: all of it (a seat,
        the host, a game without a delay, a game that is over). No read beyond ``doc``."""
        if not audience.moves_behind(self.reader, doc):
            return None
        return spectate.visible_version(doc)

    def at(self, doc: GameDoc) -> GameDoc:
        """The game as the reader reads it: ``doc`` itself, or for a delayed reader the
        game at its delayed version (the ring's document: one round trip, once per
        :class:`Answers` and version)."""
        if not audience.moves_behind(self.reader, doc):
            return doc
        key = (doc["id"], doc["version"])
        if self._seen is None or self._seen[0] != key:
            self._seen = key, spectate.delayed(self.ctx, doc)
        return self._seen[1]

    def version(self, doc: GameDoc) -> int:
        """The version the reader reads (its ETag)."""
        return self.at(doc)["version"]

    # -- the answers ----------------------------------------------------------------------

    def view(self, doc: GameDoc) -> dict[str, Any]:
        """The game as the reader may see it: a seat's own hidden information, nobody's
        for anyone else; a delayed spectator's as it was (:meth:`at`). Never the seed,
        the token hashes or the raw engine state: only the engine's own view of it."""
        live, doc = doc, self.at(doc)
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
        link = audience.watch_link_of(live, self.reader)
        if link is not None:
            body["watch_link"] = link
        return body

    def summaries(self, docs: list[GameDoc]) -> list[dict[str, Any]]:
        """The entries of a listing page: public facts only, a delayed game's as it was
        (:meth:`at`; the delayed ones read in one round trip)."""
        behind = [doc for doc in docs if audience.moves_behind(self.reader, doc)]
        delayed = dict(zip(map(id, behind), spectate.delayed_many(self.ctx, behind), strict=True))
        shown = [delayed.get(id(doc), doc) for doc in docs]
        return [{**public(d), "to_act": d["to_act"], "created_at": d["created_at"]} for d in shown]

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
        """Public scores so far and the result once over (a delayed reader's as they
        were, :meth:`at`)."""
        doc = self.at(doc)
        state = doc["state"]
        return {
            "status": doc["status"],
            "score": None if state is None else self.ctx.engine.score(state),
            "result": doc["result"],
        }

    def log(self, doc: GameDoc) -> dict[str, Any]:
        """Every event; once the game is over also the seed, its commitment's salt and
        every move (replayable, and checkable against ``seed_commitment``). A delayed
        reader's ends at its delayed version, its head the game's then."""
        found = self.ctx.store.history(doc["id"])
        if found is None:
            raise not_found(doc["id"])
        doc = from_store(found.doc)  # read with the history, so that the two agree
        upto = self.visible_version(doc)
        if isinstance(found, LegacyLog):  # written by older code, not migrated yet
            events, moves = found.events, found.moves
            if upto is not None:
                events = [e for e in events if e.get("version", 0) <= upto]
        else:
            written = history.stored(found.tail, found.hist)
            if upto is not None:
                written = [w for w in written if w[0] <= upto]
            events = [e for w in history.replay(self.ctx.engine, doc, written) for e in w.events]
            moves = history.all_moves(written)
        head = public(doc if upto is None else self.at(doc))
        body = {**head, "events": erased.scrub(events, erased.erased_of(doc))}
        if doc["status"] in OVER:
            body["moves"] = moves
            body["seed"] = doc["seed"]
            body["salt"] = doc.get("salt")
        return body

    def events(
        self,
        found: list[dict[str, Any]] | History,
        after: tuple[int, int],
        count: int,
        upto: int | None = None,
    ) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after`` (long-poll and SSE), from what the store
        read: the stream's events as they are, or when the capped stream no longer holds
        them the history (``found``), from which they are rebuilt. ``upto``: the
        reader's :meth:`visible_version`; no event of a later version (a game's or a
        chat message's: each carries its ``version``) is the reader's."""
        if not isinstance(found, History):
            events = found
        else:
            written = history.stored(found.tail, found.hist)
            if upto is not None:
                written = [w for w in written if w[0] <= upto]
            doc = from_store(found.doc)
            rebuilt = history.events_after(self.ctx.engine, doc, written, after, count)
            events = list(erased.scrub(rebuilt, erased.erased_of(doc)))
        return events if upto is None else [e for e in events if e["version"] <= upto]

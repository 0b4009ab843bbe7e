"""Reading a game's events and history (and a delayed game's ring of documents, which
its spectators read): the capped stream (long-poll and SSE waits
block on it), and when a reader is behind what the stream keeps, the document with the
history tail and archive as they are stored, for the caller to rebuild the events from
(the games layer replays them: shared/games/history.py). A read-only script,
``history.lua``, makes each read consistent.

The stream keeps the events of the game's last few writes only (the document's
``events_from`` says from which version): the last ``HISTORY_STREAM_WRITES`` writes,
fewer when they exceed ``HISTORY_STREAM_BYTES`` (the write script sets ``events_from``
to match). Games written by older code (a full stream, a ``moves`` list and an ``idem``
hash, no ``events_from``) are read as they are and migrated by their next write.

May import the store's own modules (layout, entries, documents, jsoncodec).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from shared.store import connection as fastcall
from shared.store import jsoncodec
from shared.store.documents import StoredDoc, load_doc
from shared.store.entries import (
    CHAT_SEQ,
    contiguous,
    parse_entries,
    position,
    script_events,
    stream_entries,
)
from shared.store.layout import Layout

SCRIPT = resources.files("shared.store").joinpath("history.lua").read_text(encoding="utf-8")


@dataclass(frozen=True)
class History:
    """A consistent read of a game: the document, its history tail and archive."""

    doc: StoredDoc
    tail: str | None
    hist: str | None


@dataclass(frozen=True)
class LegacyLog:
    """A game written by older code, read whole: its events and moves."""

    doc: StoredDoc
    events: list[dict[str, Any]]
    moves: list[dict[str, Any]]


Events = list[dict[str, Any]] | History
"""What an events read gives: the events, or, when the reader is behind what the stream
keeps, the :class:`History` to rebuild them from."""


class EventReads(Layout):
    """The events' and history's part of :class:`shared.store.gamestore.GameStore`."""

    client: Any
    blocking: Any
    _history: Any  # history.lua, registered

    def events(self, game_id: str, after: str, count: int, block_ms: int = 0) -> Events:
        """Up to ``count`` events after stream id ``after``; waits up to ``block_ms``
        (XREAD BLOCK) when there are none yet. ``block_ms=0`` never waits.

        A wait reads the stream alone; when what it got does not follow ``after`` (the
        stream was trimmed past the reader), the events are read again, or the history
        they are to be rebuilt from (:meth:`events_now`)."""
        key = self.keys(game_id)[1]
        if block_ms <= 0:
            return self.events_now(game_id, after, count)
        reply = self.blocking.xread({key: after}, count=count, block=block_ms)
        events = parse_entries(stream_entries(reply), position(after), count)
        if events and not contiguous(after, events[0]["id"]):
            return self.events_now(game_id, after, count)
        return events

    def events_now(self, game_id: str, after: str, count: int) -> Events:
        """Up to ``count`` events after stream id ``after``, never waiting: one
        consistent read of the document and the stream (a read-only script); when the
        reader is behind what the stream keeps, of the document and the history,
        returned as a :class:`History` for the caller to rebuild the events from."""
        keys, args = self.events_call(game_id, after, count)
        return self.events_reply(self._history(keys=keys, args=args), after, count)

    def events_call(self, game_id: str, after: str, count: int) -> tuple[list[str], list[Any]]:
        """The keys and arguments of :meth:`events_now`'s script call (a pipeline may
        send it with other reads: shared/store/chat.py)."""
        version, n = position(after)
        # (past every event of its version: a bare version's, a chat message's id)
        needed = version + 1 if n >= CHAT_SEQ - 1 else version
        keys = [*self.keys(game_id), *self.legacy_keys(game_id)]
        return keys, [f"({after}", count, needed]

    def events_reply(self, reply: Any, after: str, count: int) -> Events:
        """:meth:`events_now`'s answer from its script's ``reply``."""
        version, n = position(after)
        if not reply[0]:
            return []
        if len(reply) == 2:
            return script_events(reply[1], (version, n), count)
        return History(load_doc(reply[0]), reply[2], reply[3])

    def history(self, game_id: str) -> History | LegacyLog | None:
        """The document and its whole history in one consistent read (the log, a
        retried move's first answer); a game written by older code read whole."""
        reply = self._history(
            keys=[*self.keys(game_id), *self.legacy_keys(game_id)], args=["(0-0", 0, "all"]
        )
        if not reply[0]:
            return None
        doc = load_doc(reply[0])
        if len(reply) > 4:
            events = script_events(reply[4], None)
            return LegacyLog(doc, events, [jsoncodec.loads(raw) for raw in reply[5]])
        return History(doc, reply[2], reply[3])

    def delayed(self, game_id: str) -> StoredDoc | None:
        """The oldest document of a delayed game's ring (shared/games/spectate.py; the
        write script keeps it): one ``LINDEX``; ``None`` without a ring."""
        raw = fastcall.call(self.client, "LINDEX", self.ring_key(game_id), -1)
        return load_doc(raw) if raw else None

    def delayed_many(self, game_ids: list[str]) -> list[StoredDoc | None]:
        """:meth:`delayed` of several games in one pipelined round trip."""
        if not game_ids:
            return []
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.lindex(self.ring_key(game_id), -1)
        return [load_doc(raw) if raw else None for raw in pipe.execute()]

    def archive(self, game_id: str) -> str | None:
        """The game's history archive (``hist``): read only for an old key's retry."""
        return self.client.get(self.keys(game_id)[3])  # type: ignore[no-any-return]

    def legacy(
        self, game_id: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, str]]:
        """The events, moves and idempotency records of a game written by older code
        (its migration): one round trip."""
        moves_key, idem_key = self.legacy_keys(game_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.xrange(self.keys(game_id)[1])
        pipe.lrange(moves_key, 0, -1)
        pipe.hgetall(idem_key)
        entries, moves, idem = pipe.execute()
        events = parse_entries(entries, None, 0)
        return events, [jsoncodec.loads(raw) for raw in moves], dict(idem)

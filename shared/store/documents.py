"""The game document: how it is stored (:func:`load_doc`, :func:`dumps`), its reads, and
the one write of a game, ``store.lua``: a compare-and-set of the document that also
appends the write's events and history record, and on a single Redis sets the game's
due time and signals its webhooks, all in one EVALSHA.

The document is JSON, stored compressed behind a plain head
(shared/store/document_codec.py); the history record is the games layer's
(shared/games/history.py), stored as given. The hot reads and the write go through the
store's own sockets (shared/store/connection.py).

May import the store's own modules (layout, entries, the codecs, connection) and redis.
"""

from __future__ import annotations

import base64
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis.exceptions

from shared.store import connection as fastcall
from shared.store import document_codec as doccodec
from shared.store import jsoncodec, replicated
from shared.store.entries import PACKED, stored_events
from shared.store.errors import NotReplicated
from shared.store.layout import Layout, client_of
from shared.store.players import ended_keys, member_keys, registry_key

StoredDoc = dict[str, Any]
"""A game document as stored, decoded: plain JSON data the store never interprets (the
games layer types it: shared/games/document.py)."""

SCRIPT = resources.files("shared.store").joinpath("store.lua").read_text(encoding="utf-8")


def dumps(value: Any) -> str:
    """Compact JSON, the one serialization used for everything stored (orjson: the
    same text as ``json.dumps`` with these separators and ``ensure_ascii=False``)."""
    return jsoncodec.dumps_text(value)


def load_doc(raw: str | bytes) -> StoredDoc:
    """A stored document (see :mod:`shared.store.document_codec`). An ended game's engine state
    written by older code is compressed on its own (``"z:" + base85(zlib(json))``)."""
    doc: StoredDoc = doccodec.unpack(raw)
    state = doc.get("state")
    if isinstance(state, str) and state.startswith(PACKED):
        doc["state"] = jsoncodec.loads(zlib.decompress(base64.b85decode(state[len(PACKED) :])))
    return doc


def _doc(raw: str | None) -> StoredDoc | None:
    return load_doc(raw) if raw else None


@dataclass(frozen=True)
class WriteResult:
    """What the write script said: ``ok``, ``conflict`` (someone else wrote first, with
    the current version and, unless the game was being created, the current document
    and history tail as stored: ``current``) or ``missing`` (the game is gone)."""

    outcome: str
    record: str | None = None
    current: tuple[StoredDoc, str | None] | None = None
    unconfirmed: NotReplicated | None = None
    """An ``ok`` write that fewer replicas than asked confirmed in time
    (``REDIS_WAIT_REPLICAS``): written on the primary, not to be acknowledged (the
    caller finishes its bookkeeping, then raises it: 503)."""


@dataclass(frozen=True)
class HistoryWrite:
    """What a write does to the game's history keys: ``tail`` appended (mode ``a``),
    set (``s``) or the tail deleted (``d``); ``archive`` lines appended to ``hist``;
    the stream trimmed to ids from ``trim`` on (``""``: not trimmed); ``legacy``: the
    old ``moves`` and ``idem`` keys deleted (a migrated game)."""

    tail: str
    mode: str = "a"
    archive: str = ""
    trim: str = ""
    legacy: bool = False


class Documents(Layout):
    """The game documents' part of :class:`shared.store.gamestore.GameStore`."""

    client: Any
    cluster: bool
    _write: Any  # store.lua, registered
    signal_ready: Callable[[str], None]  # (shared/store/outbox.py)
    lower_due: Callable[[str, str, int], int | None]  # (shared/store/schedule.py)
    touch_members: Callable[[str, list[tuple[str, str | None]], int], None]  # (players.py)
    replicas = 0  # REDIS_WAIT_REPLICAS: replicas each write waits for (0: none)
    wait_ms = 200  # REDIS_WAIT_TIMEOUT_MS: how long it waits

    def replicate(self, replicas: int, timeout_ms: int) -> None:
        """Make every game write wait for ``replicas`` replicas (``WAIT``, in the write's
        own send), ``timeout_ms`` at most (0 never waits: at least 1 ms)."""
        self.replicas = max(0, int(replicas))
        self.wait_ms = max(1, int(timeout_ms))

    def confirm(self, game_id: str) -> None:
        """Before an earlier write of the game is acknowledged again (a retry's first
        answer): raise :class:`NotReplicated` unless the replicas have every write its
        primary made so far. A tiny write in the game's slot and a WAIT for it: one
        round trip, and none when no replicas are asked for."""
        if not self.replicas:
            return
        key = f"{self.prefix}:{{{game_id}}}:sync"
        _, acked = replicated.call_waited(
            self.client, key, self.replicas, self.wait_ms, "SET", key, "1", "PX", 1000
        )
        if acked < self.replicas:
            raise NotReplicated(self.replicas, acked)

    # -- reads -------------------------------------------------------------------------

    def read(self, game_id: str, with_tail: bool = False) -> tuple[StoredDoc | None, str | None]:
        """The game document and, if asked, its history tail: one round trip."""
        doc, tail, _, _ = self.read_counted(game_id, with_tail)
        return doc, tail

    def read_many(self, game_ids: list[str]) -> list[StoredDoc | None]:
        """The documents of ``game_ids`` (``None`` for a missing one), in order: one
        pipelined round trip (on Redis Cluster, one per node)."""
        if not game_ids:
            return []
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(self.keys(game_id)[0])
        return [_doc(raw) for raw in pipe.execute()]

    def read_counted(
        self,
        game_id: str,
        with_tail: bool,
        counter: str | None = None,
        ttl: int = 0,
        player: str | None = None,
    ) -> tuple[StoredDoc | None, str | None, int, tuple[str | None, str | None] | None]:
        """:meth:`read` that also counts one request on the game's counter ``counter``
        (a rate-limit window, expiring after ``ttl`` s; 0 counted without one), and
        with ``player`` (an id) reads that player's key hash and suspension (``until``
        in ms) from the registry (last, ``None`` without a player): still one round trip
        on a single Redis (the registry is in another slot: one more on a cluster)."""
        game_key, _, tail_key, _ = self.keys(game_id)
        key_hash = None
        if player is not None and self.cluster:
            key_hash = _standing(self.client.hmget(registry_key(player), "key", "suspended"))
            player = None
        if counter is None and player is None:  # one command: cheaper than a pipeline
            if not with_tail:
                return _doc(fastcall.call(self.client, "GET", game_key)), None, 0, key_hash
            raw, tail = fastcall.call(self.client, "MGET", game_key, tail_key)
            return _doc(raw), tail, 0, key_hash
        pipe = self.client.pipeline(transaction=False)
        pipe.get(game_key)
        if with_tail:
            pipe.get(tail_key)
        if counter is not None:
            counter_key = self.counter_key(game_id, counter)
            pipe.incr(counter_key)
            pipe.expire(counter_key, ttl)
        if player is not None:
            pipe.hmget(registry_key(player), "key", "suspended")
        replies = pipe.execute()
        tail = replies[1] if with_tail else None
        if player is not None:
            key_hash = _standing(replies.pop())
        count = int(replies[-2]) if counter is not None else 0
        return _doc(replies[0]), tail, count, key_hash

    def ping(self) -> bool:
        """Whether Redis answers."""
        return bool(self.client.ping())

    def probe_write(self) -> None:
        """Write a tiny key that expires within a second: raises while Redis refuses
        writes (``OutOfMemoryError`` at ``maxmemory`` under ``noeviction``, a read-only
        replica), which a PING would not notice."""
        self.client.set(f"{self.prefix}:readyz", "1", px=1000)

    # -- writes ------------------------------------------------------------------------

    def write(
        self,
        doc: StoredDoc,
        expected_version: int,
        events: list[dict[str, Any]],
        ttl: int,
        history: HistoryWrite,
        due: int | None | bool = False,
        outbox: list[dict[str, Any]] | None = None,
        members: list[tuple[str, str | None]] | None = None,
        ring: str = "",
    ) -> WriteResult:
        """Compare-and-set the game at ``expected_version`` (0: create it) to ``doc``,
        appending ``events`` (which must carry their ``id``) and writing ``history``
        (the write's record, see shared/games/history.py): all or nothing, in one
        EVALSHA.

        ``outbox``: webhook notifications (shared/webhooks) appended to the game's outbox
        stream by the same script; on a single Redis the script also signals the webhook
        ready stream, on Cluster one more round trip does after the write.

        ``due`` (ms; ``None``: nothing due; ``False``: leave the schedule alone) is the
        game's new due time for the worker, kept under the game's client
        (shared/store/schedule.py). On a single Redis the same script sets it,
        atomically with the game. On Redis Cluster the schedule lives in another slot:
        after a successful write one more round trip lowers the entry (ZADD LT), and the
        worker corrects a due time that is too early when it finds nothing due.

        ``members``: the players seated in the game, each with ``None`` while the game is
        live, else the name of the index of ended games it joins (its status): their
        indexes of their games (shared/store/players.py) get the game at now, by the
        same script on a single Redis, one more round trip after the write on Cluster.

        ``ring``: what the same script does to a delayed game's ring of documents (in the
        game's slot; shared/games/spectate.py): ``p<n>`` push ``doc`` and keep ``n``,
        ``e`` keep it alive, ``d`` delete it, ``""`` nothing.
        """
        outbox = outbox or []
        members = members or []
        keys, args = self._script_call(
            doc, expected_version, events, ttl, history, due, outbox, members, ring
        )
        reply, acked = self._run_script(keys, args)
        if reply[0] != "ok":
            if len(reply) < 4 or not reply[2]:  # missing, or a create that found the game
                return WriteResult(reply[0], reply[1] if len(reply) > 1 else None)
            return WriteResult(reply[0], reply[1], (load_doc(reply[2]), reply[3]))
        if len(reply) > 1 and int(reply[1]) != doc.get("events_from"):
            doc["events_from"] = int(reply[1])  # the stream's cap raised it
        if self.cluster:
            acked = self._after_cluster_write(
                doc["id"], client_of(doc), due, outbox, members, ttl, acked
            )
        if acked is not None and acked < self.replicas:
            return WriteResult("ok", unconfirmed=NotReplicated(self.replicas, acked))
        return WriteResult("ok")

    def _script_call(
        self,
        doc: StoredDoc,
        expected_version: int,
        events: list[dict[str, Any]],
        ttl: int,
        history: HistoryWrite,
        due: int | None | bool,
        outbox: list[dict[str, Any]],
        members: list[tuple[str, str | None]],
        ring: str = "",
    ) -> tuple[list[str], list[Any]]:
        """The write script's keys and arguments (store.lua says what each one is): on a
        single Redis, the schedule, the webhooks' ready signal and the members' indexes
        are the script's too."""
        game_id = doc["id"]
        inline = due is not False and not self.cluster
        ready = bool(outbox) and not self.cluster
        inline_members = [] if self.cluster else members
        flags = [min(1, len(events)), len(outbox), int(inline), int(ready), int(history.legacy)]
        flags.append(len(inline_members))
        stored = doccodec.pack(doc)  # "version" comes first: the script matches it undecoded
        args: list[Any] = [
            expected_version,
            stored,
            ttl,
            history.tail,
            history.mode,
            history.archive,
            history.trim,
            ":".join(map(str, flags)) + (f":{ring}" if ring else ""),
        ]
        if events:  # one stream entry, under the id of the write's last event
            args.extend([events[-1]["id"], stored_events(events)])
        args.extend(dumps(note) for note in outbox)
        keys: list[str] = list(self.keys(game_id))
        if inline:
            keys.extend(self.schedule_keys(client_of(doc)))
            args.extend([game_id, "" if due is None else int(due), client_of(doc)])
        if outbox:
            keys.append(self.outbox_key(game_id))
        if ready:
            keys.append(self.ready_key(game_id))
        if history.legacy:
            keys.extend(self.legacy_keys(game_id))
        if ring:
            keys.append(self.ring_key(game_id))
        if inline_members:
            args.extend([game_id, int(time.time() * 1000)])
            args.extend("1" if ended is None else "e" for _, ended in inline_members)
            for player_id, ended in inline_members:
                every, live = member_keys(self.prefix, player_id)
                shelf, since = ended_keys(self.prefix, player_id, ended or "-")
                keys.extend((every, live, shelf, since))
        keys.extend(self.chat_keys(game_id))  # (last: their expiry follows the game's)
        return keys, args

    def _run_script(self, keys: list[str], args: list[Any]) -> tuple[Any, int | None]:
        """The write script's reply and, when replicas are asked for, how many confirmed
        it (``None``: none asked for)."""
        if self.replicas:  # the EVALSHA and a WAIT in one send (shared/store/replicated.py)
            return self._write_waited(keys, args)
        try:  # the script's EVALSHA on the short path (shared/store/connection.py)
            reply = fastcall.call(self.client, "EVALSHA", self._write.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:  # not run: Script loads it and runs it
            reply = self._write(keys=keys, args=args)
        return reply, None

    def _after_cluster_write(
        self,
        game_id: str,
        client: str,
        due: int | None | bool,
        outbox: list[dict[str, Any]],
        members: list[tuple[str, str | None]],
        ttl: int,
        acked: int | None,
    ) -> int | None:
        """On Redis Cluster, what the script could not do in other slots, one round trip
        each: lower the game's due time, signal its webhooks, touch its members' indexes.
        Returns ``acked``, lowered to the replicas that confirmed the due time."""
        if due is not False and due is not None:
            scheduled = self.lower_due(client, game_id, due)
            if acked is not None and scheduled is not None:
                acked = min(acked, scheduled)
        if outbox:
            self.signal_ready(game_id)
        if members:
            self.touch_members(game_id, members, ttl)
        return acked

    def _write_waited(self, keys: list[str], args: list[Any]) -> tuple[Any, int]:
        """The write script and ``WAIT`` on one connection in one send: its reply and
        the replicas that confirmed it (a refused write wrote nothing to confirm)."""
        command = ("EVALSHA", self._write.sha, len(keys), *keys, *args)
        try:
            return replicated.call_waited(
                self.client, keys[0], self.replicas, self.wait_ms, *command
            )
        except redis.exceptions.NoScriptError:  # not run: loaded, then sent again
            self.client.script_load(self._write.script)
            return replicated.call_waited(
                self.client, keys[0], self.replicas, self.wait_ms, *command
            )

    def discard(self, game_id: str) -> None:
        """Delete every key of a game (undoes a create that could not be listed). DEL
        frees memory, so Redis runs it even when it refuses writes for lack of it."""
        self.client.delete(
            *self.keys(game_id),
            *self.legacy_keys(game_id),
            self.ring_key(game_id),
            *self.chat_keys(game_id),
        )


def _standing(found: list[Any]) -> tuple[str | None, str | None]:
    """A player's key hash and suspension as ``HMGET`` gives them."""
    return found[0], found[1]

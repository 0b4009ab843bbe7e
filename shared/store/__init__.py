"""The Redis store: per game one document (JSON, stored compressed behind a plain head:
shared/store/document_codec.py), a capped event stream and a compact history (tail and archive, see
shared/games/history.py), written atomically.

Keys of one game share the ``{id}`` hash tag (``<p>:{<id>}:game|events|tail|hist``) so
the write script touches a single slot and also runs on Redis Cluster. The listing index
``<p>:games`` lives in another slot and is therefore updated outside the script.

The stream keeps the events of the game's last few writes only (the document's
``events_from`` says from which version); older events are rebuilt from the history by
replaying the engine (:attr:`GameStore.rebuild`, installed by the games layer). Games
written by older code (a full stream, a ``moves`` list and an ``idem`` hash, no
``events_from``) are read as they are and migrated by their next write.

Event ids are chosen by the store, not by Redis: ``<version>-<n>`` for the n-th event of
the write that produced ``version``. They increase with every write, so they are valid
stream ids, and anyone holding an event id knows which version it belongs to. The stream
holds one entry per write (fewer entries, less overhead per event): its id is the id of
the write's last event, its one field ``w`` the write's events as a JSON list, without
their ids and versions (compressed, ``"z:" + base85(zlib(json))``, when long). A read
after ``v-n`` gets that entry when ``n`` is not its last event, and keeps its events
after ``n`` (:func:`_entry_events`). The stream keeps the last ``HISTORY_STREAM_WRITES``
writes, fewer when they exceed ``HISTORY_STREAM_BYTES`` (the write script sets
``events_from`` to match). Streams written by older code hold
one event per entry (field ``e``), read as they are.
"""

from __future__ import annotations

import base64
import logging
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
import redis.exceptions

from shared.store import connection as fastcall
from shared.store import document_codec as doccodec
from shared.store import jsoncodec
from shared.store.recent_copies import Copies

Doc = dict[str, Any]
log = logging.getLogger(__name__)

# The store's failures under the store's names: callers catch these, never redis-py's,
# so this module stays the only one that knows the store is Redis.
StoreError = redis.exceptions.RedisError
"""Any failure of a store command (bookkeeping that may fail quietly catches this)."""
StoreFull = redis.exceptions.OutOfMemoryError
"""Redis at ``maxmemory`` under ``noeviction``: writes refused, reads still work."""
STORE_DOWN: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.ReadOnlyError,
)
"""Failures that mean the store is unreachable or not writable for now (503)."""

_SCRIPT = resources.files("shared.store").joinpath("store.lua").read_text(encoding="utf-8")
_HISTORY = resources.files("shared.store").joinpath("history.lua").read_text(encoding="utf-8")
_SCHEDULE = resources.files("shared.store").joinpath("schedule.lua").read_text(encoding="utf-8")
_UNLOCK = """
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
if ARGV[1] == 'renew' then return redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return redis.call('DEL', KEYS[1])
"""
DUE_SHARDS = 16
_LIST_BATCH = 50
_LIST_SCAN_CAP = 1000
_MAX_SEQ = 18446744073709551615  # the largest stream id sequence number


def dumps(value: Any) -> str:
    """Compact JSON, the one serialization used for everything stored (orjson: the
    same text as ``json.dumps`` with these separators and ``ensure_ascii=False``)."""
    return jsoncodec.dumps_text(value)


def make_clients(settings: dict[str, Any]) -> tuple[Any, Any]:
    """A client for ordinary commands and one for blocking reads (long-poll, SSE).

    Both are plain redis-py clients (``RedisCluster`` when ``REDIS_CLUSTER`` is set or
    the URL carries ``?cluster=true``). They hold only connection pools. Under gunicorn's
    gevent worker the sockets are monkey-patched, so a blocking XREAD parks one
    greenlet, not the worker. The blocking client's socket timeout exceeds the longest
    block we ever ask for, so a hung server still ends in an error.
    """
    parts = urlsplit(settings["REDIS_URL"])
    query = parse_qsl(parts.query)
    flags = {k: v for k, v in query if k == "cluster"}
    url = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "cluster"])))
    cluster = settings["REDIS_CLUSTER"] or flags.get("cluster", "").lower() in {"1", "true", "yes"}
    blocking_timeout = (
        max(settings["EVENTS_MAX_WAIT"], settings["SSE_HEARTBEAT_SECONDS"])
        + settings["REDIS_SOCKET_TIMEOUT"]
    )
    common = {
        "decode_responses": True,
        "socket_connect_timeout": settings["REDIS_SOCKET_TIMEOUT"],
        # redis-py 8 caps a pool at 100 connections and then fails ("Too many
        # connections"): under gevent every waiting long-poll/SSE holds one.
        "max_connections": settings.get("REDIS_MAX_CONNECTIONS", 4000),
    }
    factory = redis.RedisCluster.from_url if cluster else redis.Redis.from_url
    client = factory(url, socket_timeout=settings["REDIS_SOCKET_TIMEOUT"], **common)
    blocking = factory(url, socket_timeout=blocking_timeout, **common)
    return client, blocking


def open_store(settings: dict[str, Any], prefix: str) -> GameStore:
    """The store of one service (key prefix ``prefix``) on its own pair of clients."""
    client, blocking = make_clients(settings)
    if not settings.get("REDIS_PIPELINE", True):
        fastcall.unpiped(client)
    return GameStore(
        client,
        blocking,
        prefix,
        settings["WORKER_DUE_SHARDS"],
        fanout_waits=bool(settings.get("EVENTS_FANOUT")),
        copy_seconds=float(settings.get("WRITE_FROM_COPY_SECONDS", 0)),
    )


@dataclass(frozen=True)
class WriteResult:
    """What the write script said: ``ok``, ``conflict`` (someone else wrote first, with
    the current version and, unless the game was being created, the current document
    and history tail as stored: ``current``) or ``missing`` (the game is gone)."""

    outcome: str
    record: str | None = None
    current: tuple[Doc, str | None] | None = None


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


Rebuild = Callable[[Doc, str | None, str | None, tuple[int, int], int], list[dict[str, Any]]]
"""``rebuild(doc, tail, hist, (version, n), count)``: events after a position that the
stream no longer holds, rebuilt from the history (shared/games/history.py)."""


@dataclass(frozen=True)
class LegacyLog:
    """A game written by older code, read whole: its events and moves."""

    doc: Doc
    events: list[dict[str, Any]]
    moves: list[dict[str, Any]]


@dataclass(frozen=True)
class History:
    """A consistent read of a game: the document, its history tail and archive."""

    doc: Doc
    tail: str | None
    hist: str | None


def event_id(version: int, n: int) -> str:
    """The stream id of the n-th event written at ``version``."""
    return f"{version}-{n}"


def position(after: str) -> tuple[int, int]:
    """A normalized stream id as ``(version, n)``."""
    version, _, n = after.partition("-")
    return int(version), int(n or 0)


def contiguous(after: str, first: str) -> bool:
    """Whether the event ``first`` may directly follow ``after`` (a stream trimmed in
    between skips to a later version): the next event of the same version, or the
    first of the next one (every write has at least one event)."""
    (v, n), (v2, n2) = position(after), position(first)
    return (v2 == v and n2 == n + 1) or (v2 == v + 1 and n2 == 0)


def normalize_after(after: str | None) -> str:
    """A stream id to read after: ``None``/``"0"`` is the start; a bare version ``v``
    means after every event of versions ``<= v``; ``"v-n"`` is an event id."""
    if not after or after == "0":
        return "0-0"
    if "-" not in after:
        return f"{int(after)}-{_MAX_SEQ}"
    return after


def _encode_cursor(score: float, game_id: str) -> str:
    raw = f"{int(score)}:{game_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """The (score, id) a listing cursor points after. Raises ValueError if malformed."""
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    score, _, game_id = raw.partition(":")
    if not game_id:
        raise ValueError("malformed cursor")
    return int(score), game_id


def _stream_entries(reply: Any) -> list[tuple[str, dict[str, str]]]:
    """Entries of the one stream in an XREAD reply (RESP2 list or RESP3 dict)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return list(next(iter(reply.values()))[0])
    return list(reply[0][1])


def _doc(raw: str | None) -> Doc | None:
    return load_doc(raw) if raw else None


_PACKED = "z:"
_PACK_OVER = 512
"""A write's events longer than this (JSON bytes) are stored compressed in its stream
entry: a big write (a Wind City round's end) then still fits a stream node of
``stream-node-max-bytes 1024``."""


def load_doc(raw: str | bytes) -> Doc:
    """A stored document (see :mod:`shared.store.document_codec`). An ended game's engine state
    written by older code is compressed on its own (``"z:" + base85(zlib(json))``)."""
    doc: Doc = doccodec.unpack(raw)
    state = doc.get("state")
    if isinstance(state, str) and state.startswith(_PACKED):
        doc["state"] = jsoncodec.loads(zlib.decompress(base64.b85decode(state[len(_PACKED) :])))
    return doc


def _entry_events(
    entry_id: str, fields: dict[str, str], after: tuple[int, int] | None
) -> list[dict[str, Any]]:
    """The events of one stream entry after position ``after`` (``None``: all), with
    their versions and ids as the write stamped them."""
    raw = fields.get("w")
    if raw is None:  # one event per entry, written by older code (version included)
        event: dict[str, Any] = jsoncodec.loads(fields["e"])
        event["id"] = entry_id
        return [event]
    version = int(entry_id.partition("-")[0])
    if raw.startswith(_PACKED):
        raw = zlib.decompress(base64.b85decode(raw[len(_PACKED) :])).decode()
    events: list[dict[str, Any]] = jsoncodec.loads(raw)
    first = after[1] + 1 if after is not None and after[0] == version else 0
    out = []
    for n in range(first, len(events)):
        event = events[n]
        if "version" not in event:  # dropped when it came last (see _stored_events)
            event["version"] = version
        event["id"] = f"{version}-{n}"
        out.append(event)
    return out


def _stored_events(events: list[dict[str, Any]]) -> str:
    """A write's events as its stream entry holds them: without their ids, and without
    their version where it comes last (it is the entry's; read back in the same place)."""
    version = position(events[-1]["id"])[0]
    bare = []
    for event in events:
        keys = list(event)
        last = keys[-2:] == ["version", "id"] and event["version"] == version
        drop = 2 if last else 1 if keys[-1:] == ["id"] else 0
        bare.append({k: event[k] for k in keys[: len(keys) - drop]})
    text = dumps(bare)
    if len(text) <= _PACK_OVER:
        return text
    packed = _PACKED + base64.b85encode(zlib.compress(text.encode(), 6)).decode()
    return packed if len(packed) < len(text) else text


def parse_entries(
    entries: list[tuple[str, dict[str, str]]],
    after: tuple[int, int] | None = None,
    count: int = 0,
) -> list[dict[str, Any]]:
    """Up to ``count`` events (0: all) of stream entries, after ``after``."""
    events: list[dict[str, Any]] = []
    for entry_id, fields in entries:
        events += _entry_events(entry_id, fields, after)
        if count and len(events) >= count:
            return events[:count]
    return events


def _script_events(
    entries: list[Any], after: tuple[int, int] | None, count: int = 0
) -> list[dict[str, Any]]:
    """Events of stream entries a script returned (fields as a flat list)."""
    pairs = [(i, dict(zip(raw[::2], raw[1::2], strict=True))) for i, raw in entries]
    return parse_entries(pairs, after, count)


class GameStore:
    """Reads and atomic writes of the games of one service (key prefix ``prefix``)."""

    def __init__(
        self,
        client: Any,
        blocking: Any,
        prefix: str,
        due_shards: int = DUE_SHARDS,
        fanout_waits: bool = False,
        copy_seconds: float = 0.0,
    ) -> None:
        self.client = client
        self.blocking = blocking
        self.prefix = prefix
        self.index_key = f"{prefix}:games"
        self._write = client.register_script(_SCRIPT)
        self._history = client.register_script(_HISTORY)
        self.rebuild: Rebuild | None = None
        self.tracking = Tracking(self)
        self._schedule = client.register_script(_SCHEDULE)
        self._unlock = client.register_script(_UNLOCK)
        self.due_shards = due_shards
        self.cluster = isinstance(client, redis.RedisCluster)
        self.fanout_waits = fanout_waits  # EVENTS_FANOUT: waits woken by shared/streaming/fanout.py
        self.copies = Copies(copy_seconds)  # WRITE_FROM_COPY_SECONDS (shared/store/recent_copies.py)

    def keys(self, game_id: str) -> tuple[str, str, str, str]:
        """The game's document, events, history tail and archive (one hash slot)."""
        base = f"{self.prefix}:{{{game_id}}}"
        return f"{base}:game", f"{base}:events", f"{base}:tail", f"{base}:hist"

    def legacy_keys(self, game_id: str) -> tuple[str, str]:
        """The moves list and idempotency hash of a game written by older code."""
        base = f"{self.prefix}:{{{game_id}}}"
        return f"{base}:moves", f"{base}:idem"

    # -- reads -------------------------------------------------------------------------

    def read(self, game_id: str, with_tail: bool = False) -> tuple[Doc | None, str | None]:
        """The game document and, if asked, its history tail: one round trip."""
        doc, tail, _ = self.read_counted(game_id, with_tail)
        return doc, tail

    def read_counted(
        self, game_id: str, with_tail: bool, counter: str | None = None, ttl: int = 0
    ) -> tuple[Doc | None, str | None, int]:
        """:meth:`read` that also counts one request on the game's counter ``counter``
        (a rate-limit window, expiring after ``ttl`` s; 0 counted without one): still
        one round trip."""
        game_key, _, tail_key, _ = self.keys(game_id)
        if counter is None:  # one command: cheaper than a pipeline of two (same slot)
            if not with_tail:
                return _doc(fastcall.call(self.client, "GET", game_key)), None, 0
            raw, tail = fastcall.call(self.client, "MGET", game_key, tail_key)
            if raw:
                self.copies.keep(game_id, raw, tail)
            return _doc(raw), tail, 0
        pipe = self.client.pipeline(transaction=False)
        pipe.get(game_key)
        if with_tail:
            pipe.get(tail_key)
        if counter is not None:
            counter_key = f"{self.prefix}:{{{game_id}}}:rl:{counter}"
            pipe.incr(counter_key)
            pipe.expire(counter_key, ttl)
        replies = pipe.execute()
        tail = replies[1] if with_tail else None
        count = int(replies[-2]) if counter is not None else 0
        if with_tail and replies[0]:
            self.copies.keep(game_id, replies[0], tail)
        return _doc(replies[0]), tail, count

    def copy_of(self, game_id: str) -> tuple[Doc, str | None] | None:
        """The game's document and history tail as this process last wrote or read them
        (see :mod:`shared.store.recent_copies`), if recent enough; a write from them is verified by
        the script's version check like any other."""
        found = self.copies.take(game_id)
        if found is None:
            return None
        doc = load_doc(found.stored)
        if found.events_from is not None:
            doc["events_from"] = found.events_from
        return doc, found.tail

    def archive(self, game_id: str) -> str | None:
        """The game's history archive (``hist``): read only for an old key's retry."""
        return self.client.get(self.keys(game_id)[3])  # type: ignore[no-any-return]

    def events(
        self, game_id: str, after: str, count: int, block_ms: int = 0
    ) -> list[dict[str, Any]]:
        """Up to ``count`` events after stream id ``after``; waits up to ``block_ms``
        (XREAD BLOCK) when there are none yet. ``block_ms=0`` never waits.

        A wait reads the stream alone; when what it got does not follow ``after`` (the
        stream was trimmed past the reader), the events are read again, with those the
        stream no longer holds rebuilt from the history (:meth:`events_now`)."""
        key = self.keys(game_id)[1]
        if block_ms <= 0:
            return self.events_now(game_id, after, count)
        reply = self.blocking.xread({key: after}, count=count, block=block_ms)
        events = parse_entries(_stream_entries(reply), position(after), count)
        if events and not contiguous(after, events[0]["id"]):
            return self.events_now(game_id, after, count)
        return events

    def events_now(self, game_id: str, after: str, count: int) -> list[dict[str, Any]]:
        """Up to ``count`` events after stream id ``after``, never waiting: one
        consistent read of the document and the stream (a read-only script); when the
        reader is behind what the stream keeps, of the document and the history, and
        the events are rebuilt (:attr:`rebuild`)."""
        version, n = position(after)
        needed = version + 1 if n == _MAX_SEQ else version
        reply = self._history(
            keys=[*self.keys(game_id), *self.legacy_keys(game_id)],
            args=[f"({after}", count, needed],
        )
        if not reply[0]:
            return []
        if len(reply) == 2:
            return _script_events(reply[1], (version, n), count)
        if self.rebuild is None:  # pragma: no cover - the games layer installs it
            raise RuntimeError("no history rebuild installed")
        return self.rebuild(load_doc(reply[0]), reply[2], reply[3], (version, n), count)

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
            events = _script_events(reply[4], None)
            return LegacyLog(doc, events, [jsoncodec.loads(raw) for raw in reply[5]])
        return History(doc, reply[2], reply[3])

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
        doc: Doc,
        expected_version: int,
        events: list[dict[str, Any]],
        ttl: int,
        history: HistoryWrite,
        due: int | None | bool = False,
        outbox: list[dict[str, Any]] | None = None,
    ) -> WriteResult:
        """Compare-and-set the game at ``expected_version`` (0: create it) to ``doc``,
        appending ``events`` (which must carry their ``id``) and writing ``history``
        (the write's record, see shared/games/history.py): all or nothing, in one
        EVALSHA.

        ``outbox``: webhook notifications (shared/webhooks) appended to the game's outbox
        stream by the same script; on a single Redis the script also signals the webhook
        ready stream, on Cluster one more round trip does after the write.

        ``due`` (ms; ``None``: nothing due; ``False``: leave the schedule alone) is the
        game's new due time for the worker. On a single Redis the same script sets it,
        atomically with the game. On Redis Cluster the due-time shard lives in another
        slot: after a successful write one more round trip lowers the entry (ZADD LT),
        and the worker corrects a due time that is too early when it finds nothing due.
        """
        inline = due is not False and not self.cluster
        outbox = outbox or []
        ready = bool(outbox) and not self.cluster
        flags = [min(1, len(events)), len(outbox), int(inline), int(ready), int(history.legacy)]
        stored = doccodec.pack(doc)  # "version" comes first: the script matches it undecoded
        args: list[Any] = [
            expected_version,
            stored,
            ttl,
            history.tail,
            history.mode,
            history.archive,
            history.trim,
            ":".join(map(str, flags)),
        ]
        if events:  # one stream entry, under the id of the write's last event
            args.extend([events[-1]["id"], _stored_events(events)])
        args.extend(dumps(note) for note in outbox)
        keys: list[str] = list(self.keys(doc["id"]))
        if inline:
            keys.append(self.due_key(doc["id"]))
            args.extend([doc["id"], "" if due is None else int(due)])
        if outbox:
            keys.append(self.outbox_key(doc["id"]))
        if ready:
            keys.append(self.ready_key(doc["id"]))
        if history.legacy:
            keys.extend(self.legacy_keys(doc["id"]))
        try:  # the script's EVALSHA on the short path (shared/store/connection.py)
            reply = fastcall.call(self.client, "EVALSHA", self._write.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:  # not run: Script loads it and runs it
            reply = self._write(keys=keys, args=args)
        game_id = doc["id"]
        if reply[0] != "ok":
            self.copies.drop(game_id)
            if len(reply) < 4 or not reply[2]:  # missing, or a create that found the game
                return WriteResult(reply[0], reply[1] if len(reply) > 1 else None)
            self.copies.keep(game_id, reply[2], reply[3])
            return WriteResult(reply[0], reply[1], (load_doc(reply[2]), reply[3]))
        raised = None
        if len(reply) > 1 and int(reply[1]) != doc.get("events_from"):
            doc["events_from"] = raised = int(reply[1])  # the stream's cap raised it
        if history.mode == "s":  # (else the tail after this write is not known here)
            self.copies.keep(game_id, stored, history.tail, raised)
        else:
            self.copies.drop(game_id)
        if not inline and due is not False and due is not None:
            self.client.zadd(self.due_key(game_id), {game_id: int(due)}, lt=True)
        if outbox and self.cluster:
            self.signal_ready(game_id)
        return WriteResult("ok")

    # -- webhooks: the outbox and the ready streams (shared/webhooks) -------------------

    def outbox_key(self, game_id: str) -> str:
        """The game's webhook outbox stream (same hash tag as the game)."""
        return f"{self.prefix}:{{{game_id}}}:outbox"

    def webhook_state_key(self, game_id: str) -> str:
        """The game's delivery state hash: cursors, attempts, statuses, the lock."""
        return f"{self.prefix}:{{{game_id}}}:whstate"

    def ready_key(self, game_id: str) -> str:
        """The ready-stream shard that tells the worker a game has notifications."""
        return self.ready_shard(zlib.crc32(game_id.encode()) % self.due_shards)

    def ready_shard(self, shard: int) -> str:
        return f"{self.prefix}:whq:{{{shard}}}"

    def signal_ready(self, game_id: str) -> None:
        """Tell the worker the game has notifications (outside the game's write)."""
        self.client.xadd(self.ready_key(game_id), {"g": game_id})

    def outbox_append(self, game_id: str, notes: list[dict[str, Any]], ttl: int) -> list[str]:
        """Append notifications outside a game write (``webhook.test``); their ids."""
        pipe = self.client.pipeline(transaction=not self.cluster)
        for note in notes:
            pipe.xadd(self.outbox_key(game_id), {"n": dumps(note)})
        pipe.expire(self.outbox_key(game_id), ttl)
        ids = pipe.execute()[: len(notes)]
        self.signal_ready(game_id)
        return [str(i) for i in ids]

    def outbox_entries(
        self, game_id: str, after: str = "-", count: int = 100
    ) -> list[tuple[str, dict[str, Any]]]:
        """Notifications after stream id ``after`` (exclusive; ``-``: from the start)."""
        start = after if after == "-" else f"({after}"
        entries = self.client.xrange(self.outbox_key(game_id), start, "+", count=count)
        return [(entry_id, jsoncodec.loads(fields["n"])) for entry_id, fields in entries]

    def outbox_recent(self, game_id: str, count: int) -> list[tuple[str, dict[str, Any]]]:
        """The last ``count`` notifications, newest first."""
        entries = self.client.xrevrange(self.outbox_key(game_id), "+", "-", count=count)
        return [(entry_id, jsoncodec.loads(fields["n"])) for entry_id, fields in entries]

    def webhook_state(self, game_id: str) -> dict[str, str]:
        return dict(self.client.hgetall(self.webhook_state_key(game_id)))

    def webhook_state_set(self, game_id: str, fields: dict[str, str], ttl: int) -> None:
        key = self.webhook_state_key(game_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, ttl)
        pipe.execute()

    def webhook_lock(self, game_id: str, owner: str, ms: int) -> bool:
        """Hold the game's deliveries for ``ms`` (renewable by the same ``owner``)."""
        key = f"{self.webhook_state_key(game_id)}:lock"
        if self.client.set(key, owner, nx=True, px=ms):
            return True
        return bool(self._unlock(keys=[key], args=["renew", owner, ms]))

    def webhook_unlock(self, game_id: str, owner: str) -> None:
        key = f"{self.webhook_state_key(game_id)}:lock"
        self._unlock(keys=[key], args=["release", owner, 0])

    def ready_group(self, shard: int, group: str) -> None:
        """Create the consumer group of a ready shard (and the stream) if missing."""
        try:
            self.client.xgroup_create(self.ready_shard(shard), group, id="0", mkstream=True)
        except redis.exceptions.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def ready_read_all(
        self, group: str, consumer: str, count: int, idle_ms: int
    ) -> list[tuple[int, str, str]]:
        """Ready entries ``(shard, entry id, game id)`` of every shard for ``consumer``:
        first those another consumer held longer than ``idle_ms`` (XAUTOCLAIM: a dead or
        slow worker, or a game waiting for its backoff), then new ones (XREADGROUP).
        One pipelined round trip on a single Redis; a missing group is created."""
        try:
            return self._ready_read_all(group, consumer, count, idle_ms)
        except redis.exceptions.ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
        for shard in range(self.due_shards):
            self.ready_group(shard, group)
        return self._ready_read_all(group, consumer, count, idle_ms)

    def _ready_read_all(
        self, group: str, consumer: str, count: int, idle_ms: int
    ) -> list[tuple[int, str, str]]:
        pipe = self.client.pipeline(transaction=False)
        for shard in range(self.due_shards):
            key = self.ready_shard(shard)
            pipe.xautoclaim(key, group, consumer, idle_ms, "0-0", count=count)
            pipe.xreadgroup(group, consumer, {key: ">"}, count=count)
        replies = pipe.execute()
        found: list[tuple[int, str, str]] = []
        for shard in range(self.due_shards):
            claimed, fresh = replies[2 * shard], replies[2 * shard + 1]
            found += [(shard, i, f["g"]) for i, f in claimed[1] if f]
            found += [(shard, i, f["g"]) for i, f in _stream_entries(fresh)]
        return found

    def ready_done(self, shard: int, group: str, entry_ids: list[str]) -> None:
        """Acknowledge and delete handled ready entries."""
        if entry_ids:
            pipe = self.client.pipeline(transaction=False)
            pipe.xack(self.ready_shard(shard), group, *entry_ids)
            pipe.xdel(self.ready_shard(shard), *entry_ids)
            pipe.execute()

    # -- the worker's schedule ---------------------------------------------------------

    def due_key(self, game_id: str) -> str:
        """The due-time shard of a game: ``<p>:due:{<k>}``, k = crc32(id) % shards (each
        shard its own hash tag, so the shards spread over a cluster's nodes)."""
        return self.shard_key(zlib.crc32(game_id.encode()) % self.due_shards)

    def shard_key(self, shard: int) -> str:
        return f"{self.prefix}:due:{{{shard}}}"

    def claim_due(
        self, shard: int, now_ms: int, lease_ms: int, limit: int
    ) -> list[tuple[str, int]]:
        """Games of ``shard`` due by ``now_ms``, claimed for ``lease_ms``: ``(id, score)``
        with the claimed score to pass to :meth:`reschedule`."""
        reply = self._schedule(
            keys=[self.shard_key(shard)], args=["claim", now_ms, lease_ms, limit]
        )
        return [(reply[i], int(reply[i + 1])) for i in range(0, len(reply), 2)]

    def claim_all_due(self, now_ms: int, lease_ms: int, limit: int) -> list[tuple[str, int]]:
        """:meth:`claim_due` over every shard: one pipelined round trip on a single Redis,
        one call per shard on Cluster (the shards live on different nodes)."""
        if self.cluster:
            found = []
            for shard in range(self.due_shards):
                found += self.claim_due(shard, now_ms, lease_ms, limit)
            return found
        pipe = self.client.pipeline(transaction=False)
        for shard in range(self.due_shards):
            self._schedule(
                keys=[self.shard_key(shard)], args=["claim", now_ms, lease_ms, limit], client=pipe
            )
        found = []
        for reply in pipe.execute():
            found += [(reply[i], int(reply[i + 1])) for i in range(0, len(reply), 2)]
        return found

    def reschedule(self, game_id: str, expected: int, due: int | None) -> bool:
        """Move a claimed game to ``due`` (``None``: drop it) unless a write moved it."""
        args = ["set", game_id, expected, "" if due is None else int(due)]
        return bool(self._schedule(keys=[self.due_key(game_id)], args=args))

    def due_score(self, game_id: str) -> int | None:
        """The game's due time in the schedule (tests and diagnostics)."""
        score = self.client.zscore(self.due_key(game_id), game_id)
        return None if score is None else int(score)

    def discard(self, game_id: str) -> None:
        """Delete every key of a game (undoes a create that could not be listed). DEL
        frees memory, so Redis runs it even when it refuses writes for lack of it."""
        self.client.delete(*self.keys(game_id), *self.legacy_keys(game_id))

    # -- listing -----------------------------------------------------------------------

    def index_add(self, game_id: str, created_us: int, max_age_s: int) -> None:
        """Add a game to the listing and drop index entries older than any game can live."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(self.index_key, {game_id: created_us})
        pipe.zremrangebyscore(self.index_key, "-inf", created_us - max_age_s * 1_000_000)
        pipe.execute()

    def list_games(
        self, status: str | None, limit: int, cursor: str | None, index: str | None = None
    ) -> tuple[list[Doc], str | None]:
        """Games newest first, optionally of one ``status``, and the cursor of the next
        page (``None`` at the end). Ids whose document expired are dropped from the index.
        At most about ``_LIST_SCAN_CAP`` ids are looked at per page. ``index``: another
        listing index than all games' (one API key's, see :class:`Tracking`)."""
        index = index or self.index_key
        bound, last_id = decode_cursor(cursor) if cursor else (None, None)
        found: list[Doc] = []
        scanned = 0
        while True:
            batch, more = self._batch_after(bound, last_id, index)
            if not batch:
                return found, None
            gone = []
            for gid, score, raw in batch:
                bound, last_id = score, gid
                scanned += 1
                if raw is None:
                    gone.append(gid)
                    continue
                doc = load_doc(raw)
                if status is None or doc["status"] == status:
                    found.append(doc)
                    if len(found) == limit:
                        break
            if gone:
                self.client.zrem(index, *gone)
            if len(found) == limit or (more and scanned >= _LIST_SCAN_CAP):
                assert bound is not None and last_id is not None  # the batch was not empty
                return found, _encode_cursor(bound, last_id)
            if not more:
                return found, None

    def _batch_after(
        self, bound: int | None, last_id: str | None, index: str | None = None
    ) -> tuple[list[tuple[str, int, str | None]], bool]:
        """The next index entries ``(id, score, document or None)`` after the position
        ``(bound, last_id)`` (two round trips), and whether more may follow."""
        batch = self.client.zrange(
            index or self.index_key,
            "+inf" if bound is None else bound,
            "-inf",
            desc=True,
            byscore=True,
            offset=0,
            num=_LIST_BATCH,
            withscores=True,
        )
        more = len(batch) == _LIST_BATCH
        # Ties on the score come in descending id order: skip those already passed.
        batch = [
            (gid, int(score))
            for gid, score in batch
            if not (last_id is not None and int(score) == bound and gid >= last_id)
        ]
        pipe = self.client.pipeline(transaction=False)
        for gid, _ in batch:
            pipe.get(self.keys(gid)[0])
        raws = pipe.execute() if batch else []
        return [(gid, score, raw) for (gid, score), raw in zip(batch, raws, strict=True)], more


def now_us() -> int:
    """Wall-clock time in microseconds (listing order)."""
    return time.time_ns() // 1000


# -- status sets and API-key bookkeeping (shared/http/middleware/apikeys.py, the games-by-status gauge) --
#
# Each status has a sorted set of game ids scored by when they entered it, and each API
# key its own listing index, a set of its live (open or running) games and a log of its
# recent creations. They live outside the games' hash slots, so they are written by a
# pipeline after the game's own write (like the listing index); a game whose document
# expired is pruned from them when they are read.

LIVE_STATUSES = ("open", "running")
OVER_STATUSES = ("finished", "cancelled")
_PRUNE_BATCH = 200


class Tracking:
    """The status sets and per-key sets of one :class:`GameStore`."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.client = store.client
        self.prefix = store.prefix

    def status_key(self, status: str) -> str:
        return f"{self.prefix}:status:{status}"

    def owner_index(self, owner: str) -> str:
        """The listing index of one API key's games (like ``<p>:games``)."""
        return f"{self.prefix}:key:{owner}:games"

    def owner_live(self, owner: str) -> str:
        return f"{self.prefix}:key:{owner}:live"

    def owner_created(self, owner: str) -> str:
        return f"{self.prefix}:key:{owner}:created"

    def moved(
        self,
        game_id: str,
        old: str | None,
        new: str,
        owner: str | None,
        created_us: int | None = None,
        max_age_s: int = 0,
    ) -> None:
        """Record that a game went from ``old`` (``None``: created) to ``new``: one round
        trip. A created game also joins its owner's listing index and live set.

        Bookkeeping only: the game's own write already happened, so a failure here is
        logged, never raised (the status sets are pruned and corrected as they are read).
        """
        try:
            self._moved(game_id, old, new, owner, created_us, max_age_s)
        except redis.exceptions.RedisError as error:
            log.warning("status bookkeeping of %s failed: %s", game_id, error)

    def _moved(
        self,
        game_id: str,
        old: str | None,
        new: str,
        owner: str | None,
        created_us: int | None,
        max_age_s: int,
    ) -> None:
        now_s = time.time()
        pipe = self.client.pipeline(transaction=False)
        if old is not None:
            pipe.zrem(self.status_key(old), game_id)
        pipe.zadd(self.status_key(new), {game_id: now_s})
        if owner is not None:
            if old is None and created_us is not None:
                index = self.owner_index(owner)
                pipe.zadd(index, {game_id: created_us})
                pipe.zremrangebyscore(index, "-inf", created_us - max_age_s * 1_000_000)
                pipe.zadd(self.owner_live(owner), {game_id: now_s})
            if new in OVER_STATUSES:
                pipe.zrem(self.owner_live(owner), game_id)
        pipe.execute()

    def _prune_gone(self, key: str, older_than: float) -> None:
        """Drop members of ``key`` scored before ``older_than`` whose game document is
        gone (expired); the ones still there are rescored to now (not checked again
        soon). Two round trips, only when there are such members."""
        old = self.client.zrangebyscore(key, "-inf", older_than, start=0, num=_PRUNE_BATCH)
        if not old:
            return
        pipe = self.client.pipeline(transaction=False)
        for game_id in old:
            pipe.exists(self.store.keys(game_id)[0])
        alive = pipe.execute()
        gone = [gid for gid, there in zip(old, alive, strict=True) if not there]
        kept = {gid: time.time() for gid, there in zip(old, alive, strict=True) if there}
        pipe = self.client.pipeline(transaction=False)
        if gone:
            pipe.zrem(key, *gone)
        if kept:
            pipe.zadd(key, kept, xx=True)
        pipe.execute()

    def status_counts(self, ttl_idle: int, ttl_finished: int) -> dict[str, int]:
        """Games stored now by status: over games expire ``ttl_finished`` after they
        ended; live ones are checked once they are ``ttl_idle`` old."""
        now_s = time.time()
        for status in LIVE_STATUSES:
            self._prune_gone(self.status_key(status), now_s - ttl_idle)
        pipe = self.client.pipeline(transaction=False)
        for status in OVER_STATUSES:
            pipe.zremrangebyscore(self.status_key(status), "-inf", now_s - ttl_finished)
        for status in (*LIVE_STATUSES, *OVER_STATUSES):
            pipe.zcard(self.status_key(status))
        replies = pipe.execute()[len(OVER_STATUSES) :]
        return dict(zip((*LIVE_STATUSES, *OVER_STATUSES), map(int, replies), strict=True))

    def reserve(
        self, owner: str, member: str, window_s: int, settle_s: float
    ) -> tuple[int, float | None, int]:
        """Reserve one creation for ``owner`` (``member``: unique per request): counts
        it in the key's creation log (the last ``window_s`` seconds) and holds a place in
        its live set. Returns the creations in the window (this one included), the
        oldest one's time and the live games (this one included). Placeholders older
        than ``settle_s`` whose game never appeared are pruned first."""
        now_s = time.time()
        live_key, created_key = self.owner_live(owner), self.owner_created(owner)
        self._prune_gone(live_key, now_s - settle_s)
        pipe = self.client.pipeline(transaction=False)
        pipe.zremrangebyscore(created_key, "-inf", now_s - window_s)
        pipe.zadd(created_key, {member: now_s})
        pipe.zcard(created_key)
        pipe.zrange(created_key, 0, 0, withscores=True)
        pipe.expire(created_key, window_s + 60)
        pipe.zadd(live_key, {member: now_s})
        pipe.zcard(live_key)
        replies = pipe.execute()
        oldest = replies[3][0][1] if replies[3] else None
        return int(replies[2]), oldest, int(replies[6])

    def release(self, owner: str, member: str, *, creation: bool) -> None:
        """Give back a reservation's live place (and, with ``creation``, its count)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(self.owner_live(owner), member)
        if creation:
            pipe.zrem(self.owner_created(owner), member)
        pipe.execute()

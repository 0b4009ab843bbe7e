"""A game's history in compact records: one per write, enough to rebuild every event and
every move by replaying the pure engine from the seed.

Why: the full event stream and moves list cost 20-70 KB per game in Redis. The engine
is deterministic, so the events a move produced need not be stored: a write's record
keeps its version, time, the move (seat and move, and the idempotency key's hash) and
only the events the engine did not produce (``pre``: e.g. ``seat_timed_out``; ``post``:
e.g. ``game_finished``). Other writes (join, start, resign...) keep their events.

Records are compact JSON lines (``t`` as a delta in ms from the record before, the
first of a tail or chunk absolute):

- a move: ``[v, t, seat, move, key_hash, pre, post]``;
- any other write: ``[v, t, events]``;

with empty trailing parts left out. The store keeps the newest records as text lines
in the game's ``tail`` (its first line: the 4-character prefixes of the key hashes of
every archived keyed move, a filter that says when an old key may be in the archive),
and the older ones in ``hist``, one line per chunk: ``1:`` + base85(zlib(record lines))
with the preset dictionary ``history-1.dict`` (typical record text of both games, made
by scripts/history_dictionary.py: a chunk 13-30% smaller), or, written before it,
base85(zlib(record lines)) alone (``:`` is not a base85 character).
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from shared.engine import Engine
from shared.games.document import GameDoc
from shared.store import dumps, jsoncodec

Record = list[Any]
Event = dict[str, Any]
PREFIX = 4
"""Characters of a key hash kept in the tail's filter (24 bits)."""


def key_hash(idem_field: str) -> str:
    """48 bits of the SHA-256 of an idempotency field ``<digest32>:<key>``, base64url."""
    return base64.urlsafe_b64encode(hashlib.sha256(idem_field.encode()).digest()[:6]).decode()


def ms_of(text: str) -> int:
    """An ``updated_at`` text (ISO 8601, ms, ``Z``) as ms since the epoch."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return int(moment.timestamp() * 1000 + 0.5)


def text_of(ms: int) -> str:
    """The ``updated_at`` text of ``ms`` (the inverse of :func:`ms_of`)."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# -- records ---------------------------------------------------------------------------


def move_record(
    version: int,
    ms: int,
    seat: int,
    move: dict[str, Any],
    key: str | None,
    pre: list[Event],
    post: list[Event],
) -> Record:
    """The record of a write that applied ``move`` (``ms`` absolute)."""
    return _trim([version, ms, seat, move, key, pre, post], 4)


def other_record(version: int, ms: int, events: list[Event]) -> Record:
    """The record of a write without a move (``ms`` absolute)."""
    return _trim([version, ms, events], 2)


def _trim(record: Record, keep: int) -> Record:
    while len(record) > keep and record[-1] in ([], None):
        record.pop()
    return record


def is_move(record: Record) -> bool:
    return len(record) >= 4


def record_key(record: Record) -> str | None:
    return record[4] if len(record) > 4 else None


def record_events(record: Record, engine_events: list[Event]) -> list[Event]:
    """The write's events in order (without id and version)."""
    if not is_move(record):
        return list(record[2]) if len(record) > 2 else []
    pre = record[5] if len(record) > 5 else []
    post = record[6] if len(record) > 6 else []
    return [*pre, *engine_events, *post]


# -- the tail and the chunks -----------------------------------------------------------


@dataclass
class Tail:
    """The decoded tail: the archived keys' filter and the records not archived yet
    (their times still deltas: see :func:`resolve`)."""

    filter: str
    records: list[Record]


def parse_tail(text: str | None) -> Tail:
    """The tail as stored (``None``: none yet, or the game is over)."""
    if not text:
        return Tail("", [])
    first, *lines = text.split("\n")
    return Tail(first, [jsoncodec.loads(line) for line in lines])


def in_filter(tail: str | None, key: str) -> bool:
    """Whether the tail's filter holds the prefix of ``key`` (an archived keyed move
    may have it; a false positive costs one archive read)."""
    if not tail:
        return False
    line, prefix = tail.split("\n", 1)[0], key[:PREFIX]
    at = line.find(prefix)
    while at >= 0:
        if at % PREFIX == 0:
            return True
        at = line.find(prefix, at + 1)
    return False


def resolve(records: list[Record]) -> list[Record]:
    """Records of the whole game in order, their delta times made absolute (each is
    stored relative to the record before it; the game's first record is absolute)."""
    last, out = 0, []
    for record in records:
        last += record[1]
        out.append([record[0], last, *record[2:]])
    return out


def encode_line(record: Record, last_ms: int | None) -> str:
    """A record's line, its time relative to the write before (``None``: the first)."""
    stored = list(record)
    if last_ms is not None:
        stored[1] = record[1] - last_ms
    return dumps(stored)


_DICTIONARY = "1"
_DICTIONARIES = {
    _DICTIONARY: (Path(__file__).with_name(f"history-{_DICTIONARY}.dict")).read_bytes()
}
"""Every dictionary a stored chunk may name: frozen, each kept while such games live."""


def encode_chunk(lines: list[str]) -> str:
    """One archive line (text, for the store's decoding clients)."""
    packer = zlib.compressobj(9, zdict=_DICTIONARIES[_DICTIONARY])
    packed = packer.compress("\n".join(lines).encode()) + packer.flush()
    return f"{_DICTIONARY}:{base64.b85encode(packed).decode()}"


def _chunk_text(chunk: str) -> str:
    name, colon, packed = chunk.rpartition(":")
    if not colon:  # written before the dictionaries
        return zlib.decompress(base64.b85decode(chunk)).decode()
    unpacker = zlib.decompressobj(zdict=_DICTIONARIES[name])
    return (unpacker.decompress(base64.b85decode(packed)) + unpacker.flush()).decode()


def decode_hist(text: str | None) -> list[Record]:
    """Every archived record, in order (times still deltas)."""
    records: list[Record] = []
    for chunk in (text or "").split("\n"):
        if chunk:
            records.extend(jsoncodec.loads(line) for line in _chunk_text(chunk).split("\n"))
    return records


def merge(*parts: Iterable[Record]) -> list[Record]:
    """Records of several reads (an archive read after the tail may hold some of the
    same records, moved there meanwhile), each version once, in order: with their
    times resolved (:func:`resolve`)."""
    seen: dict[int, Record] = {}
    for part in parts:
        for record in part:
            seen.setdefault(record[0], record)
    return resolve([seen[v] for v in sorted(seen)])


def stored(tail: str | None, hist: str | None) -> list[Record]:
    """Every record of a game from its stored tail and archive (one consistent read)."""
    return merge(decode_hist(hist), parse_tail(tail).records)


def find_key(records: Iterable[Record], key: str) -> Record | None:
    return next((r for r in records if is_move(r) and record_key(r) == key), None)


# -- rebuilding ------------------------------------------------------------------------


@dataclass
class Write:
    """One write rebuilt: its version, time, events (stamped) and move, if any."""

    version: int
    ms: int
    events: list[Event]
    move: dict[str, Any] | None
    state: Any


def replay(engine: Engine, doc: GameDoc, records: Iterable[Record]) -> Iterator[Write]:
    """The game's writes rebuilt in order: the engine replays every move from the
    document's seed (set up at the first move, with the game's players and options)."""
    state: Any = None
    for record in records:
        version, engine_events, move = record[0], [], None
        if is_move(record):
            if state is None:
                state = engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
            state, produced = engine.apply_move(state, record[2], record[3])
            engine_events = jsoncodec.loads(dumps(list(produced)))  # as stored: plain JSON
            move = {"seat": record[2], "move": record[3], "version": version}
        events = [
            {**event, "version": version, "id": f"{version}-{n}"}
            for n, event in enumerate(record_events(record, engine_events))
        ]
        yield Write(version, record[1], events, move, state)


def all_moves(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Every applied move ``{seat, move, version}`` (no replay needed)."""
    return [{"seat": r[2], "move": r[3], "version": r[0]} for r in records if is_move(r)]


def events_after(
    engine: Engine, doc: GameDoc, records: Iterable[Record], after: tuple[int, int], count: int
) -> list[Event]:
    """Up to ``count`` events after position ``(version, n)``, rebuilt."""
    found: list[Event] = []
    for write in replay(engine, doc, records):
        if write.version < after[0]:
            continue
        found += [e for n, e in enumerate(write.events) if (write.version, n) > after]
        if len(found) >= count:
            break
    return found[:count]


def write_at(engine: Engine, doc: GameDoc, records: Iterable[Record], version: int) -> Write:
    """The write that made ``version`` (its state: the engine's after it)."""
    for write in replay(engine, doc, records):
        if write.version == version:
            return write
    raise LookupError(f"no record of version {version}")

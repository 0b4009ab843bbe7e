"""Each write's history record (shared/games/history.py) and the search for an
``Idempotency-Key`` among them: what the write loop adds to every write."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games import history
from shared.games.base import OVER, Outcome
from shared.games.document import GameDoc
from shared.store import GameStore, HistoryWrite, jsoncodec


@dataclass(frozen=True)
class Retry:
    """A move's record found by its key hash, with the game's records up to now
    (times resolved), enough to rebuild the move's first answer."""

    record: history.Record
    records: list[history.Record]


def find(
    store: GameStore, doc: GameDoc, tail: str | None, key: str, archive: str | None = None
) -> Retry | None:
    """The record of the keyed move ``key`` if the game has one. The tail is searched
    first; the archive is read (one more round trip) only when the key is in the tail
    (the replay needs every record), its prefix is in the tail's filter, or the game is
    over (its tail is archived whole). ``archive``: already read (a migrated game)."""
    needle = f'"{key}"'
    found = tail is not None and needle in tail
    if found:
        found = history.find_key(history.parse_tail(tail).records, key) is not None
    over = doc["status"] in OVER
    if not found and not over and not history.in_filter(tail, key):
        return None
    if archive is None:
        archive = store.archive(doc["id"])
    records = history.merge(history.decode_hist(archive), history.parse_tail(tail).records)
    record = history.find_key(records, key)
    return None if record is None else Retry(record, records)


def first_write(doc: GameDoc, events: list[dict[str, Any]]) -> HistoryWrite:
    """The history of a game's creation (its document gets ``events_from``)."""
    record = history.other_record(doc["version"], history.ms_of(doc["updated_at"]), events)
    return HistoryWrite("\n" + history.encode_line(record, None), "s")


def next_write(
    settings: dict[str, Any],
    old: GameDoc,
    new: GameDoc,
    outcome: Outcome,
    tail: str | None,
    key: str | None,
) -> HistoryWrite:
    """The history of the write from ``old`` to ``new``: the tail with its record
    appended, or with the tail's records compressed into one archive chunk once the tail
    holds ``HISTORY_CHUNK_RECORDS`` records or the game ends (no extra read: the tail
    came with the document). Sets ``new["events_from"]``: the stream keeps the events
    of the last ``HISTORY_STREAM_WRITES`` writes (fewer when they exceed
    ``HISTORY_STREAM_BYTES``: the write script then raises it); an ended game's stream is started
    anew with the last write's events (waiting readers still get them) and expires
    after ``HISTORY_ENDED_STREAM_SECONDS`` (later readers get the events rebuilt)."""
    version = new["version"]
    over = new["status"] in OVER
    kept = max(old.get("events_from", 1), version - settings["HISTORY_STREAM_WRITES"] + 1)
    events_from = version if over or outcome.restart_stream else kept
    new["events_from"] = events_from
    grace = settings["HISTORY_ENDED_STREAM_SECONDS"]
    budget = settings["HISTORY_STREAM_BYTES"]
    trim = f"!{grace}" if over else f"{events_from}:{budget}"
    ms = history.ms_of(new["updated_at"])
    events = outcome.events
    if outcome.moves:
        (move,) = outcome.moves
        if outcome.engine_events is None:
            raise ValueError("a move's outcome must mark its engine events")
        start, count = outcome.engine_events
        record = history.move_record(
            version, ms, move["seat"], move["move"], key, events[:start], events[start + count :]
        )
    else:
        record = history.other_record(version, ms, events)
    line = history.encode_line(record, history.ms_of(old["updated_at"]))
    held = tail.count("\n") if tail else 0
    if not over and held + 1 < settings["HISTORY_CHUNK_RECORDS"]:
        # The whole new tail, set: ``tail`` came with the document and the write is
        # refused unless the version is still the one read, so it is the stored tail;
        # the script then need not read it into Lua and append (a copy each way).
        return HistoryWrite((tail or "") + "\n" + line, "s", trim=trim)
    first, *lines = tail.split("\n") if tail else [""]
    lines.append(line)
    archive = history.encode_chunk(lines) + "\n"
    if over:
        return HistoryWrite("", "d", archive, trim)
    keys = (history.record_key(jsoncodec.loads(x)) for x in lines)
    return HistoryWrite(first + "".join(k[: history.PREFIX] for k in keys if k), "s", archive, trim)

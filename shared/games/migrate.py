"""Games written by older code (a full event stream, a ``moves`` list and an ``idem``
hash, no ``events_from``): their history built from those keys, once, by the first
write after the upgrade (one more round trip), which then deletes the old keys."""

from __future__ import annotations

import json
from typing import Any

from shared.games import history
from shared.games.base import OVER, Context
from shared.games.document import GameDoc
from shared.store import HistoryWrite, dumps

_PLAIN = ("version", "id")


def history_of(ctx: Context, doc: GameDoc) -> tuple[str | None, str]:
    """The tail and archive the game would have if the current code had written it:
    every record archived (chunks of ``HISTORY_CHUNK_RECORDS``), the tail only the
    filter of the keyed moves (none once the game is over)."""
    engine = ctx.engine
    stream, moves, idem = ctx.store.legacy(doc["id"])
    events: dict[int, list[dict[str, Any]]] = {}
    for event in stream:
        plain = {k: v for k, v in event.items() if k not in _PLAIN}
        events.setdefault(event["version"], []).append(plain)
    keyed: dict[int, tuple[str, int]] = {}
    for field, value in idem.items():
        at, updated_at, *_ = value.split(" ")
        keyed[int(at)] = (history.key_hash(field), history.ms_of(updated_at))
    applied = {move["version"]: move for move in moves}
    state: Any = None
    last = history.ms_of(doc["created_at"])
    lines: list[str] = []
    for version in range(1, doc["version"] + 1):
        found = events.get(version, [])
        key, ms = keyed.get(version, (None, last))
        if version == doc["version"]:
            ms = history.ms_of(doc["updated_at"])  # the next write's time is relative to it
        move = applied.get(version)
        if move is None:
            record = history.other_record(version, ms, found)
        else:
            if state is None:
                state = engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
            state, produced = engine.apply_move(state, move["seat"], move["move"])
            plain = json.loads(dumps(list(produced)))
            start = _find(found, plain)
            pre, post = found[:start], found[start + len(plain) :]
            record = history.move_record(version, ms, move["seat"], move["move"], key, pre, post)
        lines.append(history.encode_line(record, None if version == 1 else last))
        last = ms
    size = ctx.settings["HISTORY_CHUNK_RECORDS"]
    archive = "".join(
        history.encode_chunk(lines[at : at + size]) + "\n" for at in range(0, len(lines), size)
    )
    prefixes = "".join(key[: history.PREFIX] for key, _ in keyed.values())
    return (None if doc["status"] in OVER else prefixes), archive


def _find(events: list[dict[str, Any]], produced: list[dict[str, Any]]) -> int:
    """Where the engine's events of a move start among the write's events."""
    for start in range(len(events) - len(produced) + 1):
        if events[start : start + len(produced)] == produced:
            return start
    raise ValueError("the stored events do not hold the replayed move's events")


def with_archive(written: HistoryWrite, tail: str | None, archive: str) -> HistoryWrite:
    """A migrating write: the built tail and archive stored with the write's own
    record, and the old keys deleted, in the same script."""
    text = (tail or "") + written.tail if written.mode == "a" else written.tail
    mode = "s" if written.mode == "a" else written.mode
    return HistoryWrite(text, mode, archive + written.archive, written.trim, legacy=True)

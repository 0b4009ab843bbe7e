"""A game's events in its stream: event ids, read positions, and how a write's events
are kept in its one stream entry. Pure functions, no Redis.

Event ids are chosen by the store, not by Redis: ``<version>-<n>`` for the n-th event of
the write that produced ``version``. They increase with every write, so they are valid
stream ids, and anyone holding an event id knows which version it belongs to. The stream
holds one entry per write (fewer entries, less overhead per event): its id is the id of
the write's last event, its one field ``w`` the write's events as a JSON list, without
their ids and versions (compressed, ``"z:" + base85(zlib(json))``, when long). A read
after ``v-n`` gets that entry when ``n`` is not its last event, and keeps its events
after ``n`` (:func:`entry_events`). Streams written by older code hold one event per
entry (field ``e``), read as they are.

May import the store's own ``jsoncodec`` only.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

from shared.store import jsoncodec

CHAT_SEQ = 2**32
"""The first sequence number of a chat message's id (``<v>-<2**32 + j>``, the j-th
message sent at version v: shared/store/chat.py): after every event a write makes, so
a chat message sorts after the events of its version and before those of the next, and
one cursor reads both streams."""
PACKED = "z:"
_PACK_OVER = 512
"""A write's events longer than this (JSON bytes) are stored compressed in its stream
entry: a big write (a Wind City round's end) then still fits a stream node of
``stream-node-max-bytes 1024``."""


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
    means after every event of versions ``<= v`` (and before the chat messages sent at
    version v: ``v-<CHAT_SEQ - 1>``); ``"v-n"`` is an event id or a message id."""
    if not after or after == "0":
        return "0-0"
    if "-" not in after:
        return f"{int(after)}-{CHAT_SEQ - 1}"
    return after


def stream_entries(reply: Any) -> list[tuple[str, dict[str, str]]]:
    """Entries of the one stream in an XREAD reply (RESP2 list or RESP3 dict)."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return list(next(iter(reply.values()))[0])
    return list(reply[0][1])


def entry_events(
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
    if raw.startswith(PACKED):
        raw = zlib.decompress(base64.b85decode(raw[len(PACKED) :])).decode()
    events: list[dict[str, Any]] = jsoncodec.loads(raw)
    first = after[1] + 1 if after is not None and after[0] == version else 0
    out = []
    for n in range(first, len(events)):
        event = events[n]
        if "version" not in event:  # dropped when it came last (see stored_events)
            event["version"] = version
        event["id"] = f"{version}-{n}"
        out.append(event)
    return out


def stored_events(events: list[dict[str, Any]]) -> str:
    """A write's events as its stream entry holds them: without their ids, and without
    their version where it comes last (it is the entry's; read back in the same place)."""
    version = position(events[-1]["id"])[0]
    bare = []
    for event in events:
        keys = list(event)
        last = keys[-2:] == ["version", "id"] and event["version"] == version
        drop = 2 if last else 1 if keys[-1:] == ["id"] else 0
        bare.append({k: event[k] for k in keys[: len(keys) - drop]})
    text = jsoncodec.dumps_text(bare)  # (what shared.store.dumps writes)
    if len(text) <= _PACK_OVER:
        return text
    packed = PACKED + base64.b85encode(zlib.compress(text.encode(), 6)).decode()
    return packed if len(packed) < len(text) else text


def parse_entries(
    entries: list[tuple[str, dict[str, str]]],
    after: tuple[int, int] | None = None,
    count: int = 0,
) -> list[dict[str, Any]]:
    """Up to ``count`` events (0: all) of stream entries, after ``after``."""
    events: list[dict[str, Any]] = []
    for entry_id, fields in entries:
        events += entry_events(entry_id, fields, after)
        if count and len(events) >= count:
            return events[:count]
    return events


def script_events(
    entries: list[Any], after: tuple[int, int] | None, count: int = 0
) -> list[dict[str, Any]]:
    """Events of stream entries a script returned (fields as a flat list)."""
    pairs = [(i, dict(zip(raw[::2], raw[1::2], strict=True))) for i, raw in entries]
    return parse_entries(pairs, after, count)

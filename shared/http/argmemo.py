"""A memo of request-argument loads, for the schemas whose load is a pure function of
the raw bytes (the move body, the view's query string).

Parsing a move (strict JSON, then the marshmallow schema) costs about a tenth of a
``POST /moves``' CPU, yet players send the same few hundred bodies again and again. A
schema marked with :func:`memoized` keeps what its loads returned, by the raw bytes
they came from: a repeat skips the parse and gets a fresh copy (decoded from the
JSON kept), never an object shared with an earlier request. Only successful loads
whose result is plain JSON data (dicts with string keys, lists, strings, numbers,
booleans, null: what survives the copy unchanged) are kept; errors always take the
full path, so every answer stays what the schema alone would give.

Bounded: bodies up to :data:`LONGEST` bytes, at most :data:`ENTRIES` per schema (the
oldest dropped first), so a client sending endless new bodies only pays the plain parse.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

import orjson
from marshmallow import Schema

ENTRIES = 2048
LONGEST = 512
_MEMOS: WeakKeyDictionary[Schema, LoadMemo] = WeakKeyDictionary()


class LoadMemo:
    """The kept loads of one schema: raw request bytes -> the loaded value as JSON."""

    def __init__(self, entries: int = ENTRIES, longest: int = LONGEST) -> None:
        self.entries = entries
        self.longest = longest
        self._kept: dict[bytes, bytes] = {}

    def get(self, raw: bytes) -> Any | None:
        """A fresh copy of what ``raw`` loaded to before; ``None`` if not kept."""
        kept = self._kept.get(raw)
        return None if kept is None else orjson.loads(kept)

    def put(self, raw: bytes, value: Any) -> None:
        """Keep ``value`` (what ``raw`` loaded to) if it is plain JSON data."""
        if len(raw) > self.longest or not _plain(value):
            return
        if len(self._kept) >= self.entries:
            del self._kept[next(iter(self._kept))]
        self._kept[raw] = orjson.dumps(value)


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` comes back from a JSON round trip as it went in (same types)."""
    kind = type(value)
    if kind in (str, int, bool) or value is None:
        return kind is not int or -(2**63) <= value < 2**64
    if kind is float:
        return value == value and value not in (float("inf"), float("-inf"))
    if depth > 32:
        return False
    if kind is list:
        return all(_plain(item, depth + 1) for item in value)
    if kind is dict:
        return all(type(k) is str and _plain(v, depth + 1) for k, v in value.items())
    return False


def memoized(schema: Schema) -> Schema:
    """Mark ``schema`` (an instance whose load depends on its input alone) for the memo."""
    _MEMOS[schema] = LoadMemo()
    return schema


def memo_of(schema: Any) -> LoadMemo | None:
    """The memo of a marked schema; ``None`` for any other argument map."""
    if not isinstance(schema, Schema):
        return None
    return _MEMOS.get(schema)

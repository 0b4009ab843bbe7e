"""JSON encoding and decoding for the kit: orjson, with the standard library as fallback.

orjson encodes a game's view several times faster than ``json.dumps``. Its output is
compact UTF-8 (no ASCII escapes), keys in insertion order: byte for byte what Flask's
provider wrote with ``ensure_ascii=False`` for the strings, integers, booleans, nulls,
lists and objects the answers hold (a float may be spelled differently, e.g. ``1e16`` for
``1e+16``: the same number). What orjson refuses and Python's ``json`` takes is handed
to the standard library instead of failing: integers beyond 64 bits, non-string keys
(``{1: ...}`` becomes ``{"1": ...}``) and lone surrogates.

Request bodies are parsed by :mod:`shared.http.jsonbody` (strict: depth, duplicate keys,
huge integers), never by :func:`loads`, which trusts its input (the store's own writes).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

Default = Callable[[Any], Any] | None

_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def dumps(value: Any, default: Default = None) -> bytes:
    """``value`` as compact UTF-8 JSON bytes; ``default`` converts what JSON cannot hold
    (as ``json.dumps``'s ``default``: datetimes and dataclasses go to it too)."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS)
    except TypeError:  # a 65-bit integer or a non-string key: json's own rules
        text = json.dumps(value, default=default, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8", "surrogatepass")


def dumps_text(value: Any, default: Default = None) -> str:
    """:func:`dumps` as a ``str``."""
    return dumps(value, default).decode("utf-8", "surrogatepass")


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """Parse trusted JSON (written by the kit). Raises ``ValueError`` on invalid input."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson refuses integers beyond 64 bits and lone surrogates, which json takes
        text = data if isinstance(data, str) else bytes(data).decode("utf-8", "surrogatepass")
        return json.loads(text)

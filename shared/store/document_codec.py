"""How a game document is stored: its head in plain JSON, the rest compressed.

Why: a 4-player game's document is 2-2.5 KB of JSON, the largest of its keys in Redis.
zstd with a preset dictionary trained on documents of both games (``document-N.dict``,
made by ``scripts/document_dictionary.py`` and frozen) stores it in about 0.7 KB
(base64 included), for about 10-15 µs more CPU a write than plain JSON and, for a
document this process wrote or read last, 1.5 µs a read (8 µs otherwise).

The stored text is itself JSON: ``{"version":V,"events_from":F,"z":"N:<base64>"}``,
with N the dictionary's number (0: none) and the base64 of zstd(the document as JSON).
The head stays plain because the Lua scripts read and edit ``version`` and
``events_from`` without decoding. Documents written before this (plain JSON, no ``"z"``)
are read as they are.
"""

from __future__ import annotations

import binascii
import contextlib
from functools import cache
from importlib import resources
from typing import Any

import zstandard

from shared.store import jsoncodec

CURRENT = 1
"""The dictionary new documents are written with."""
_HEAD = ("version", "events_from")
_LEVEL = 3  # 5% smaller than 1 for the same CPU; negative levels: 40% bigger
_RECENT_MAX = 512
_recent: dict[str, bytes] = {}
"""Packed text -> the document's JSON, for the documents this process wrote or read last:
a game's next reads (the seat's read, then its POST's) skip base64 and zstd. Keyed by
the content, so it is never stale."""


@cache
def _dictionary(number: int) -> zstandard.ZstdCompressionDict | None:
    if number == 0:
        return None
    data = resources.files("shared.store").joinpath(f"document-{number}.dict").read_bytes()
    zdict = zstandard.ZstdCompressionDict(data)
    zdict.precompute_compress(level=_LEVEL)
    return zdict


_idle: dict[str, list[Any]] = {}
"""Idle (de)compressors by kind and dictionary. zstandard's are not thread-safe, so a
call takes one and gives it back: under gevent (where ``threading.local`` is a greenlet's,
which would make one per connection, each with its own tables) a process keeps one of
each, since a call never yields; threads keep as many as run at once."""


def _take(key: str, number: int) -> Any:
    try:
        return _idle[key].pop()  # one atomic pop: threads share the list
    except (KeyError, IndexError):
        zdict = _dictionary(number)
        if key[0] == "c":
            return zstandard.ZstdCompressor(
                level=_LEVEL, dict_data=zdict, write_checksum=False, write_dict_id=False
            )
        return zstandard.ZstdDecompressor(dict_data=zdict)


def _remember(packed: str, text: bytes) -> None:
    if len(_recent) >= _RECENT_MAX:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # (another thread's)
            del _recent[next(iter(_recent))]  # the oldest
    _recent[packed] = text


def pack(doc: dict[str, Any]) -> str:
    """``doc`` as stored: its head first, in this order (the scripts match it), then the
    whole document compressed (the head too: cheaper than leaving it out)."""
    text = jsoncodec.dumps(doc)
    key = f"c{CURRENT}"
    compressor = _take(key, CURRENT)
    try:
        packed = binascii.b2a_base64(compressor.compress(text), newline=False).decode("ascii")
    finally:
        _idle.setdefault(key, []).append(compressor)
    head = {k: doc[k] for k in _HEAD if k in doc}
    head["z"] = packed = f"{CURRENT}:{packed}"
    _remember(packed, text)
    return jsoncodec.dumps_text(head)


def unpack(raw: str | bytes) -> dict[str, Any]:
    """A stored document, packed or plain. The plain head wins: the write script may
    have raised ``events_from`` in it."""
    head: dict[str, Any] = jsoncodec.loads(raw)
    packed = head.pop("z", None)
    if packed is None:
        return head
    text = _recent.get(packed)
    if text is None:
        number, _, data = packed.partition(":")
        key = f"d{number}"
        decompressor = _take(key, int(number))
        try:
            text = decompressor.decompress(binascii.a2b_base64(data))
        finally:
            _idle.setdefault(key, []).append(decompressor)
        _remember(packed, text)
    doc: dict[str, Any] = jsoncodec.loads(text)
    doc.update(head)
    return doc

"""How a game document is stored: its head in plain JSON, the rest compressed.

Why: a 4-player game's document is 2-2.5 KB of JSON, the largest of its keys in Redis.
zstd with a preset dictionary trained on documents of both games (``document-N.dict``,
made by ``scripts/document_dictionary.py`` and frozen) stores it in about 0.7 KB
(base64 included), for about 8 µs more CPU a write and 7 µs a read than plain JSON.

The stored text is itself JSON: ``{"version":V,"events_from":F,"z":"N:<base64>"}``,
with N the dictionary's number (0: none) and the base64 of zstd(the document as JSON).
The head stays plain because the Lua scripts read and edit ``version`` and
``events_from`` without decoding. Documents written before this (plain JSON, no ``"z"``)
are read as they are.
"""

from __future__ import annotations

import binascii
import contextlib
import threading
from functools import cache
from importlib import resources
from typing import Any

import zstandard

from shared import jsoncodec

CURRENT = 1
"""The dictionary new documents are written with."""
_HEAD = ("version", "events_from")
_LEVEL = 3  # 5% smaller than 1 for the same CPU; negative levels: 40% bigger
_local = threading.local()
_RECENT_MAX = 512
_recent: dict[str, bytes] = {}
"""Packed text -> the document's JSON, for the documents this process wrote or read last:
a game's next reads (the seat's read, then its POST's) skip base64 and zstd. Keyed by
the content, so it is never stale."""


@cache
def _dictionary(number: int) -> zstandard.ZstdCompressionDict | None:
    if number == 0:
        return None
    data = resources.files("shared").joinpath(f"document-{number}.dict").read_bytes()
    zdict = zstandard.ZstdCompressionDict(data)
    zdict.precompute_compress(level=_LEVEL)
    return zdict


def _compressor() -> zstandard.ZstdCompressor:
    """This thread's compressor (zstandard's are not thread-safe)."""
    key = f"c{CURRENT}"
    found = getattr(_local, key, None)
    if found is None:
        found = zstandard.ZstdCompressor(
            level=_LEVEL, dict_data=_dictionary(CURRENT), write_checksum=False, write_dict_id=False
        )
        setattr(_local, key, found)
    return found


def _decompressor(number: int) -> zstandard.ZstdDecompressor:
    key = f"d{number}"
    found = getattr(_local, key, None)
    if found is None:
        found = zstandard.ZstdDecompressor(dict_data=_dictionary(number))
        setattr(_local, key, found)
    return found


def _remember(packed: str, text: bytes) -> None:
    if len(_recent) >= _RECENT_MAX:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # (another thread's)
            del _recent[next(iter(_recent))]  # the oldest
    _recent[packed] = text


def pack(doc: dict[str, Any]) -> str:
    """``doc`` as stored: its head first, in this order (the scripts match it), then the
    whole document compressed (the head too: cheaper than leaving it out)."""
    text = jsoncodec.dumps(doc)
    packed = binascii.b2a_base64(_compressor().compress(text), newline=False).decode("ascii")
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
        text = _decompressor(int(number)).decompress(binascii.a2b_base64(data))
        _remember(packed, text)
    doc: dict[str, Any] = jsoncodec.loads(text)
    doc.update(head)
    return doc

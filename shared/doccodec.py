"""How a game document is stored: its head in plain JSON, the rest compressed.

Why: a 4-player game's document is 2-2.5 KB of JSON, the largest of its keys in Redis.
zstd with a preset dictionary trained on documents of both games (``document-N.dict``,
made by ``scripts/document_dictionary.py`` and frozen) stores it in about 0.6 KB, for
about 4 µs of CPU a write and 2 µs a read.

The stored text is itself JSON: ``{"version":V,"events_from":F,"z":"N:<base64>"}``,
with N the dictionary's number (0: none) and the base64 of zstd(the rest of the document
as JSON). The head stays plain because the Lua scripts read and edit ``version`` and
``events_from`` without decoding. Documents written before this (plain JSON, no ``"z"``)
are read as they are.
"""

from __future__ import annotations

import base64
import threading
from functools import cache
from importlib import resources
from typing import Any

import zstandard

from shared import jsoncodec

CURRENT = 1
"""The dictionary new documents are written with."""
_HEAD = ("version", "events_from")
_LEVEL = 3
_local = threading.local()


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


def body(doc: dict[str, Any]) -> bytes:
    """The document without its head, as JSON: what is compressed."""
    return jsoncodec.dumps({k: v for k, v in doc.items() if k not in _HEAD})


def pack(doc: dict[str, Any]) -> str:
    """``doc`` as stored (its head first, in this order: the scripts match it)."""
    packed = base64.b64encode(_compressor().compress(body(doc))).decode("ascii")
    head = {k: doc[k] for k in _HEAD if k in doc}
    head["z"] = f"{CURRENT}:{packed}"
    return jsoncodec.dumps_text(head)


def unpack(raw: str | bytes) -> dict[str, Any]:
    """A stored document, packed or plain."""
    doc: dict[str, Any] = jsoncodec.loads(raw)
    packed = doc.pop("z", None)
    if packed is not None:
        number, _, text = packed.partition(":")
        doc.update(jsoncodec.loads(_decompressor(int(number)).decompress(base64.b64decode(text))))
    return doc

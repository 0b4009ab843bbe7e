"""A move's digest is the SHA-256 of ``json.dumps``'s canonical text, whatever encoder
computes it: digests stored in games' histories must keep matching their retries."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from shared.games.replay import move_digest


def _by_json(move: Any) -> str:
    text = json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


MOVES: list[Any] = [
    {"type": "place", "card": 3, "lot": 5, "city": 2, "floors": 2},
    {"b": 1, "a": [1, 2, {"z": None, "é": 'ü\u2028\x00\x1f\x7f"\\'}]},
    {"x": True, "y": False, "z": [], "w": {}, "v": -5},
    {"Z": 1, "a": 2, "é": 3, "\U0001f600": 4, "\uffff": 5, "\ue000": 6},  # key order
    {"text": "".join(chr(i) for i in range(0x800)), "tabs": "\t\n\r\b\f"},
    {"big": 2**64 - 1, "small": -(2**63)},
    {"huge": 2**64},  # beyond orjson's integers
    {"float": 1e16, "half": 0.5},  # json's float spelling
    {1: "non-string key"},
    {"tuple": (1, 2)},
]


@pytest.mark.parametrize("move", MOVES)
def test_the_digest_is_that_of_the_json_canonical_text(move: Any) -> None:
    assert move_digest(move) == _by_json(move)


def test_another_move_has_another_digest() -> None:
    assert move_digest({"a": 1, "b": 2}) == move_digest({"b": 2, "a": 1})
    assert move_digest({"a": 1}) != move_digest({"a": 1.0})

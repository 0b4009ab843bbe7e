"""Idempotent moves: telling a retry from a reused key, and the first answer rebuilt
from the game's history when the same ``Idempotency-Key`` comes again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

from shared.games import history
from shared.games.base import Context, settle
from shared.games.document import GameDoc
from shared.games.errors import Invalid
from shared.games.records import Retry


def move_digest(move: dict[str, Any]) -> str:
    """128 bits of the SHA-256 of a move's canonical JSON (keys sorted): a retry
    carries the same move as its key's record, a reused key another one.

    The canonical text is ``json.dumps``'s (sorted keys, compact, ``ensure_ascii=False``):
    digests are stored in the history. orjson writes the same bytes, several times
    faster, for moves of strings, integers, booleans and nulls; a move holding a float
    (spelled differently: ``1e+16``) or what orjson refuses goes to ``json``."""
    if _orjson_spells_as_json(move):
        try:
            canonical = orjson.dumps(move, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # a 65-bit integer, a non-string key, a lone surrogate
            pass
        else:
            return hashlib.sha256(canonical).hexdigest()[:32]
    text = json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _orjson_spells_as_json(value: Any) -> bool:
    """Whether ``value`` holds only dicts, lists, strings, integers, booleans and nulls."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        return all(_orjson_spells_as_json(item) for item in value.values())
    if kind is list:
        return all(_orjson_spells_as_json(item) for item in value)
    return False


def same_move(record: history.Record, digest: str) -> None:
    """422 unless ``record`` (a keyed move's history record) holds the move ``digest``."""
    if move_digest(record[3]) != digest:
        raise Invalid(
            "idempotency-key-reused",
            "This Idempotency-Key was used for another move; use a new key for a new move.",
        )


def replay(ctx: Context, doc: GameDoc, retry: Retry) -> tuple[GameDoc, list[dict[str, Any]]]:
    """The document and events of an idempotent move's first answer, rebuilt byte for
    byte: the engine replays the recorded moves from the seed (as anyone can with the
    log) up to the move's version; its time comes from its record."""
    engine = ctx.engine
    write = history.write_at(engine, doc, retry.records, retry.record[0])
    then: GameDoc = {**doc, "state": write.state, "version": write.version, "result": None}
    then["updated_at"] = history.text_of(write.ms)
    settle(engine, then, [])
    ended = next((e for e in write.events if e.get("type") == "game_finished"), None)
    if ended is not None:  # the result as that write recorded it (its ratings too)
        then["result"] = ended["result"]
    return then, write.events

"""Idempotent moves: what a record remembers of a move, and the first answer rebuilt
from the stored moves when the same ``Idempotency-Key`` comes again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from shared.errors import ApiError
from shared.games.base import Context, settle
from shared.store import Doc


def move_digest(move: dict[str, Any]) -> str:
    """What an idempotency record remembers of a move: 128 bits of the SHA-256 of its
    canonical JSON (the validated move, keys sorted), to tell a retry from a reuse."""
    canonical = json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def make_record(version: int, updated_at: str, digest: str) -> str:
    """The idempotency record of the write that made ``version``."""
    return f"{version} {updated_at} {digest}"


def _parse_record(record: str) -> tuple[int, str, str | None]:
    """``"<version> <updated_at> <move digest>"`` as its parts; records written before
    digests were stored have no third part (``None``: any body is taken as a retry)."""
    version_text, updated_at, *rest = record.split(" ")
    return int(version_text), updated_at, rest[0] if rest else None


def same_move(record: str, digest: str) -> str:
    """``record`` when it is the record of this move (or predates digests), else 422."""
    stored = _parse_record(record)[2]
    if stored is not None and stored != digest:
        raise ApiError(
            422,
            "idempotency-key-reused",
            "This Idempotency-Key was used for another move; use a new key for a new move.",
        )
    return record


def replay(ctx: Context, doc: Doc, record: str) -> tuple[Doc, list[dict[str, Any]]]:
    """The document and events of an idempotent move's first answer, rebuilt byte for
    byte from its record ``"<version> <updated_at> <digest>"``: the engine replays the
    stored moves from the seed (as anyone can with the log) up to that version."""
    engine = ctx.engine
    version, updated_at, _ = _parse_record(record)
    state = engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
    for entry in ctx.store.all_moves(doc["id"]):
        if entry["version"] > version:
            break
        state, _ = engine.apply_move(state, entry["seat"], entry["move"])
    then = {**doc, "state": state, "version": version, "updated_at": updated_at}
    settle(engine, then, [])
    return then, ctx.store.events_of(doc["id"], version)

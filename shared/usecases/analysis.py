"""Analysis after the game: when a game ends it is queued (in the status sets' round
trip after the write that ends it, shared/store/status.py; and by any read of
``GET /games/{id}/analysis`` that finds it missing). The worker analyses it once
(shared/worker/analysing.py, with the method of shared/bots/analysis.py), stores it and
marks the game with an ``analysis_ready`` event (one compare-and-set write: its webhook
``analysis.ready`` is sent once however many workers finish it).

May import the games layer, the bots and the store's analyses (through the games' store).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from shared.games import FINISHED, Outcome, history
from shared.games.base import not_found
from shared.games.document import GameDoc, from_store
from shared.games.errors import Conflict
from shared.store import LegacyLog

if TYPE_CHECKING:
    from shared.games import Games

READY = "analysis_ready"


class _Already(Exception):
    pass


def salt_of(doc: GameDoc) -> int:
    """The analysis's seed: from the game's id and seed (the same game, the same analysis)."""
    text = f"analysis:{doc['id']}:{doc['seed']}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def played(kit: Games, game_id: str) -> tuple[GameDoc, list[dict[str, Any]]]:
    """The game and its moves ``{seat, move, version}``, read together."""
    found = kit.ctx.store.history(game_id)
    if found is None:
        raise not_found(game_id)
    doc = from_store(found.doc)
    if isinstance(found, LegacyLog):
        return doc, list(found.moves)
    return doc, history.all_moves(history.stored(found.tail, found.hist))


def _mark(doc: GameDoc) -> Outcome:
    if doc.get("analysis"):
        raise _Already
    new: GameDoc = {**doc, "analysis": True}
    return Outcome(new, [{"type": READY}])


def publish(kit: Games, game_id: str, body: dict[str, Any]) -> bool:
    """Keep the analysis and mark the game (its event and webhook, once); whether this
    call marked it (``False``: another worker had)."""
    store = kit.ctx.store
    store.analyses.save(game_id, json.dumps(body), int(kit.ctx.settings["GAME_TTL_FINISHED"]))
    try:
        kit.writes.mutate(game_id, _mark)
    except _Already:
        return False
    finally:
        store.analyses.done(game_id)
    return True


def read(kit: Games, game_id: str) -> dict[str, Any] | None:
    """The analysis of ``game_id``, or ``None`` while it is being made (queued again
    when it is neither kept nor queued: a lost queue entry heals on the first read);
    409 ``game-not-finished`` before the end (or when cancelled), 404 for no such game."""
    doc = kit.writes.load(game_id)
    if doc["status"] != FINISHED:
        raise Conflict(
            "game-not-finished",
            "Only a finished game is analysed; this one is {status}.",
            status=doc["status"],
        )
    analyses = kit.ctx.store.analyses
    text = analyses.load(game_id)
    if text is not None:
        found: dict[str, Any] = json.loads(text)
        return found
    if not analyses.queued(game_id):
        analyses.enqueue(game_id)
    return None

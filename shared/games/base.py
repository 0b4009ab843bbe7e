"""What every part of the games layer shares: the statuses, the decided change
(:class:`Outcome`), the ``If-Match`` check and the engine's settling of a document."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from shared.engine import Engine
from shared.games import seats
from shared.games.document import GameDoc, started, to_store
from shared.games.errors import NotFound, PreconditionFailed
from shared.store import GameStore, StoredDoc
from shared.store.ratings import Ratings

OPEN: Final = "open"
RUNNING: Final = "running"
FINISHED: Final = "finished"
CANCELLED: Final = "cancelled"
OVER = (FINISHED, CANCELLED)
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TERMINAL_EVENTS = ("game_finished", "game_cancelled")
IfMatch = Callable[[int], bool] | None
"""A predicate on versions from ``If-Match``; ``None`` when the header is absent."""


@dataclass
class Context:
    """The engine, store and settings of one service, shared by the parts of the games
    layer (the engine is swapped in place by tests that interfere with a write)."""

    engine: Engine
    store: GameStore
    settings: dict[str, Any]

    @property
    def ratings(self) -> Ratings:
        """The ratings of this service's game and its leaderboards (shared/store/ratings.py)."""
        found = self.__dict__.get("_ratings")
        if found is None or found.client is not self.store.client:
            found = self.__dict__["_ratings"] = Ratings(
                self.store.client, self.store.prefix, self.engine.NAME
            )
        return found

    def stored(self, doc: GameDoc) -> StoredDoc:
        """``doc`` as the store writes it: its engine state as plain JSON data
        (:meth:`Engine.stored`); ``doc`` itself is left as it is."""
        state = doc.get("state")
        if state is None:
            return to_store(doc)
        return {**to_store(doc), "state": self.engine.stored(state)}


@dataclass
class Outcome:
    """What a change decided: the new document, its events (not yet stamped with id and
    version) and the move it applied, if any. ``engine_events`` (start, count): which of
    the events the engine's ``apply_move`` produced; the history stores only the others
    and rebuilds these by replaying the move (shared/games/history.py)."""

    doc: GameDoc
    events: list[dict[str, Any]]
    moves: list[dict[str, Any]] = field(default_factory=list)
    engine_events: tuple[int, int] | None = None
    restart_stream: bool = False  # the stream keeps this write's events only (privacy.py)


def now_text() -> str:
    """Now as a document's ``updated_at`` (ISO 8601, milliseconds, ``Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def not_found(game_id: str) -> NotFound:
    return NotFound("game-not-found", "There is no game {game_id!r}.", game_id=game_id)


def check_if_match(doc: GameDoc, if_match: IfMatch) -> None:
    """``version-mismatch`` (412) when the client's ``If-Match`` names another version."""
    if if_match is not None and not if_match(doc["version"]):
        raise PreconditionFailed(
            "version-mismatch",
            "The game is at version {version}; If-Match does not match.",
            extra={"version": doc["version"]},
            version=doc["version"],
        )


def settle(engine: Engine, doc: GameDoc, events: list[dict[str, Any]]) -> None:
    """Status, ``to_act`` and result after the engine moved; ends a finished game."""
    state = started(doc)
    if engine.is_over(state):
        doc["status"] = FINISHED
        doc["to_act"] = []
        doc["result"] = seats.rank_resigned_last(engine.result(state), doc["players"])
        events.append({"type": "game_finished", "result": doc["result"]})
    else:
        doc["status"] = RUNNING
        doc["to_act"] = list(engine.to_act(state))

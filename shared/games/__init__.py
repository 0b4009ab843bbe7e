"""The games layer: seats, tokens, turn order and versions, the game-agnostic life of a
game. :class:`Games` assembles the parts the routes, the worker and the webhooks call
(``ctx``, ``writes``, ``lifecycle``, ``moves``, ``answers``); each part has one job:

- ``base``: statuses, :class:`Outcome`, the ``If-Match`` check, settling after a move;
- ``writes``: the write loop (read, decide, compare-and-set, retried on a conflict);
- ``lifecycle``: create, join, start, cancel; ``holds``: the seats a rematch holds;
- ``moves``: a seat's move, once per ``Idempotency-Key``;
- ``replay``: idempotency records, and a retried move's first answer rebuilt;
- ``answers``: views, summaries, scores, legal moves, the log, events, for one reader;
- ``chat``: the table chat (messages, canned phrases, channels, mutes), for one reader;
- ``audience``: who reads (:class:`Audience`) and what each reader may see (hidden
  information, who may watch, the spectator delay, the chat's channels); ``spectate``:
  what the delay keeps;
- ``history``, ``records``, ``migrate``: the compact per-write history;
- ``document``: the game document and its players, typed (``GameDoc``, ``PlayerEntry``);
- ``errors``: the domain errors; ``access``, ``tokens``: who may act; ``seats``: seat
  statuses and clocks; ``erased``: erased players scrubbed from old events;
  ``names``, ``name_ranges``: player names; ``fairness``: the seed commitment;
  ``rates``: move rate windows; ``notify``: a write's webhook notifications.

May import ``shared.store``, ``shared.ops`` and the engine contract. The use cases that
take a :class:`Games` and compose its parts (quick match, autoplay, seat changes,
rematch, privacy) are a layer above, in ``shared.usecases``: nothing here imports them.

Nothing here touches Flask or Redis directly (the store does), nor imports the HTTP
layer above it: refusals are the domain errors of ``errors`` (:class:`GameError` kinds
with stable codes, mapped to status codes by the HTTP layer) or the engine's
``RuleError``; rates and windows (``rates``) are counted here, answered there.
"""

from __future__ import annotations

from typing import Any

from shared.engine import Engine
from shared.games import audience, players
from shared.games.answers import Answers
from shared.games.audience import Audience
from shared.games.base import (
    CANCELLED,
    FINISHED,
    OPEN,
    OVER,
    RUNNING,
    TERMINAL_EVENTS,
    Context,
    IfMatch,
    Outcome,
    check_if_match,
)
from shared.games.chat import Chat
from shared.games.document import GameDoc, from_store
from shared.games.lifecycle import Lifecycle
from shared.games.moves import Moves
from shared.games.writes import WriteLoop
from shared.store import GameStore

__all__ = [
    "CANCELLED",
    "FINISHED",
    "OPEN",
    "OVER",
    "RUNNING",
    "TERMINAL_EVENTS",
    "Games",
    "IfMatch",
    "Outcome",
    "check_if_match",
]


class Games:
    """The games of one engine, stored in one :class:`GameStore`: the parts above,
    assembled over one :class:`Context`; callers use the parts directly.

    Requests name their bearer by ``digest``, the token's hash (``None``: no token),
    computed once per request by the caller; the raw token never gets this far.
    """

    def __init__(self, engine: Engine, store: GameStore, settings: dict[str, Any]) -> None:
        self.ctx = Context(engine, store, settings)
        # every write waits for this many replicas (the service's and the worker's stores)
        store.replicate(
            settings.get("REDIS_WAIT_REPLICAS", 0), settings.get("REDIS_WAIT_TIMEOUT_MS", 200)
        )
        store.ended_statuses = OVER  # (each with its players' index of ended games)
        self.writes = WriteLoop(self.ctx)
        self.lifecycle = Lifecycle(self.ctx, self.writes)
        self.moves = Moves(self.ctx, self.writes)
        self.chat = Chat(self.ctx)

    @property
    def engine(self) -> Engine:
        return self.ctx.engine

    @engine.setter
    def engine(self, engine: Engine) -> None:
        self.ctx.engine = engine

    @property
    def store(self) -> GameStore:
        return self.ctx.store

    @property
    def settings(self) -> dict[str, Any]:
        return self.ctx.settings

    # -- reads ---------------------------------------------------------------------------

    def answers(self, reader: Audience) -> Answers:
        """The answers about a game for ``reader``: every answer builder (view, legal
        moves, events, log, score, listing entries) is one of its methods."""
        return Answers(self.ctx, reader)

    def list_games(
        self, status: str | None, limit: int, cursor: str | None, reader: Audience
    ) -> tuple[list[GameDoc], str | None]:
        """A page of the listing ``reader`` sees, newest first (an API key's tenant: the
        games it created; anyone else: every listed game), and the next page's cursor
        (see :meth:`shared.store.listing.Listing.list_games`)."""
        tenant = reader.tenant
        index = None if tenant is None else self.store.tracking.owner_index(tenant)
        keep = lambda raw: audience.is_listed_for(from_store(raw), reader)  # noqa: E731
        docs, after = self.store.list_games(status, limit, cursor, index, keep)
        return [from_store(doc) for doc in docs], after

    def player_games(
        self, player: str, status: str | None, mine: bool, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the games ``player`` sits in here, newest activity first: with
        ``mine`` only those where it is to act; and the next page's cursor. Read from
        the player's index of live games when only live ones can match, of its ended
        games of ``status`` when it holds them all."""
        every, live = self.store.member_keys(player)
        index = live if mine or status in (OPEN, RUNNING) else every
        if status in OVER and not mine:
            kept = int(self.settings["GAME_TTL_FINISHED"])
            index = self.store.ended_index(player, status, kept) or every

        def keep(raw: Any) -> bool:
            found = players.entry(from_store(raw), player, self.engine.NAME)
            return found is not None and (not mine or found["my_turn"])

        docs, after = self.store.list_games(status, limit, cursor, index, keep)
        entries = [players.entry(from_store(doc), player, self.engine.NAME) for doc in docs]
        return [e for e in entries if e is not None], after

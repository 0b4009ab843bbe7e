"""Search bots think in a pool of processes of their own, so that a bot's budget of CPU
(up to ``strong``'s 250 ms a decision, shared/bots) never delays clocks, other games'
moves or webhook deliveries in the worker.

:class:`Thinker` is what :func:`shared.usecases.autoplay.play_due` asks for a search bot's
move: the move when a decision for exactly that game, version and seat is ready;
otherwise it hands the decision to the pool and raises :class:`Thinking`, and the
worker comes back to the game once the pool answered (``WORKER_BOT_PROCESSES``
processes; 0: decide in the worker itself).

A pool process finds the game's engine by its name (shared/registry.py); this module
imports shared.bots, shared.engine, shared.registry, and shared.games for the
:class:`Thinking` signal.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

from shared import bots, registry
from shared.engine import Engine, Move, State
from shared.usecases.autoplay import Thinking
from shared.worker.pools import process_pool


def _decide(game: str, state: State, seat: int, level: str, seed: int) -> Move:
    """In a pool process: the search's move (shared/bots)."""
    return bots.decide(registry.game(game).engine, state, seat, level, seed)


Key = tuple[str, int, int]
"""A decision's key: (game id, version, seat)."""


class Thinker:
    """Search decisions in ``processes`` processes, by :data:`Key`. Decisions wait here,
    one queue per client, and go to the pool only as its processes come free, each
    client in turn: one client's flood of bot games waits behind another client's bot
    by one decision, not by the flood."""

    MAX_PENDING = 10_000  # decisions nobody came back for are dropped past this

    def __init__(self, processes: int) -> None:
        self.pool = process_pool(processes)
        self.slots = max(1, processes)
        self.pending: dict[Key, Future[Move]] = {}  # in the pool, or made
        self.queued: dict[str, deque[tuple[Key, tuple[Any, ...]]]] = {}  # by client
        self.asked: set[Key] = set()  # queued, not yet in the pool
        self.client = ""  # whose game the worker is playing (it sets this before a step)
        self.served: dict[str, int] = {}  # client: the turn it was last served
        self.turns = 0

    def __call__(
        self, engine: Engine, state: State, seat: int, level: str, seed: int, key: Any
    ) -> Move:
        """The move for ``key``, or :class:`Thinking` (queued or in the pool)."""
        if self.pool is None:
            return bots.decide(engine, state, seat, level, seed)
        future = self.pending.get(key)
        if future is None:
            if key not in self.asked:
                if len(self.pending) + len(self.asked) >= self.MAX_PENDING:
                    self.pending.clear()
                    self.queued.clear()
                    self.asked.clear()
                    self.served.clear()
                self.asked.add(key)
                args = (engine.NAME, state, seat, level, seed)
                self.queued.setdefault(self.client, deque()).append((key, args))
                self.pump()
            raise Thinking(key)
        if not future.done():
            raise Thinking(key)
        del self.pending[key]
        return future.result()

    def pump(self) -> None:
        """Hand queued decisions to the pool while it has a free process, the clients
        in turn: the one served longest ago first."""
        assert self.pool is not None
        while self.queued and self.in_pool() < self.slots:
            client = min(self.queued, key=lambda c: self.served.get(c, -1))
            queue = self.queued[client]
            key, args = queue.popleft()
            if not queue:
                del self.queued[client]
            self.served[client] = self.turns = self.turns + 1
            self.asked.discard(key)
            self.pending[key] = self.pool.submit(_decide, *args)

    def in_pool(self) -> int:
        return sum(1 for f in self.pending.values() if not f.done())

    def ready(self, key: Any) -> bool:
        """Whether the decision for ``key`` is made (or was never asked: then the next
        visit asks for it). Pumps the queue first."""
        if self.pool is not None:
            self.pump()
        if key in self.asked:
            return False
        future = self.pending.get(key)
        return future is None or future.done()

    def wait(self, timeout: float) -> None:
        """Until some decision is ready (or ``timeout`` seconds)."""
        running = [f for f in self.pending.values() if not f.done()]
        if running:
            wait(running, timeout=timeout, return_when=FIRST_COMPLETED)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

"""Search bots think in a pool of processes of their own, so that a bot's budget of CPU
(up to ``strong``'s 250 ms a decision, shared/bots) never delays clocks, other games'
moves or webhook deliveries in the worker.

:class:`Thinker` is what :func:`shared.games.autoplay.play_due` asks for a search bot's
move: the move when a decision for exactly that game, version and seat is ready;
otherwise it hands the decision to the pool and raises :class:`Thinking`, and the
worker comes back to the game once the pool answered (``WORKER_BOT_PROCESSES``
processes; 0: decide in the worker itself).

May import shared.bots, shared.engine and the rules packages (by name), and shared.games
for the :class:`Thinking` signal.
"""

from __future__ import annotations

import importlib
import multiprocessing
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from shared import bots
from shared.engine import Engine, Move, State
from shared.games.autoplay import Thinking

_ENGINES: dict[str, Engine] = {}


def _engine(name: str) -> Engine:
    found = _ENGINES.get(name)
    if found is None:
        found = _ENGINES[name] = importlib.import_module(f"services.{name}.rules").ENGINE
    return found


def _decide(game: str, state: State, seat: int, level: str, seed: int) -> Move:
    """In a pool process: the search's move (shared/bots)."""
    return bots.decide(_engine(game), state, seat, level, seed)


class Busy(Exception):  # noqa: N818 (a signal, not an error)
    """The pool has as many decisions waiting as it can make soon: the game goes back in
    the schedule for a moment, where a less busy worker copy may take it."""


class Thinker:
    """Search decisions in ``processes`` processes, by (game id, version, seat), at most
    ``backlog`` waiting per process (about two seconds of ``strong``'s)."""

    MAX_PENDING = 10_000  # decisions nobody came back for are dropped past this

    def __init__(self, processes: int, backlog: int = 8) -> None:
        context = multiprocessing.get_context("spawn")  # (the worker runs threads)
        self.pool = ProcessPoolExecutor(processes, mp_context=context) if processes else None
        self.limit = max(1, processes * backlog)
        self.pending: dict[tuple[str, int, int], Future[Move]] = {}

    def __call__(
        self, engine: Engine, state: State, seat: int, level: str, seed: int, key: Any
    ) -> Move:
        """The move for ``key`` = (game id, version, seat), or :class:`Thinking` (asked
        of the pool), or :class:`Busy` (not asked: the pool has enough to do)."""
        if self.pool is None:
            return bots.decide(engine, state, seat, level, seed)
        future = self.pending.get(key)
        if future is None:
            if self.waiting() >= self.limit:
                raise Busy(key)
            if len(self.pending) >= self.MAX_PENDING:
                self.pending.clear()
            self.pending[key] = self.pool.submit(_decide, engine.NAME, state, seat, level, seed)
            raise Thinking(key)
        if not future.done():
            raise Thinking(key)
        del self.pending[key]
        return future.result()

    def waiting(self) -> int:
        """Decisions asked of the pool and not yet made."""
        return sum(1 for f in self.pending.values() if not f.done())

    def ready(self, key: Any) -> bool:
        """Whether the decision for ``key`` is made (or was never asked: then the next
        visit asks for it)."""
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

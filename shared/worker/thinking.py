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


class Thinker:
    """Search decisions in ``processes`` processes, by (game id, version, seat)."""

    MAX_PENDING = 10_000  # decisions nobody came back for are dropped past this

    def __init__(self, processes: int) -> None:
        context = multiprocessing.get_context("spawn")  # (the worker runs threads)
        self.pool = ProcessPoolExecutor(processes, mp_context=context) if processes else None
        self.pending: dict[tuple[str, int, int], Future[Move]] = {}

    def __call__(
        self, engine: Engine, state: State, seat: int, level: str, seed: int, key: Any
    ) -> Move:
        """The move for ``key`` = (game id, version, seat), or :class:`Thinking`."""
        if self.pool is None:
            return bots.decide(engine, state, seat, level, seed)
        future = self.pending.get(key)
        if future is None:
            if len(self.pending) >= self.MAX_PENDING:
                self.pending.clear()
            self.pending[key] = self.pool.submit(_decide, engine.NAME, state, seat, level, seed)
            raise Thinking(key)
        if not future.done():
            raise Thinking(key)
        del self.pending[key]
        return future.result()

    def wait(self, timeout: float) -> None:
        """Until some decision is ready (or ``timeout`` seconds)."""
        running = [f for f in self.pending.values() if not f.done()]
        if running:
            wait(running, timeout=timeout, return_when=FIRST_COMPLETED)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

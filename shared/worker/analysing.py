"""The worker's analyses of finished games (shared/usecases/analysis.py), in a thread of
their own so that an analysis (seconds of CPU, docs/bots.md) never delays a due move.

Each pass takes the oldest queued games of every service; a game is analysed by the one
worker whose claim (``SET NX`` with a lease of ``ANALYSIS_LEASE_SECONDS``) succeeds,
renewed while the analysis runs in a process of its own (``WORKER_ANALYSIS_PROCESSES``,
at a lower priority; 0: in this thread). A worker killed mid-analysis leaves its claim
to expire: another worker takes the game and finishes it. Publishing is one
compare-and-set write of the game, so its ``analysis_ready`` event and webhook happen
once even if two workers ever finished the same game.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as Pending
from typing import Any

from shared import registry
from shared.bots import analysis
from shared.games import FINISHED, Games
from shared.games.errors import NotFound
from shared.usecases import analysis as usecase
from shared.worker.pools import process_pool

log = logging.getLogger("shared.worker.analysing")
BATCH = 10


def _nice() -> None:  # pragma: no cover - in the pool process
    os.nice(10)


def _analyse(
    game: str, seats: int, options: dict[str, Any], seed: int, moves: list[Any], salt: int
) -> dict[str, Any]:
    """In a pool process: the analysis (shared/bots/analysis.py)."""
    engine = registry.game(game).engine
    return analysis.analyse(engine, seats, options, seed, moves, salt)


class Analyst:
    """Claims queued games and analyses them, one at a time."""

    def __init__(self, games: list[Games], settings: dict[str, Any], stop: threading.Event):
        self.games = games
        self.stop = stop
        self.lease_ms = int(float(settings["ANALYSIS_LEASE_SECONDS"]) * 1000)
        self.token = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        processes = int(settings["WORKER_ANALYSIS_PROCESSES"])
        self.pool = process_pool(min(processes, 1), _nice)
        self.analysed = 0

    def tick(self) -> int:
        """One pass over the queues; the number of games analysed."""
        done = 0
        for games in self.games:
            analyses = games.ctx.store.analyses
            for game_id in analyses.waiting(BATCH):
                if self.stop.is_set():
                    return done
                if not analyses.claim(game_id, self.token, self.lease_ms):
                    continue  # another worker's
                try:
                    done += self.analyse(games, game_id)
                finally:
                    analyses.release(game_id, self.token)
        return done

    def analyse(self, games: Games, game_id: str) -> int:
        """Analyse and publish ``game_id`` (claimed); 1 when published."""
        analyses = games.ctx.store.analyses
        try:
            doc, moves = usecase.played(games, game_id)
        except NotFound:
            analyses.done(game_id)
            return 0
        if doc["status"] != FINISHED or doc.get("analysis"):
            analyses.done(game_id)
            return 0
        args = (doc["game"], len(doc["players"]), doc["options"], doc["seed"], moves)
        body = self._run((*args, usecase.salt_of(doc)), games, game_id)
        if body is None:
            return 0
        usecase.publish(games, game_id, {"game_id": game_id, "game": doc["game"], **body})
        self.analysed += 1
        log.info("analysed %s (%d moves)", game_id, len(moves))
        return 1

    def _run(self, args: tuple[Any, ...], games: Games, game_id: str) -> dict[str, Any] | None:
        """The analysis, renewing the claim while it runs; ``None`` when the claim was
        lost or the worker stops."""
        if self.pool is None:
            return _analyse(*args)
        future: Future[dict[str, Any]] = self.pool.submit(_analyse, *args)
        analyses = games.ctx.store.analyses
        while True:
            try:
                return future.result(timeout=self.lease_ms / 3000)
            except Pending:
                if self.stop.is_set() or not analyses.renew(game_id, self.token, self.lease_ms):
                    future.cancel()
                    return None

    def loop(self, poll: float) -> None:
        while not self.stop.is_set():
            try:
                busy = self.tick()
            except Exception:
                log.exception("analysis pass failed; retrying")
                busy = 0
            if not busy:
                self.stop.wait(max(0.5, poll * 5))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

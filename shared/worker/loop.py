"""The worker: plays the moves that are due (bot seats, and seats whose deadline passed).

Run it with ``python -m shared.worker`` (or the ``boardgames-worker`` script). It is
stateless: every fact lives in Redis, so any number of copies may run, and a copy that
dies loses nothing (its claims come due again after ``WORKER_LEASE_SECONDS``).

Each tick claims the games due by now from every shard of the schedule of every game it
serves (see :meth:`GameStore.claim_all_due`), at most ``WORKER_CLIENT_BATCH`` of any one
client (the API key or address that created them), then plays the due seats one move at a
time through the same compare-and-set write as a human move (:mod:`shared.usecases.autoplay`),
taking the clients in turn: one move of a game of each, round and round, so a client with
hundreds of due games delays another's move by a few moves, not by hundreds of games. A
claim only spreads the work between copies; the compare-and-set alone guarantees that
nothing is played twice. Each tick first erases deleted players, advances the
tournaments due (shared/usecases/tournament_rounds.py, tournament_arena.py) and hands
suspended players' seats to the takeover bot (shared/usecases/moderation.py). Health:
after every tick that reached Redis the worker touches ``WORKER_HEARTBEAT_FILE``;
``python -m shared.worker --check`` exits 0 while it is fresh. Finished games are
analysed in a thread of their own (shared/worker/analysing.py, ``WORKER_ANALYSIS``).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.games import Games, seats
from shared.games.errors import NotFound
from shared.ops import metrics
from shared.ops.config import load_settings
from shared.push import clock
from shared.push.digest import Digester
from shared.push.sending import Pusher
from shared.registry import game
from shared.store import Claim, GameStore, client_of, make_clients
from shared.usecases import moderation, privacy, tournament_arena
from shared.usecases.autoplay import NothingDue, Thinking, play_due
from shared.webhooks.delivery import Deliverer
from shared.worker.analysing import Analyst
from shared.worker.thinking import Thinker

log = logging.getLogger("shared.worker")
LAGS_KEPT = 100_000
"""Lags kept for ``--report`` (bounded: a worker runs for months)."""
HELD_PER_PROCESS = 8
"""Games whose search bot thinks that a worker holds per pool process (about two
seconds of ``strong``'s decisions) before it stops claiming: the rest stay in the
schedule for the other copies."""
STEPS_PER_CLAIM = 25
"""Moves played for one claimed game before it is let go (a game of bots only goes on
at a later tick: one busy game cannot starve the others)."""


@dataclass
class InHand:
    """A claimed game being played: its service, the claim, the moves made so far and,
    while its search bot thinks, the decision's key (shared/worker/thinking.py)."""

    games: Games
    claim: Claim
    steps: int = 0
    thinking: Any = None


def build_games(settings: dict[str, Any]) -> list[Games]:
    """The :class:`Games` of every game in ``WORKER_GAMES`` (engine and key prefix from the
    game's ``boardgames.games`` entry point, shared/registry.py), sharing one pair of Redis
    clients."""
    client, blocking = make_clients(settings)
    out = []
    for name in filter(None, (n.strip() for n in settings["WORKER_GAMES"].split(","))):
        found = game(name)
        store = GameStore(client, blocking, found.key_prefix, settings["WORKER_DUE_SHARDS"])
        out.append(Games(found.engine, store, settings))
    return out


class Worker:
    """The loop over the due games of ``games``; the latest ``lags`` (ms, due to played)
    are kept for the bench and the log."""

    def __init__(self, games: list[Games], settings: dict[str, Any]) -> None:
        self.games = games
        self.poll = settings["WORKER_POLL_SECONDS"]
        self.lease_ms = int(settings["WORKER_LEASE_SECONDS"] * 1000)
        self.batch = settings["WORKER_BATCH"]
        self.client_batch = settings["WORKER_CLIENT_BATCH"]
        self.heartbeat = settings["WORKER_HEARTBEAT_FILE"]
        self.stop = threading.Event()
        self.lags: deque[int] = deque(maxlen=LAGS_KEPT)
        self.late_ms = 0
        self.moves = 0
        pusher = Pusher(settings)
        self.deliverer = Deliverer([g.store for g in games], settings, pusher)
        self.digester = Digester(games, pusher)
        self.thinker = Thinker(int(settings["WORKER_BOT_PROCESSES"]))
        self.thinking: dict[tuple[int, str], InHand] = {}  # (service, game id): held
        self.hold_max = HELD_PER_PROCESS * max(1, int(settings["WORKER_BOT_PROCESSES"]))
        self.board_every = int(settings["LEADERBOARD_SNAPSHOT_SECONDS"])
        self.deliverer.stop = self.stop.is_set
        self.analyst = (
            Analyst(games, settings, self.stop) if settings.get("WORKER_ANALYSIS") else None
        )

    def deliver_loop(self) -> None:
        """Webhook deliveries (shared/webhooks/delivery.py), in a thread of their own so
        that a slow receiver never delays a due move; the attempts themselves run on the
        deliverer's pool (``WEBHOOK_CONCURRENCY`` threads)."""
        while not self.stop.is_set():
            try:
                busy = self.deliverer.tick()
            except Exception:
                log.exception("webhook tick failed; retrying")
                self.stop.wait(1.0)
                continue
            if not busy:
                self.stop.wait(self.poll)
        self.deliverer.close()

    def run(self) -> None:
        """Tick until :attr:`stop` is set; a failing tick (Redis down) is logged and
        retried after a pause."""
        sender = threading.Thread(target=self.deliver_loop, name="webhooks", daemon=True)
        sender.start()
        boards = threading.Thread(target=self.boards_loop, name="leaderboards", daemon=True)
        boards.start()
        digests = threading.Thread(target=self.digest_loop, name="digests", daemon=True)
        digests.start()
        if self.analyst is not None:
            analyst = threading.Thread(
                target=self.analyst.loop, args=(self.poll,), name="analyses", daemon=True
            )
            analyst.start()
        while not self.stop.is_set():
            try:
                busy = self.tick()
            except Exception:
                log.exception("worker tick failed; retrying")
                self.stop.wait(1.0)
                continue
            self._beat()
            if busy:
                continue
            if self.thinking:  # the next decision made, or the next poll
                self.thinker.wait(self.poll)
            else:
                self.stop.wait(self.poll)
        sender.join(self.deliverer.timeout + 1)  # let a delivery in flight finish
        self.thinker.close()
        if self.analyst is not None:
            self.analyst.close()

    def tick(self) -> int:
        """Claim and play every game due now; the number of games looked at. The lag
        gauge says how late this tick's latest move was (0 when nothing was due)."""
        self.late_ms = 0
        try:
            return self._erase() + self._suspend() + self._tournaments() + self._claim_and_play()
        finally:
            metrics.WORKER_LAG.labels("move").set(self.late_ms / 1000)

    def _erase(self) -> int:
        """Erase deleted players from the games of every service here (the service that
        deleted one erased its own games already; shared/usecases/privacy.py)."""
        if not self.games:
            return 0
        registry = self.games[0].store.registry
        return self._each_service(registry.erasing(), privacy.erase, registry.erased)

    def _tournaments(self) -> int:
        """Advance the tournaments due now (shared/usecases/tournament_arena.py): under a
        lease so copies share them, while the compare-and-set keeps every step once."""
        owner = f"{os.getpid()}:{id(self)}"
        done = 0
        for games in self.games:
            store = games.store.tournaments
            for tid in store.due(seats.now_ms()):
                if not store.lease(tid, owner, self.lease_ms):
                    continue
                try:
                    try:
                        later = tournament_arena.step(games, tid)
                    except NotFound:  # expired
                        later = None
                    if later is None:
                        store.unschedule(tid)
                    else:
                        store.schedule(tid, later)
                except Exception:
                    log.exception("tournament %s failed; retrying", tid)
                finally:
                    store.release(tid, owner)
                done += 1
        return done

    def _suspend(self) -> int:
        """Hand the seats of suspended players to the takeover bot in every service here
        (shared/usecases/moderation.py): before this tick's claims, so the bot's first
        move is made in the same tick."""
        if not self.games:
            return 0
        store = self.games[0].store.moderation
        return self._each_service(store.suspending(), moderation.take_over, store.taken_over)

    def _each_service(
        self, found: Any, apply: Callable[[Games, str], Any], done: Callable[[str], Any]
    ) -> int:
        """Apply ``apply`` to each player of ``found`` in every service here, then mark it
        ``done``; how many there were."""
        for player_id in found:
            for games in self.games:
                apply(games, player_id)
            done(player_id)
        return len(found)

    def boards_loop(self) -> None:
        """Leaderboard snapshots, in a thread of their own: at 100,000 players one takes
        about a second of copying (docs/performance.md), which must not hold up a due
        move."""
        while not self.stop.is_set():
            try:
                self.refresh_boards()
            except Exception:
                log.exception("leaderboard snapshot failed; retrying")
            self.stop.wait(max(1.0, float(self.board_every)))

    def digest_loop(self) -> None:
        """The daily digests (shared/push/digest.py), in a thread of their own: a slow
        push service holds up neither a move nor a webhook."""
        while not self.stop.is_set():
            try:
                busy = self.digester.tick()
            except Exception:
                log.exception("push digests failed; retrying")
                busy = 0
            if not busy:
                self.stop.wait(max(1.0, self.poll))

    def refresh_boards(self) -> int:
        """A new snapshot of each leaderboard (shared/store/ratings.py) whose newest is
        ``LEADERBOARD_SNAPSHOT_SECONDS`` old; how many boards were looked at."""
        taken = 0
        for games in self.games:
            for tenant in games.ctx.ratings.boards():
                games.ctx.ratings.refresh(tenant, self.board_every)
                taken += 1
        return taken

    def _claim_and_play(self) -> int:
        """Claim what is due, then play it one move at a time, client by client in turn
        (each client's claimed games one after the other). A game whose search bot is
        thinking is held apart, its claim renewed, and played at the first tick after
        its decision is made: the tick never waits for the pool, so clocks and other
        games' moves go on meanwhile."""
        turns: dict[tuple[int, str], deque[InHand]] = {}
        for n, games in enumerate(self.games):
            if len(self.thinking) >= self.hold_max:  # enough bots waiting on the pool here
                break  # (claimed again when one is played: a decision's time at most)
            now = seats.now_ms()
            claims = games.store.claim_all_due(now, self.lease_ms, self.batch, self.client_batch)
            for claim in claims:
                turns.setdefault((n, claim.client), deque()).append(InHand(games, claim))
        for (n, _), held in self._thought():
            turns.setdefault((n, held.claim.client), deque()).appendleft(held)
        seen = sum(len(queue) for queue in turns.values())
        rounds = deque(turns.values())
        while rounds and not self.stop.is_set():
            queue = rounds.popleft()
            held = queue.popleft()
            done = self.step(held)
            if done is None:  # its bot is thinking: held until the pool answers
                self.thinking[(self.games.index(held.games), held.claim.game_id)] = held
            elif not done:
                queue.append(held)
            if queue:
                rounds.append(queue)
        return seen

    def _thought(self) -> list[tuple[tuple[int, str], InHand]]:
        """The held games whose decision is made, taken out of :attr:`thinking`; the
        claims of the others renewed when half their lease is gone (a renewal that finds
        the game moved by a write lets it go: its decision is for an older version)."""
        ready = []
        now = seats.now_ms()
        for key, held in list(self.thinking.items()):
            if self.thinker.ready(held.thinking):
                ready.append((key, self.thinking.pop(key)))
            elif held.claim.score - now < self.lease_ms // 2:
                renewed = now + self.lease_ms
                if held.games.store.reschedule(held.claim, renewed):
                    held.claim.score = renewed
                else:
                    del self.thinking[key]
        return ready

    def step(self, held: InHand) -> bool | None:
        """Play one due seat of a claimed game; whether the game is done with for this
        claim (``None``: its search bot is thinking, come back). When nothing is due it
        goes back in the schedule at its next due time (unless a write moved it
        meanwhile, which set its own)."""
        games, claim = held.games, held.claim
        self.thinker.client = claim.client  # (its queue of decisions)
        try:
            _, lag = play_due(games, claim.game_id, self.thinker)
        except Thinking as thinking:
            held.thinking = thinking.args[0] if thinking.args else None
            if held.steps:  # its own move made the game due: claimed again meanwhile
                now = seats.now_ms()
                if not games.store.hold(claim, now, now + self.lease_ms):
                    return True  # another copy took it
            return None
        except NothingDue as nothing:
            doc, now = nothing.doc, seats.now_ms()
            if doc is not None:
                clock.remind(games, doc, now)  # a clock_low due now (shared/push/clock.py)
            due = None if doc is None else seats.due_ms(doc, now)
            games.store.reschedule(claim, due, None if doc is None else client_of(doc))
            return True
        except Exception:  # a conflict storm or a bad bot: retried after the lease
            log.exception("could not play game %s", claim.game_id)
            return True
        self.moves += 1
        self.lags.append(lag)
        self.late_ms = max(self.late_ms, lag)
        held.steps += 1
        return held.steps >= STEPS_PER_CLAIM

    def _beat(self) -> None:
        if self.heartbeat:
            Path(self.heartbeat).touch()


def healthy(heartbeat: str, max_age: float) -> bool:
    """Whether the heartbeat file was touched within ``max_age`` seconds."""
    try:
        return time.time() - os.stat(heartbeat).st_mtime <= max_age
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="boardgames-worker", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 0 if a worker is alive")
    parser.add_argument("--report", action="store_true", help="print lag figures on exit")
    args = parser.parse_args(argv)
    settings = load_settings()
    if args.check:
        return (
            0
            if healthy(settings["WORKER_HEARTBEAT_FILE"], 10 + 5 * settings["WORKER_POLL_SECONDS"])
            else 1
        )
    logging.basicConfig(
        level=settings["LOG_LEVEL"].upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    worker = Worker(build_games(settings), settings)
    if settings["WORKER_METRICS_PORT"]:
        try:
            metrics.serve_worker_metrics(
                settings["WORKER_METRICS_PORT"], settings["WORKER_METRICS_HOST"]
            )
        except OSError as error:  # a taken port costs the metrics, not the moves
            log.warning("no worker metrics on port %s: %s", settings["WORKER_METRICS_PORT"], error)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: worker.stop.set())
    names = ", ".join(g.engine.NAME for g in worker.games)
    log.info("worker serving %s (poll %.2fs)", names, worker.poll)
    worker.run()
    log.info("worker stopped after %d moves", worker.moves)
    if args.report:
        print(json.dumps({"moves": worker.moves, "lags_ms": list(worker.lags)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

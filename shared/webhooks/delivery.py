"""The worker's side of webhooks: signed POSTs, in order per registration, with backoff,
many at once and taking turns. A tournament's notifications (its address ``tn:<id>``
where a game's id stands, shared/webhooks/subjects.py) go the same way.

Which games have notifications to send comes from the ready streams (``<p>:whq:{k}``,
one Redis Streams consumer group ``webhooks`` shared by every worker). For a game with a
ready entry, a *pass* reads the game's registrations and outbox and makes one *job* per
registration with notifications after its cursor. Jobs run on ``WEBHOOK_CONCURRENCY``
threads. A job locks its registration (``<p>:{id}:whstate:lock:<reg>``, renewed before
every attempt: one deliverer anywhere sends a registration's notifications), reads its
cursor again and sends what follows it, in outbox order.

Turns: a job sends for at most ``WEBHOOK_TURN_SECONDS`` (plus the one attempt under way,
at most ``WEBHOOK_TIMEOUT_SECONDS``). A job stopped by its turn has its game signalled
ready again once the pass ends: a new entry at the end of the ready stream, so its next
turn comes after the games waiting now, in any worker. A free thread takes a waiting
job of the game with the fewest jobs running, and of those the game read first. So a
registration holds at most one thread at a time, for one turn at a time, and a slow or
busy receiver holds up no other game beyond the turns already under way.

A failed attempt sets the notification's next attempt (exponential backoff with jitter,
``WEBHOOK_BACKOFF_BASE_SECONDS`` doubling up to ``WEBHOOK_BACKOFF_MAX_SECONDS``) and
holds that registration's later ones behind it; after ``WEBHOOK_GIVE_UP_SECONDS`` it is
marked failed and the cursor moves on. While anything waits, the ready entry stays
unacknowledged: after ``WEBHOOK_CLAIM_IDLE_SECONDS`` any worker claims it (XAUTOCLAIM)
and looks again. So an entry held by a worker that died is claimed by another. Delivery
is at least once: a worker killed after the receiver answered but before recording it
sends that notification again (same ``webhook-id``).

After each pass the notifications every registration is done with (delivered, given
up, or of a registration gone with its player, or of a player without a webhook) leave
the outbox with their records, but for the newest ``KEPT``. A player's registration and
push subscriptions (each a registration of its own, sent by the :class:`PushChannel` the
worker hands in: shared/push/sending.py) are looked up at each pass
(shared/webhooks/players.py).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import random
import socket
import time
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from shared.games.notify import message_id
from shared.ops import metrics
from shared.store import GameStore, dumps
from shared.webhooks import attempts, players, signing, subjects
from shared.webhooks.players import _sid
from shared.webhooks.sending import PushChannel, post

log = logging.getLogger("shared.webhooks")
GROUP = "webhooks"
KEPT = 50
"""Handled notifications a game's outbox keeps (the newest), for its delivery list."""
DONE, WAITING, MORE = "done", "waiting", "more"
"""How a job ended: nothing left; something waits (a backoff, another deliverer's
lock, a stop); its turn ran out with more to send."""


Note = tuple[str, dict[str, Any]]
"""An outbox entry: its id and the notification."""
Ready = tuple[int, str]

"""A ready entry: its shard and id."""
GameKey = tuple[int, str]
"""A game: the index of its store and its id."""


@dataclass
class Job:
    """One registration's notifications of a pass, in outbox order."""

    key: GameKey
    reg: dict[str, Any]
    notes: list[Note]


@dataclass
class Pass:
    """One look at a game: its registrations (by the address of the notifications they
    hear) and outbox as read, the ready entries it answers, and its jobs."""

    ready: dict[Ready, None]
    version: int = 0
    regs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    scanned: list[Note] = field(default_factory=list)
    waiting: deque[Job] = field(default_factory=deque)
    later: dict[Ready, None] = field(default_factory=dict)
    running: int = 0
    idle: bool = True
    again: bool = False
    more: bool = False
    order: int = 0


class Deliverer:
    """The webhook side of one worker process (see the module's docstring). The worker's
    webhook thread calls :meth:`tick` in a loop; jobs run on a thread pool."""

    def __init__(
        self,
        stores: list[GameStore],
        settings: dict[str, Any],
        pusher: PushChannel | None = None,
    ) -> None:
        self.stores = stores
        self.key = settings.get("WEBHOOK_SIGNING_KEY", "")
        self.allow_private = settings.get("WEBHOOK_ALLOW_PRIVATE", False)
        self.timeout = settings.get("WEBHOOK_TIMEOUT_SECONDS", 5.0)
        self.base = settings.get("WEBHOOK_BACKOFF_BASE_SECONDS", 5.0)
        self.cap = settings.get("WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0)
        self.give_up = settings.get("WEBHOOK_GIVE_UP_SECONDS", 86400.0)
        self.idle_ms = int(settings.get("WEBHOOK_CLAIM_IDLE_SECONDS", 5.0) * 1000)
        self.turn = settings.get("WEBHOOK_TURN_SECONDS", 10.0)
        self.threads = max(1, int(settings.get("WEBHOOK_CONCURRENCY", 8)))
        self.lock_ms = int((2 * self.timeout + 1) * 1000)
        self.state_ttl = settings.get("GAME_TTL_FINISHED", 7 * 86400)
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.stop: Callable[[], bool] = lambda: False
        self.room = 4 * self.threads
        """Games read from the ready streams and not yet finished, at most."""
        self.queued: dict[GameKey, dict[Ready, None]] = {}
        self.passes: dict[GameKey, Pass] = {}
        self.running = 0
        self.planned = 0
        self.pool = ThreadPoolExecutor(self.threads, thread_name_prefix="webhooks")
        self.results: queue.SimpleQueue[tuple[Job, str]] = queue.SimpleQueue()
        self.pusher = pusher

    def backoff(self, attempts: int) -> float:
        """Seconds before attempt ``attempts + 1``: base * 2^(attempts-1), capped, with
        up to 20 % jitter so that receivers coming back are not hit in lockstep."""
        delay = min(self.cap, self.base * 2 ** min(attempts - 1, 30))
        return float(min(self.cap, delay * random.uniform(1.0, 1.2)))

    # -- the webhook thread ------------------------------------------------------------

    def tick(self) -> int:
        """Finish the passes whose jobs ended, read ready entries while there is room,
        plan passes and start waiting jobs on free threads; the steps taken (0: idle)."""
        return self._collect() + self._read() + self._plan() + self._start()

    def settle(self, timeout: float) -> None:
        """Tick until nothing is queued or under way, or ``timeout`` seconds passed."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.tick()
            if not self.queued and not self.passes:
                return
            time.sleep(0.01)

    def close(self) -> None:
        """Let the attempts under way finish (each checks :attr:`stop` before the next)."""
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _read(self) -> int:
        room = self.room - len(self.queued) - len(self.passes)
        if room <= 0 or self.stop():
            return 0
        found = 0
        for index, store in enumerate(self.stores):
            entries = store.ready_read_all(GROUP, self.consumer, min(room, 20), self.idle_ms)
            for shard, entry_id, game_id in entries:
                key = (index, game_id)
                found += 1
                if key in self.passes:
                    self.passes[key].later[(shard, entry_id)] = None
                else:
                    self.queued.setdefault(key, {})[(shard, entry_id)] = None
        return found

    def _plan(self) -> int:
        planned = 0
        while self.queued and not self.stop():
            key = next(iter(self.queued))
            ready = self.queued.pop(key)
            planned += 1
            try:
                self._plan_one(key, ready)
            except Exception:  # Redis gone, a bad entry: this game only, claimed again later
                log.exception("webhooks of game %s: could not plan; later", key[1])
        return planned

    def _plan_one(self, key: GameKey, ready: dict[Ready, None]) -> None:
        """Read the game and its outbox; queue a job per registration with notifications
        after its cursor, or finish at once when there is none."""
        store = self.stores[key[0]]
        found = subjects.registrations(store, key[1])  # a game's, or a tournament's
        if found is None:
            metrics.WEBHOOK_DELIVERIES.labels("dropped").inc()
            self._ack(store, ready)  # the game expired: nothing left to tell
            return
        run = Pass(ready, *found)
        self.planned += 1
        run.order = self.planned
        after = "-"
        while True:
            page = store.outbox_entries(key[1], after, 500)
            if not page:
                break
            run.scanned += page
            after = page[-1][0]
        state = store.webhook_state(key[1])
        run.regs |= {a: [r] for a, r in players.current(store.registry, run.scanned).items()}
        pushed = self.pusher.current(store.registry.client, run.scanned) if self.pusher else {}
        for address, subs in pushed.items():
            run.regs.setdefault(address, []).extend(subs)  # the players' as of now
        mine: dict[str, tuple[dict[str, Any], list[Note]]] = {}
        for entry_id, note in run.scanned:
            for reg in run.regs.get(note["reg"], []):
                if players.waiting(entry_id, note, reg, state):
                    mine.setdefault(reg["id"], (reg, []))[1].append((entry_id, note))
            if note["reg"] not in run.regs and note["data"]["version"] > run.version:
                run.idle, run.again = False, True  # a registration newer than this read
        run.waiting.extend(Job(key, reg, notes) for reg, notes in mine.values())
        self.passes[key] = run
        if not run.waiting:
            self._finish(key, run)

    def _start(self) -> int:
        started = 0
        while self.running < self.threads and not self.stop():
            ready = [
                (run.running, run.order, key) for key, run in self.passes.items() if run.waiting
            ]
            if not ready:
                break
            _, _, key = min(ready)
            run = self.passes[key]
            job = run.waiting.popleft()
            run.running += 1
            self.running += 1
            self.pool.submit(self._job, job)
            started += 1
        return started

    def _collect(self) -> int:
        finished = 0
        while True:
            try:
                job, outcome = self.results.get_nowait()
            except queue.Empty:
                return finished
            finished += 1
            self.running -= 1
            run = self.passes[job.key]
            run.running -= 1
            if outcome == MORE:
                run.more = True
            elif outcome == WAITING:
                run.idle = False
            if not run.running and not run.waiting:
                self._finish(job.key, run)

    def _finish(self, key: GameKey, run: Pass) -> None:
        """The pass is over: tidy the outbox; signal the game ready again when a job's
        turn ran out (to the back of the line); acknowledge its ready entries when
        nothing else waits; look again now at entries that came meanwhile (or when the
        pass met a registration newer than its read)."""
        del self.passes[key]
        store = self.stores[key[0]]
        try:
            self._tidy(store, key[1], run)
            if run.more:
                store.signal_ready(key[1])
            if run.idle:
                self._ack(store, run.ready)
        except Exception:  # Redis gone, a bad entry: the ready entries are claimed again
            log.exception("webhooks of game %s: could not tidy; later", key[1])
        again = {**(run.ready if run.again else {}), **run.later}
        if again:
            self.queued.setdefault(key, {}).update(again)

    def _tidy(self, store: GameStore, game_id: str, run: Pass) -> None:
        """Delete the handled notifications (but the newest ``KEPT``) and their records,
        and the cursors of registrations gone."""
        if len(run.scanned) <= KEPT:
            return
        state = store.webhook_state(game_id)
        gone: set[str] = set()
        handled = []
        for entry_id, note in run.scanned[:-KEPT]:
            reg = note["reg"]
            if reg not in run.regs:
                if note["data"]["version"] <= run.version:  # its player left
                    handled.append(entry_id)
                    gone.add(reg)
                continue
            if not any(players.waiting(entry_id, note, r, state) for r in run.regs[reg]):
                handled.append(entry_id)
        fields = [f"d:{e}" for e in handled if f"d:{e}" in state]
        fields += [f"cur:{reg}" for reg in gone if f"cur:{reg}" in state]
        if handled or fields:
            store.outbox_forget(game_id, handled, fields)

    def _ack(self, store: GameStore, ready: dict[Ready, None]) -> None:
        by_shard: dict[int, list[str]] = {}
        for shard, entry_id in ready:
            by_shard.setdefault(shard, []).append(entry_id)
        for shard, ids in by_shard.items():
            store.ready_done(shard, GROUP, ids)

    # -- the pool's threads -----------------------------------------------------------

    def _job(self, job: Job) -> None:
        try:
            outcome = self._send(job)
        except Exception:  # Redis gone, a bug: the pass waits, the entry is claimed again
            log.exception("webhook %s of game %s failed; retrying", job.reg["id"], job.key[1])
            outcome = WAITING
        self.results.put((job, outcome))

    def _send(self, job: Job) -> str:
        """Send the job's notifications after its registration's cursor, in order, for
        one turn at most; how it ended."""
        store, game_id, reg_id = self.stores[job.key[0]], job.key[1], job.reg["id"]
        if not store.webhook_lock(game_id, reg_id, self.consumer, self.lock_ms):
            return WAITING  # another deliverer sends them now
        try:
            fields = [f"cur:{reg_id}", *(f"d:{entry_id}" for entry_id, _ in job.notes)]
            cursor, *records = store.webhook_fields(game_id, fields)
            started, attempted = time.monotonic(), False
            for (entry_id, note), record in zip(job.notes, records, strict=True):
                if cursor is not None and _sid(entry_id) <= _sid(cursor):
                    continue  # delivered since the pass read it
                if self.stop():
                    return WAITING
                if attempted and time.monotonic() - started >= self.turn:
                    return MORE
                attempted = True
                if not self._attempt(store, game_id, entry_id, note, job.reg, record):
                    return WAITING
            return DONE
        finally:
            store.webhook_unlock(game_id, reg_id, self.consumer)

    def _attempt(
        self,
        store: GameStore,
        game_id: str,
        entry_id: str,
        note: dict[str, Any],
        reg: dict[str, Any],
        stored: str | None,
    ) -> bool:
        """Try one notification if due; whether its registration may go on (delivered,
        or given up)."""
        record = json.loads(stored or "{}")
        now = time.time()
        if record.get("next_at", 0) > now:
            return False
        if not store.webhook_lock(game_id, reg["id"], self.consumer, self.lock_ms):
            return False
        msg_id = message_id(game_id, entry_id)
        started = time.monotonic()
        if "push" in reg and self.pusher is not None:
            status, error, verdict = self.pusher.send(store.registry.client, note, reg)
        else:
            body = dumps({k: note[k] for k in ("type", "timestamp", "data")})
            secret = signing.secret_for(self.key, reg.get("signer", reg["id"]))  # a player's
            headers = signing.headers(secret, msg_id, body)
            status, error = post(reg["url"], body, headers, self.timeout, self.allow_private)
            verdict = None
        metrics.WEBHOOK_LATENCY.observe(time.monotonic() - started)
        record.setdefault("first_at", now)
        record["attempts"] = record.get("attempts", 0) + 1
        result, go_on = attempts.settle(
            record, status, error, verdict, now, self.give_up, self.backoff
        )
        fields: dict[str, str] = {f"cur:{reg['id']}": entry_id} if go_on else {}
        metrics.WEBHOOK_DELIVERIES.labels(result).inc()
        fields[f"d:{entry_id}"] = dumps(record)
        store.webhook_state_set(game_id, fields, self.state_ttl)
        if result != "delivered":
            log.info("webhook %s of game %s: %s (%s)", msg_id, game_id, result, error or status)
        return go_on

"""The worker's side of webhooks: signed POSTs, in order per registration, with backoff.

Which games have notifications to send comes from the ready streams (``<p>:whq:{k}``,
one Redis Streams consumer group ``webhooks`` shared by every worker). A worker takes an
entry, locks the game's deliveries (``<p>:{id}:whstate:lock``, renewed before every
attempt) and sends each registration's notifications after its cursor, in outbox order.
A failed attempt sets the notification's next attempt (exponential backoff with jitter,
``WEBHOOK_BACKOFF_BASE_SECONDS`` doubling up to ``WEBHOOK_BACKOFF_MAX_SECONDS``) and
holds that registration's later ones behind it; after ``WEBHOOK_GIVE_UP_SECONDS`` it is
marked failed and the cursor moves on. While anything waits, the ready entry stays
unacknowledged: after ``WEBHOOK_CLAIM_IDLE_SECONDS`` any worker claims it (XAUTOCLAIM)
and looks again. So an entry held by a worker that died is claimed by another. Delivery
is at least once: a worker killed after the receiver answered but before recording it
sends that notification again (same ``webhook-id``).
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import random
import socket
import ssl
import time
import uuid
from collections.abc import Callable
from typing import Any

from shared.http.errors import ApiError
from shared.http.webhooks import message_id
from shared.ops import metrics
from shared.store import GameStore, dumps
from shared.webhooks import signing, ssrf
from shared.webhooks.notify import now_iso

log = logging.getLogger("shared.webhooks")
GROUP = "webhooks"
READ_CAP = 64 * 1024
"""Bytes of a receiver's answer read at most (the rest is never read)."""
USER_AGENT = "boardgames-webhooks/1"


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address, with the URL's host name for SNI and the cert check."""

    def __init__(self, address: str, port: int, hostname: str, timeout: float) -> None:
        super().__init__(address, port, timeout=timeout, context=ssl.create_default_context())
        self._hostname = hostname

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self._hostname)  # type: ignore[attr-defined]


def post(
    url: str, body: str, headers: dict[str, str], timeout: float, allow_private: bool
) -> tuple[int | None, str | None]:
    """One attempt: ``(status, None)`` when the receiver answered, ``(None, error)``
    else. The host is resolved and checked now (DNS rebinding) and the connection goes
    to that address; no redirect is followed; at most ``READ_CAP`` bytes are read."""
    try:
        target = ssrf.parse(url)
        addresses = ssrf.resolve(target, allow_private)
    except ApiError as error:
        return None, error.detail
    host_header = (
        target.host
        if target.port == ssrf.SCHEMES[target.scheme]
        else (f"{target.host}:{target.port}")
    )
    started = time.monotonic()
    failure = "no address"
    for address in addresses[:3]:
        left = timeout - (time.monotonic() - started)
        if left <= 0:
            return None, "timeout"
        conn: http.client.HTTPConnection
        if target.scheme == "https":
            conn = _PinnedHTTPS(address, target.port, target.host, left)
        else:
            conn = http.client.HTTPConnection(address, target.port, timeout=left)
        try:
            conn.putrequest("POST", target.path, skip_host=True, skip_accept_encoding=True)
            for name, value in {
                "Host": host_header,
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                **headers,
            }.items():
                conn.putheader(name, value)
            data = body.encode()
            conn.putheader("Content-Length", str(len(data)))
            conn.endheaders(data)
            response = conn.getresponse()
            response.read(READ_CAP)
            return response.status, None
        except (OSError, http.client.HTTPException) as exc:
            failure = type(exc).__name__ if not str(exc) else f"{type(exc).__name__}: {exc}"
        finally:
            conn.close()
    return None, failure[:200]


def _sid(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


class Deliverer:
    """The webhook side of one worker process (see the module's docstring)."""

    def __init__(self, stores: list[GameStore], settings: dict[str, Any]) -> None:
        self.stores = stores
        self.settings = settings
        self.key = settings.get("WEBHOOK_SIGNING_KEY", "")
        self.allow_private = settings.get("WEBHOOK_ALLOW_PRIVATE", False)
        self.timeout = settings.get("WEBHOOK_TIMEOUT_SECONDS", 5.0)
        self.base = settings.get("WEBHOOK_BACKOFF_BASE_SECONDS", 5.0)
        self.cap = settings.get("WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0)
        self.give_up = settings.get("WEBHOOK_GIVE_UP_SECONDS", 86400.0)
        self.idle_ms = int(settings.get("WEBHOOK_CLAIM_IDLE_SECONDS", 5.0) * 1000)
        self.lock_ms = int((2 * self.timeout + 1) * 1000)
        self.state_ttl = settings.get("GAME_TTL_FINISHED", 7 * 86400)
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.stop: Callable[[], bool] = lambda: False
        self.sent = 0

    def backoff(self, attempts: int) -> float:
        """Seconds before attempt ``attempts + 1``: base * 2^(attempts-1), capped, with
        up to 20 % jitter so that receivers coming back are not hit in lockstep."""
        delay = min(self.cap, self.base * 2 ** min(attempts - 1, 30))
        return float(min(self.cap, delay * random.uniform(1.0, 1.2)))

    def tick(self) -> int:
        """Handle every ready entry this worker gets now; the number of games seen."""
        seen = 0
        for store in self.stores:
            entries = store.ready_read_all(GROUP, self.consumer, 20, self.idle_ms)
            handled: dict[str, bool] = {}
            done: dict[int, list[str]] = {}
            for shard, entry_id, game_id in entries:
                if self.stop():
                    break
                if game_id not in handled:
                    seen += 1
                    handled[game_id] = self.handle(store, game_id)
                    # a later entry of a game handled fully now is done as well
                if handled[game_id]:
                    done.setdefault(shard, []).append(entry_id)
            for shard, ids in done.items():
                store.ready_done(shard, GROUP, ids)
        return seen

    def handle(self, store: GameStore, game_id: str) -> bool:
        """Send what is due for the game; whether nothing is left waiting."""
        if not store.webhook_lock(game_id, self.consumer, self.lock_ms):
            return False  # another worker is at it: this entry is claimed again later
        try:
            return self._deliver(store, game_id)
        finally:
            store.webhook_unlock(game_id, self.consumer)

    def _deliver(self, store: GameStore, game_id: str) -> bool:
        doc, _ = store.read(game_id)
        if doc is None:
            metrics.WEBHOOK_DELIVERIES.labels("dropped").inc()
            return True  # the game expired: nothing left to tell
        regs = {r["id"]: r for r in doc.get("webhooks") or []}
        state = store.webhook_state(game_id)
        cursors = {reg: state.get(f"cur:{reg}") for reg in regs}
        start = (
            "-"
            if None in cursors.values() or not cursors
            else min((c for c in cursors.values() if c), key=_sid)
        )
        blocked: set[str] = set()
        idle = True
        after = start
        while True:
            entries = store.outbox_entries(game_id, after, 200)
            if not entries:
                return idle
            for entry_id, note in entries:
                after = entry_id
                reg = regs.get(note["reg"])
                cursor = cursors.get(note["reg"])
                if reg is None or note["reg"] in blocked:
                    continue
                if cursor is not None and _sid(entry_id) <= _sid(cursor):
                    continue
                if self.stop():
                    return False
                if not self._attempt(store, game_id, entry_id, note, reg, state):
                    blocked.add(note["reg"])
                    idle = False
                    continue
                cursors[note["reg"]] = entry_id

    def _attempt(
        self,
        store: GameStore,
        game_id: str,
        entry_id: str,
        note: dict[str, Any],
        reg: dict[str, Any],
        state: dict[str, str],
    ) -> bool:
        """Try one notification if due; whether its registration may go on (delivered,
        or given up)."""
        record = json.loads(state.get(f"d:{entry_id}", "{}"))
        now = time.time()
        if record.get("next_at", 0) > now:
            return False
        if not store.webhook_lock(game_id, self.consumer, self.lock_ms):
            return False
        msg_id = message_id(game_id, entry_id)
        body = dumps({"type": note["type"], "timestamp": note["timestamp"], "data": note["data"]})
        secret = signing.secret_for(self.key, reg["id"])
        started = time.monotonic()
        status, error = post(
            reg["url"],
            body,
            signing.headers(secret, msg_id, body),
            self.timeout,
            self.allow_private,
        )
        metrics.WEBHOOK_LATENCY.observe(time.monotonic() - started)
        record.setdefault("first_at", now)
        record["attempts"] = record.get("attempts", 0) + 1
        fields: dict[str, str] = {}
        if status is not None and 200 <= status < 300:
            record |= {"status": "delivered", "delivered_at": now_iso(), "last_error": None}
            record.pop("next_at", None)
            record.pop("next_attempt_at", None)
            fields[f"cur:{reg['id']}"] = entry_id
            result, go_on = "delivered", True
            self.sent += 1
        else:
            record["last_error"] = error or f"HTTP {status}"
            if now - record["first_at"] >= self.give_up:
                record["status"] = "failed"
                record.pop("next_at", None)
                record.pop("next_attempt_at", None)
                fields[f"cur:{reg['id']}"] = entry_id
                result, go_on = "failed", True
            else:
                wait = self.backoff(record["attempts"])
                record |= {"status": "pending", "next_at": now + wait}
                record["next_attempt_at"] = time.strftime(
                    "%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + wait)
                )
                result, go_on = "retried", False
        metrics.WEBHOOK_DELIVERIES.labels(result).inc()
        fields[f"d:{entry_id}"] = dumps(record)
        state[f"d:{entry_id}"] = fields[f"d:{entry_id}"]
        store.webhook_state_set(game_id, fields, self.state_ttl)
        if result != "delivered":
            log.info("webhook %s of game %s: %s (%s)", msg_id, game_id, result, error or status)
        return go_on

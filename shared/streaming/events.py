"""The event stream to clients: long-poll and Server-Sent Events.

Events live in the game's Redis Stream, so a client that was away resumes from the last
event id it saw. Waiting is a blocking XREAD on the store's blocking client (under
gunicorn's gevent worker it parks a greenlet only), or with ``EVENTS_FANOUT`` the
worker process's one subscription to the game's channel wakes its waiters, which then
read the stream without blocking (shared/streaming/fanout.py).

A waiting client still holds a connection slot of its worker (gunicorn's
``worker_connections``), a greenlet (a thread under gthread) and, without the fan-out, a
Redis connection, so :class:`WaitGate` caps the waits a worker process holds at once, in
all and per client address.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

from shared.games import OVER, TERMINAL_EVENTS
from shared.http.errors import ApiError, problem
from shared.http.middleware.ratelimit import address_of
from shared.ops import metrics
from shared.store import GameStore, StoreError, normalize_after
from shared.streaming import fanout

log = logging.getLogger(__name__)


class WaitSlot:
    """One admitted wait; :meth:`release` gives the slot back (once, however often called)."""

    def __init__(self, gate: WaitGate, address: str) -> None:
        self._gate = gate
        self._address: str | None = address

    def release(self) -> None:
        address, self._address = self._address, None
        if address is not None:
            self._gate._leave(address)

    def __enter__(self) -> WaitSlot:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


class WaitGate:
    """Caps the waits (long-polls that block, SSE streams) this process holds at once:
    ``per_address`` for one client address (over it: ``429 too-many-waits``) and
    ``per_process`` in all (over it: ``503 server-busy``), both with ``Retry-After``.

    The counts are this process's own, in memory: what a wait ties up (a connection slot,
    a greenlet, a Redis connection) is the process's, so is the cap. It costs no round
    trip and no count can outlive a dying worker. The price: one address may hold
    ``per_address`` waits in each worker process of each instance.
    """

    def __init__(self, per_address: int, per_process: int, retry_after: int) -> None:
        self.per_address = per_address
        self.per_process = per_process
        self.retry_after = retry_after
        self.total = 0
        self.by_address: dict[str, int] = {}
        self._lock = threading.Lock()  # for threaded workers; gevent never switches here

    def check(self, address: str) -> None:
        """The 429/503 :meth:`enter` would give now, without taking a slot: a request
        that asks to wait is turned away before it costs a Redis round trip."""
        refusal = self._refusal(address)
        if refusal is not None:
            raise refusal

    def enter(self, address: str) -> WaitSlot:
        """A slot for one wait of ``address``, or the 429/503 that refuses it."""
        with self._lock:
            refusal = self._refusal(address)
            if refusal is None:
                self.by_address[address] = self.by_address.get(address, 0) + 1
                self.total += 1
                return WaitSlot(self, address)
        raise refusal

    def _refusal(self, address: str) -> ApiError | None:
        held = self.by_address.get(address, 0)
        if held >= self.per_address:
            status, code = 429, "too-many-waits"
            detail = f"Too many waits from this address ({held} open)"
        elif self.total >= self.per_process:
            status, code = 503, "server-busy"
            detail = f"This server process holds all the waits it can ({self.total})"
        else:
            return None
        return ApiError(
            status,
            code,
            f"{detail}; poll without waiting (wait=0) or retry in {self.retry_after} s.",
            headers={"Retry-After": str(self.retry_after)},
        )

    def _leave(self, address: str) -> None:
        with self._lock:
            self.total -= 1
            held = self.by_address.pop(address) - 1
            if held:
                self.by_address[address] = held


_EVENTS_PATH = re.compile(r"^/games/[^/]+/events$")
_WAIT = re.compile(r"(?:^|&)wait=([^&]*)")


class WaitGateMiddleware:
    """Turns away a request to wait from an address at its cap before Flask runs.

    A flood of waits is answered at the rate the server can refuse them; refusing in
    Flask (routing, argument parsing, hooks) costs several times what this does, and
    5,000 clients retrying after ``Retry-After`` kept two workers busy. Requests from
    browsers (with ``Origin``) go on to Flask, which adds the CORS headers they need;
    the view refuses them with the same answer.
    """

    def __init__(self, app: Any, gate: WaitGate) -> None:
        self.app = app
        self.gate = gate

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.gate.total and self._asks_to_wait(environ):
            refusal = self.gate._refusal(address_of(environ.get("REMOTE_ADDR")))
            if refusal is not None:
                response = problem(refusal.status, refusal.code, refusal.detail, refusal.headers)
                response.headers["X-Content-Type-Options"] = "nosniff"
                return response(environ, start_response)
        return self.app(environ, start_response)

    @staticmethod
    def _asks_to_wait(environ: dict[str, Any]) -> bool:
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_ORIGIN" in environ:
            return False
        if not _EVENTS_PATH.match(environ.get("PATH_INFO", "")):
            return False
        if "text/event-stream" in environ.get("HTTP_ACCEPT", ""):
            return True
        wait = _WAIT.search(environ.get("QUERY_STRING", ""))
        try:
            return wait is not None and float(wait.group(1)) > 0
        except ValueError:
            return False  # Flask answers the 422


def long_poll(
    store: GameStore,
    doc: dict[str, Any],
    after: str | None,
    wait: float,
    limit: int,
    gate: WaitGate | None = None,
    address: str = "",
) -> dict[str, Any]:
    """Events after ``after``; if none yet, waits up to ``wait`` seconds for the first
    (in a slot of ``gate``, for ``address``: refused over its caps).

    A game that is over gets no new events, so it never waits; nor does a client whose
    events are already there, so only real waits count against the caps.
    """
    start = normalize_after(after)
    block_ms = 0 if doc["status"] in OVER else max(int(wait * 1000), 1 if wait > 0 else 0)
    events = store.events(doc["id"], start, limit)
    if not events and block_ms:
        with metrics.waiting("long-poll"):
            if gate is None:
                events = _wait(store, doc["id"], start, limit, block_ms)
            else:
                with gate.enter(address):
                    events = _wait(store, doc["id"], start, limit, block_ms)
    last_id = events[-1]["id"] if events else (after or "0")
    return {"events": events, "last_id": last_id}


def _wait(store: GameStore, game_id: str, after: str, limit: int, block_ms: int) -> Any:
    """The blocking read: woken by this process's subscription (shared/fanout), or a
    blocking XREAD with ``EVENTS_FANOUT`` off."""
    with fanout.waiting(store, game_id) as waiter:
        return waiter.events(after, limit, block_ms)


def sse_format(event: dict[str, Any]) -> str:
    """One SSE message: ``id``, ``event`` (the type) and the event as JSON ``data``."""
    return f"id: {event['id']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"


def sse_stream(
    store: GameStore,
    game_id: str,
    after: str | None,
    over: bool,
    heartbeat: float,
    lifetime: float,
    batch: int = 100,
) -> Iterator[str]:
    """SSE messages from ``after`` on: events as they come, a comment line every
    ``heartbeat`` seconds (keeps proxies from closing an idle connection), and an end
    after ``lifetime`` seconds or once the game's final event went out. The client
    reconnects with ``Last-Event-ID`` to resume."""
    cursor = normalize_after(after)
    deadline = time.monotonic() + lifetime
    yield f"retry: 1000\n: stream of game {game_id}\n\n"
    with (
        metrics.waiting("sse"),  # until the stream ends or the client leaves
        fanout.waiting(store, game_id) as waiter,  # one subscription for the whole stream
    ):
        try:
            # Catch up without waiting first: a resumed cursor may be older than the
            # capped stream (then the events come rebuilt from the history).
            while time.monotonic() < deadline:
                events = store.events(game_id, cursor, batch)
                for event in events:
                    cursor = event["id"]
                    yield sse_format(event)
                    over = over or event["type"] in TERMINAL_EVENTS
                if len(events) < batch:
                    break
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                block_ms = 0 if over else max(1, int(min(heartbeat, remaining) * 1000))
                if block_ms:
                    events = waiter.events(cursor, batch, block_ms)
                else:
                    events = store.events(game_id, cursor, batch)
                if not events:
                    if over:
                        return
                    yield ": heartbeat\n\n"
                    continue
                for event in events:
                    cursor = event["id"]
                    yield sse_format(event)
                    if event["type"] in TERMINAL_EVENTS:
                        over = True
        except StoreError as error:  # the stream ends; the client resumes
            log.warning("event stream of %s ended: %s", game_id, error)

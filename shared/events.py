"""The event stream to clients: long-poll (XREAD BLOCK) and Server-Sent Events.

Events live in the game's Redis Stream, so a client that was away resumes from the last
event id it saw (pub/sub would have forgotten them). Waiting is a blocking XREAD on the
store's blocking client: under gunicorn's gevent worker it parks a greenlet only.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import redis.exceptions

from shared import metrics
from shared.games import OVER, TERMINAL_EVENTS
from shared.store import GameStore, normalize_after

log = logging.getLogger(__name__)


def long_poll(
    store: GameStore, doc: dict[str, Any], after: str | None, wait: float, limit: int
) -> dict[str, Any]:
    """Events after ``after``; if none yet, waits up to ``wait`` seconds for the first.

    A game that is over gets no new events, so it never waits.
    """
    start = normalize_after(after)
    block_ms = 0 if doc["status"] in OVER else max(int(wait * 1000), 1 if wait > 0 else 0)
    events = store.events(doc["id"], start, limit)
    if not events and block_ms:
        with metrics.waiting("long-poll"):
            events = store.events(doc["id"], start, limit, block_ms)
    last_id = events[-1]["id"] if events else (after or "0")
    return {"events": events, "last_id": last_id}


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
    with metrics.waiting("sse"):  # until the stream ends or the client leaves
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                block_ms = 0 if over else max(1, int(min(heartbeat, remaining) * 1000))
                events = store.events(game_id, cursor, batch, block_ms)
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
        except redis.exceptions.RedisError as error:  # the stream ends; the client resumes
            log.warning("event stream of %s ended: %s", game_id, error)

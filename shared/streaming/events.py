"""The event stream to clients: long-poll and Server-Sent Events.

Events live in the game's Redis Stream, so a client that was away resumes from the last
event id it saw. Waiting is a blocking XREAD on the store's blocking client (under
gunicorn's gevent worker it parks a greenlet only). A reader behind what the capped
stream keeps gets the history from the store instead, and the games layer rebuilds the
events from it (:func:`read_events`).

A waiting client holds a connection slot of its worker (gunicorn's
``worker_connections``), a greenlet (a thread under gthread) and a Redis connection, so
:class:`WaitGate` caps the waits a worker process holds at once, in all and per client
address: over a cap it raises :class:`TooManyWaits` or :class:`ServerBusy`, which the
HTTP layer answers (429, 503).

May import ``shared.games``, ``shared.store`` and ``shared.ops``; the HTTP layer mounts
it (``shared/http/resources/events.py``, ``shared/http/middleware/waits.py``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any

from shared.games import OVER, TERMINAL_EVENTS, Games, audience
from shared.games.audience import Audience
from shared.games.chat import ChatReader
from shared.games.document import GameDoc
from shared.games.errors import GameError
from shared.ops import metrics
from shared.store import Message, StoreError, normalize_after, position

log = logging.getLogger(__name__)


class WaitRefused(Exception):
    """A wait turned away by the caps; ``retry_after`` seconds is when to come back.
    ``detail`` is an English template ``params`` fill (translated by the HTTP layer)."""

    code = ""

    def __init__(self, detail: str, retry_after: int, **params: Any) -> None:
        text = detail.format_map(params) if params else detail
        super().__init__(text)
        self.detail = text
        self.template = detail
        self.params = params
        self.retry_after = retry_after


class TooManyWaits(WaitRefused):
    """This client address holds its share of the process's waits."""

    code = "too-many-waits"


class ServerBusy(WaitRefused):
    """The process holds all the waits it can."""

    code = "server-busy"


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
        refusal = self.refusal(address)
        if refusal is not None:
            raise refusal

    def enter(self, address: str) -> WaitSlot:
        """A slot for one wait of ``address``, or the 429/503 that refuses it."""
        with self._lock:
            refusal = self.refusal(address)
            if refusal is None:
                self.by_address[address] = self.by_address.get(address, 0) + 1
                self.total += 1
                return WaitSlot(self, address)
        raise refusal

    def refusal(self, address: str) -> WaitRefused | None:
        """Why a wait of ``address`` would be refused now, or ``None``."""
        held = self.by_address.get(address, 0)
        retry = self.retry_after
        if held >= self.per_address:
            return TooManyWaits(
                "Too many waits from this address ({held} open); poll without waiting "
                "(wait=0) or retry in {retry} s.",
                retry,
                held=held,
                retry=retry,
            )
        if self.total >= self.per_process:
            return ServerBusy(
                "This server process holds all the waits it can ({total}); poll without "
                "waiting (wait=0) or retry in {retry} s.",
                retry,
                total=self.total,
                retry=retry,
            )
        return None

    def _leave(self, address: str) -> None:
        with self._lock:
            self.total -= 1
            held = self.by_address.pop(address) - 1
            if held:
                self.by_address[address] = held


def long_poll(
    games: Games,
    reader: Audience,
    doc: GameDoc,
    after: str | None,
    wait: float,
    limit: int,
    gate: WaitGate | None = None,
    address: str = "",
    chat: ChatReader | None = None,
) -> dict[str, Any]:
    """Events after ``after`` as ``reader`` gets them (with ``chat``: the chat messages
    it reads among them); if none yet, waits up to ``wait`` seconds for the first (in a
    slot of ``gate``, for ``address``: refused over its caps).

    A game that is over gets no new events, so it never waits; nor does a client whose
    events are already there, so only real waits count against the caps. A delayed
    spectator waits at its delayed position (:class:`Follower`).
    """
    start = normalize_after(after)
    block_ms = 0 if doc["status"] in OVER else max(int(wait * 1000), 1 if wait > 0 else 0)
    follow = Follower(games, reader, doc, chat)
    events, cursor = follow.read(start, limit)
    if not events and block_ms:
        ends = time.monotonic() + block_ms / 1000
        with metrics.waiting("long-poll"), gate.enter(address) if gate else nullcontext():
            while not events:
                left = int((ends - time.monotonic()) * 1000)
                if left <= 0:
                    break
                events, cursor = follow.read(cursor, limit, left)
    last_id = events[-1]["id"] if events else (after or "0")
    return {"events": events, "last_id": last_id}


def read_events(
    games: Games,
    reader: Audience,
    game_id: str,
    after: str,
    count: int,
    block_ms: int = 0,
    upto: int | None = None,
    chat: ChatReader | None = None,
) -> list[dict[str, Any]]:
    """Up to ``count`` events after stream id ``after`` as ``reader`` gets them
    (:meth:`shared.games.answers.Answers.events`; none of a version after ``upto``;
    with ``chat``, the chat messages it reads among them), waiting up to ``block_ms``
    for the first (a blocking XREAD; 0: never waits). Those the capped stream no longer
    holds come from the store as the game's history, and are rebuilt from it."""
    return read_with_chat(games, reader, game_id, after, count, block_ms, chat, upto)[0]


def read_with_chat(
    games: Games,
    reader: Audience,
    game_id: str,
    after: str,
    count: int,
    block_ms: int = 0,
    chat: ChatReader | None = None,
    upto: int | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """:func:`read_events`, and the id of the last item read (``None``: nothing was
    read), shown or not: a chat message the reader does not read is passed over."""
    answers = games.answers(reader)
    if chat is None:
        found = games.store.events(game_id, after, count, block_ms)
        events = answers.events(found, position(after), count, upto)
        return events, events[-1]["id"] if events else None
    both = games.store.events_with_chat(
        game_id, after, count, block_ms, chat.muter if block_ms <= 0 else None
    )
    if both.mutes is not None:
        chat.hear(both.mutes)
    elif both.chat and chat.muter is not None:  # (a wait woken by a message: as of now)
        chat.hear(games.store.mutes_of(game_id, chat.muter))
    events = answers.events(both.events, position(after), count, upto)
    return merged(events, both.chat, chat, count)


def merged(
    events: list[dict[str, Any]], messages: list[Message], chat: ChatReader, count: int
) -> tuple[list[dict[str, Any]], str | None]:
    """The first ``count`` of ``events`` and chat ``messages`` in id order, those the
    reader reads (the messages as chat events), and the id of the last one passed
    (``None``: none). Nothing is passed past the reader's cut (its delay)."""
    items: list[tuple[tuple[int, int], dict[str, Any], bool]] = [
        (position(e["id"]), e, False) for e in events
    ]
    items += [(position(m["id"]), m, True) for m in messages]
    items.sort(key=lambda item: item[0])
    out, last = [], None
    for at, item, is_chat in items[:count]:
        if chat.cut is not None and at[0] > chat.cut:
            break
        last = item["id"]
        if not is_chat:
            out.append(item)
        elif chat.visible([item]):
            out.append(chat.event(item))
    return out, last


def next_events(
    games: Games,
    reader: Audience,
    game_id: str,
    cursor: str,
    count: int,
    block_ms: int,
    chat: ChatReader | None,
    upto: int | None = None,
) -> tuple[list[dict[str, Any]], str]:
    """The next events ``reader`` gets after ``cursor`` (waiting up to ``block_ms``
    for the first read; none of a version after ``upto``), read on past chat messages
    it does not read; and the cursor after what was read."""
    while True:
        found = read_with_chat(games, reader, game_id, cursor, count, block_ms, chat, upto)
        events, last = found
        if last is None:
            return [], cursor
        cursor = last
        if events:
            return events, cursor
        block_ms = 0  # only messages it does not read: read on, without waiting


class Follower:
    """How one reader follows a game's events (and with ``chat`` the messages it reads
    among them): as they come, or for a spectator of a game with a
    ``spectator_delay`` at its delayed position: only the events and messages up to
    the game's delayed version (:meth:`shared.games.answers.Answers.visible_version`),
    and a wait wakes at each write of the game (a move moves the delayed version),
    reads the document again and serves what became visible; once the game is over,
    all of it."""

    def __init__(
        self, games: Games, reader: Audience, doc: GameDoc, chat: ChatReader | None = None
    ) -> None:
        self.games = games
        self.reader = reader
        self.doc = doc
        self.chat = chat
        self.lags = audience.lags(reader, doc)

    def read(self, after: str, count: int, block_ms: int = 0) -> tuple[list[dict[str, Any]], str]:
        """Up to ``count`` events after ``after`` the reader may see, waiting up to
        ``block_ms`` for the first; and the cursor after what was read."""
        games, reader, game_id, chat = self.games, self.reader, self.doc["id"], self.chat
        if not self.lags:
            return next_events(games, reader, game_id, after, count, block_ms, chat)
        deadline = time.monotonic() + block_ms / 1000
        answers = games.answers(reader)
        while True:
            upto = answers.visible_version(self.doc)
            if chat is not None:
                chat.cut = upto
            events, after = next_events(games, reader, game_id, after, count, 0, chat, upto)
            left = int((deadline - time.monotonic()) * 1000)
            if events or left <= 0 or self.doc["status"] in OVER:
                return events, after
            # wake at the game's next write (after every event of its current version)
            games.store.events(game_id, normalize_after(str(self.doc["version"])), 1, left)
            try:
                self.doc = games.writes.load(game_id)
            except GameError:  # gone meanwhile (expired): nothing more to follow
                return [], after


def sse_format(event: dict[str, Any]) -> str:
    """One SSE message: ``id``, ``event`` (the type) and the event as JSON ``data``."""
    return f"id: {event['id']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"


def sse_stream(
    games: Games,
    reader: Audience,
    game_id: str,
    after: str | None,
    over: bool,
    heartbeat: float,
    lifetime: float,
    batch: int = 100,
    doc: GameDoc | None = None,
    chat: ChatReader | None = None,
) -> Iterator[str]:
    """SSE messages from ``after`` on, as ``reader`` gets them: events as they come, a
    comment line every ``heartbeat`` seconds (keeps proxies from closing an idle
    connection), and an end after ``lifetime`` seconds or once the game's final event
    went out. The client
    reconnects with ``Last-Event-ID`` to resume. ``doc``: the game as the request read
    it, so that a delayed spectator follows at its delayed position (:class:`Follower`)."""
    cursor = normalize_after(after)
    follow = None if doc is None else Follower(games, reader, doc, chat)
    deadline = time.monotonic() + lifetime
    yield f"retry: 1000\n: stream of game {game_id}\n\n"
    with metrics.waiting("sse"):  # until the stream ends or the client leaves
        try:
            # Catch up without waiting first: a resumed cursor may be older than the
            # capped stream (then the events come rebuilt from the history).
            while time.monotonic() < deadline:
                events, cursor = _read(games, reader, game_id, follow, cursor, batch, 0, chat)
                for event in events:
                    yield sse_format(event)
                    over = over or event["type"] in TERMINAL_EVENTS
                if not events:
                    break
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                block_ms = 0 if over else max(1, int(min(heartbeat, remaining) * 1000))
                events, cursor = _read(
                    games, reader, game_id, follow, cursor, batch, block_ms, chat
                )
                if not events:
                    if over:
                        return
                    yield ": heartbeat\n\n"
                    continue
                for event in events:
                    yield sse_format(event)
                    if event["type"] in TERMINAL_EVENTS:
                        over = True
        except StoreError as error:  # the stream ends; the client resumes
            log.warning("event stream of %s ended: %s", game_id, error)


def _read(
    games: Games,
    reader: Audience,
    game_id: str,
    follow: Follower | None,
    cursor: str,
    count: int,
    block_ms: int,
    chat: ChatReader | None = None,
) -> tuple[list[dict[str, Any]], str]:
    if follow is None:
        return next_events(games, reader, game_id, cursor, count, block_ms, chat)
    return follow.read(cursor, count, block_ms)

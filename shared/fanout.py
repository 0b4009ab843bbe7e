"""Waking waiting clients: one pub/sub subscription per process instead of one blocking
XREAD (and one Redis connection) per waiter.

The write script (``shared/store.lua``) publishes on the game's sharded channel, named
like its event stream key (``SPUBLISH``: the channel carries the game's ``{id}`` hash tag,
so on Redis Cluster it lives on the game's own node). Each worker process keeps one
connection per Redis node subscribed (``SSUBSCRIBE``) to the channels of the games its
waiters wait on, read by one thread (a greenlet under gevent). A message sets the
waiters' events; each woken waiter then does a plain, non-blocking XREAD.

No lost wake-up: a waiter reads only once its channel's subscription is confirmed, and
the script appends the events before it publishes, atomically. So a write either comes
before the subscription (the read sees it) or after (the message wakes the waiter).
When the connection drops (Redis restarted, a network error, a slot that moved) every
waiter of it is woken and waits for the subscription to be confirmed again before it
reads again; if that does not happen before its wait ends, it reads once more and
answers. A channel is unsubscribed a couple of seconds after its last local waiter
left (a client asking again at once finds it live); a node's thread ends once its
connection is down and it has no channel left.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redis
import redis.exceptions

from shared.store import GameStore

log = logging.getLogger(__name__)

PING_AFTER = 10.0  # seconds of silence before the reader checks its connection
LINGER = 2.0  # seconds a channel stays subscribed after its last waiter left
TICK = 1.0  # how often the reader unsubscribes the channels left idle, seconds
RETRY_MAX = 1.0  # longest pause between reconnection attempts, seconds
POLL_FIRST = 0.02  # a waiter whose subscription is not live yet looks itself after this


class _Channel:
    """One game's channel in this process: its local waiters and subscription state.

    ``subscribed``: the last command sent for it (or to send once connected) is a
    subscribe. Replies come back in the order commands were sent, and a channel's
    commands alternate (subscribe, unsubscribe, subscribe, ...), so the subscription is
    live once every subscribe sent has been answered while it is still ``subscribed``.
    It stays subscribed for ``LINGER`` seconds after its last waiter left: a client
    that asks again right after its answer finds it live (no round trip to subscribe).
    """

    __slots__ = (
        "confirmed",
        "left_at",
        "name",
        "node",
        "subs_pending",
        "subscribed",
        "unsubs_pending",
        "waiters",
    )

    def __init__(self, name: str, node: _Node) -> None:
        self.name = name
        self.node = node
        self.waiters: set[Waiter] = set()
        self.subscribed = False
        self.subs_pending = 0
        self.unsubs_pending = 0
        self.left_at = 0.0
        self.confirmed = threading.Event()

    @property
    def idle(self) -> bool:
        """Nothing left to track: no waiter, not subscribed, no reply to come."""
        return not (self.waiters or self.subscribed or self.subs_pending or self.unsubs_pending)


class Waiter:
    """One waiting client: woken when its game may have new events."""

    def __init__(self, fanout: Fanout, store: GameStore, game_id: str) -> None:
        self.fanout = fanout
        self.store = store
        self.game_id = game_id
        self.woken = threading.Event()
        self.channel: _Channel | None = None

    def events(self, after: str, count: int, block_ms: int) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after``, waiting up to ``block_ms`` for the
        first: what ``store.events(..., block_ms)`` (XREAD BLOCK) answers."""
        deadline = time.monotonic() + block_ms / 1000
        while True:
            if not self._subscribed(deadline, after, count):
                break  # not subscribed in time: the read below still sees any event
            self.woken.clear()  # before the read: a message after it wakes us again
            found = self.store.events(self.game_id, after, count)
            if found:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return []
            if not self.woken.wait(remaining):
                return []  # the wait ran out with no message: nothing new (no read)
        return self.store.events(self.game_id, after, count)

    def _subscribed(self, deadline: float, after: str, count: int) -> bool:
        """Wait until the channel's subscription is live (``False``: not by ``deadline``).

        Meanwhile (a process's first subscription connecting, a reconnection) the
        waiter looks for events itself, at growing intervals, so a slow subscription
        delays no answer by more than the interval; a failed look is ignored (the
        reader reconnects; the read at the end of the wait reports a real outage)."""
        pause = POLL_FIRST
        while True:
            remaining = deadline - time.monotonic()
            channel = self.channel  # another one once its node changed (Cluster)
            assert channel is not None
            if remaining <= 0:
                return False
            if channel.confirmed.wait(min(remaining, pause)):
                return True
            with contextlib.suppress(redis.exceptions.RedisError):
                if self.store.events(self.game_id, after, 1):
                    return True  # events are there: the caller reads them
            pause = min(pause * 2, RETRY_MAX)


class _Node:
    """One pub/sub connection to one Redis node and the thread that reads it."""

    def __init__(self, fanout: Fanout, key: str, pool: Any) -> None:
        self.fanout = fanout
        self.key = key
        self.pool = pool
        self.channels: dict[str, _Channel] = {}
        self.conn: Any = None  # connected, or None while (re)connecting
        self.thread = threading.Thread(target=self._run, name=f"fanout {key}", daemon=True)
        self.thread.start()

    # -- called with the fanout's lock held ---------------------------------------------

    def send(self, *args: str) -> None:
        """Send one command; without a connection the reader subscribes once it has one."""
        if self.conn is None:
            return
        try:
            self.conn.send_command(*args, check_health=False)
        except (redis.exceptions.RedisError, OSError) as error:
            log.warning("fan-out connection to %s failed: %s", self.key, error)
            sock = self.conn._sock
            if sock is not None:  # the reader's next read fails: it reconnects
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def subscribe(self, channel: _Channel) -> None:
        channel.subscribed = True
        channel.confirmed.clear()
        if self.conn is not None:
            channel.subs_pending += 1
            self.send("SSUBSCRIBE", channel.name)

    def unsubscribe(self, channel: _Channel) -> None:
        channel.subscribed = False
        channel.confirmed.clear()
        if self.conn is not None:
            channel.unsubs_pending += 1
            self.send("SUNSUBSCRIBE", channel.name)
        if channel.idle:
            del self.channels[channel.name]

    def sweep(self) -> None:
        """Unsubscribe the channels whose last waiter left ``LINGER`` seconds ago."""
        before = time.monotonic() - LINGER
        for channel in list(self.channels.values()):
            if channel.subscribed and not channel.waiters and channel.left_at < before:
                self.unsubscribe(channel)

    # -- the reader thread --------------------------------------------------------------

    def _run(self) -> None:
        pause = 0.05
        while True:
            conn = self.pool.connection_class(**self._conn_kwargs())
            try:
                conn.connect()
            except (redis.exceptions.RedisError, OSError) as error:
                log.warning("fan-out cannot connect to %s: %s", self.key, error)
                if self._dropped(conn):
                    return
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)
                continue
            connected_at = time.monotonic()
            with self.fanout.lock:
                self.conn = conn
                for channel in self.channels.values():
                    channel.subs_pending = channel.unsubs_pending = 0
                    if channel.subscribed:
                        self.subscribe(channel)
            try:
                self._read(conn)
            except (redis.exceptions.RedisError, OSError, _Resubscribe) as error:
                log.info("fan-out connection to %s ended: %s", self.key, error)
            except Exception:  # never leave the node without its reader
                log.exception("fan-out reader of %s failed", self.key)
            if self._dropped(conn):
                return
            if time.monotonic() - connected_at > 10 * RETRY_MAX:
                pause = 0.05  # it served a while: reconnect at once
            else:  # refused again and again (an error reply, a flapping server): back off
                time.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)

    def _conn_kwargs(self) -> dict[str, Any]:
        kwargs = dict(self.pool.connection_kwargs)
        kwargs["socket_timeout"] = PING_AFTER + kwargs.get("socket_connect_timeout", 5)
        return kwargs

    def _read(self, conn: Any) -> None:
        heard = swept = time.monotonic()
        pinged = False
        while True:
            if conn.can_read(timeout=TICK):
                reply = conn.read_response(push_request=True)
                heard, pinged = time.monotonic(), False
                if isinstance(reply, list) and len(reply) >= 2:
                    self._handle(_text(reply[0]).lower(), _text(reply[1]))
            now = time.monotonic()
            if now - swept >= TICK:
                swept = now
                with self.fanout.lock:
                    self.sweep()
            if now - heard >= PING_AFTER:
                if pinged:
                    raise redis.exceptions.TimeoutError("no answer to PING")
                with self.fanout.lock:
                    self.send("PING")
                heard, pinged = now, True

    def _handle(self, kind: str, name: str) -> None:
        with self.fanout.lock:
            channel = self.channels.get(name)
            if channel is None:
                return
            if kind == "smessage":
                for waiter in channel.waiters:
                    waiter.woken.set()
            elif kind == "ssubscribe":
                channel.subs_pending -= 1
                if not channel.subs_pending and channel.subscribed:
                    channel.confirmed.set()
            elif kind == "sunsubscribe":
                if not channel.unsubs_pending:  # the server's own: the slot moved
                    channel.confirmed.clear()
                    raise _Resubscribe(name)
                channel.unsubs_pending -= 1
            if channel.idle:
                del self.channels[name]

    def _dropped(self, conn: Any) -> bool:
        """Forget the connection, wake every waiter to wait for the next subscription;
        ``True`` once this node has nothing left to serve (its thread then ends)."""
        conn.disconnect()
        if self.fanout.cluster:
            self.fanout.refresh_slots()
        with self.fanout.lock:
            self.conn = None
            for name, channel in list(self.channels.items()):
                channel.subs_pending = channel.unsubs_pending = 0
                channel.subscribed = bool(channel.waiters)  # subscribed again once connected
                channel.confirmed.clear()
                for waiter in channel.waiters:
                    waiter.woken.set()
                if channel.idle:
                    del self.channels[name]
            if self.fanout.cluster:
                self.fanout.reroute(self)
            if not self.channels:
                del self.fanout.nodes[self.key]
                return True
        return False


class _Resubscribe(Exception):
    """The server ended a subscription on its own (on Cluster: the slot moved)."""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Fanout:
    """The subscriptions of one store in this process (see the module docstring)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.cluster = store.cluster
        self.lock = threading.Lock()
        self.nodes: dict[str, _Node] = {}

    @contextmanager
    def waiting(self, game_id: str) -> Iterator[Waiter]:
        """A :class:`Waiter` for ``game_id``, subscribed while the block lasts."""
        waiter = Waiter(self, self.store, game_id)
        name = self.store.keys(game_id)[1]  # the channel has the event stream's name
        with self.lock:
            channel = self._channel(name)
            channel.waiters.add(waiter)
            waiter.channel = channel
            if not channel.subscribed:
                channel.node.subscribe(channel)
        try:
            yield waiter
        finally:
            with self.lock:
                channel = waiter.channel
                channel.waiters.discard(waiter)
                if not channel.waiters:  # unsubscribed by the reader, LINGER s from now
                    channel.left_at = time.monotonic()

    def _channel(self, name: str) -> _Channel:
        """The channel ``name`` (created on the node that owns it); lock held."""
        key, pool = self._owner(name)
        node = self.nodes.get(key)
        if node is None:
            node = self.nodes[key] = _Node(self, key, pool)
        channel = node.channels.get(name)
        if channel is None:
            channel = node.channels[name] = _Channel(name, node)
        return channel

    def _owner(self, name: str) -> tuple[str, Any]:
        """The node (its key and connection pool) that serves channel ``name``."""
        client = self.store.blocking
        if self.cluster:
            node = client.get_node_from_key(name)
            client = client.get_redis_connection(node)
            return node.name, client.connection_pool
        return "redis", client.connection_pool

    def refresh_slots(self) -> None:
        """Re-learn which node serves which slot (after a node's connection dropped)."""
        try:
            self.store.blocking.nodes_manager.initialize()
        except (redis.exceptions.RedisError, OSError) as error:
            log.info("fan-out cannot refresh the cluster's slots: %s", error)

    def reroute(self, node: _Node) -> None:
        """Move ``node``'s channels to the nodes that serve them now; lock held."""
        for name, channel in list(node.channels.items()):
            try:
                key, _ = self._owner(name)
            except (redis.exceptions.RedisError, OSError):
                continue
            if key == node.key:
                continue
            del node.channels[name]
            moved = self._channel(name)
            moved.waiters = channel.waiters
            for waiter in moved.waiters:
                waiter.channel = moved
            if not moved.subscribed:
                moved.node.subscribe(moved)

    def counts(self) -> dict[str, int]:
        """Nodes connected or connecting, channels, and waiters (for tests and metrics)."""
        with self.lock:
            channels = [c for node in self.nodes.values() for c in node.channels.values()]
            return {
                "nodes": len(self.nodes),
                "channels": len(channels),
                "waiters": sum(len(c.waiters) for c in channels),
            }


_fanouts: dict[int, tuple[int, GameStore, Fanout]] = {}
_fanouts_lock = threading.Lock()


def fanout_of(store: GameStore) -> Fanout:
    """This process's :class:`Fanout` of ``store`` (a new one after a fork)."""
    with _fanouts_lock:
        found = _fanouts.get(id(store))
        if found is None or found[0] != os.getpid() or found[1] is not store:
            found = (os.getpid(), store, Fanout(store))
            _fanouts[id(store)] = found
        return found[2]


@contextmanager
def waiting(store: GameStore, game_id: str) -> Iterator[Waiter]:
    """A subscribed :class:`Waiter` for ``game_id`` of ``store`` while the block lasts."""
    with fanout_of(store).waiting(game_id) as waiter:
        yield waiter

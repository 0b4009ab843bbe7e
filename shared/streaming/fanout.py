"""Waking waiting clients: one pub/sub subscription per process instead of one blocking
XREAD (and one Redis connection) per waiter.

The write script (``shared/store/store.lua``) publishes on the game's sharded channel, named
like its event stream key (``SPUBLISH``: the channel carries the game's ``{id}`` hash tag,
so on Redis Cluster it lives on the game's own node). Each worker process keeps one
connection per Redis node subscribed (``SSUBSCRIBE``) to the channels of the games its
waiters wait on. A message sets the waiters' events; each woken waiter then does a
plain, non-blocking XREAD.

The connection belongs to one reader (a thread; a greenlet under gevent) and nothing
else touches its socket: waiters only change the wanted state of their channel under a
lock that is never held across I/O, and wake the reader through a socket pair. The
reader sends the (un)subscriptions and reads the replies. So a slow or broken Redis
connection stalls the reader alone, never a request (waiters look for events themselves
while their subscription is not live, see :meth:`Waiter._subscribed`).

No lost wake-up: a waiter reads only once its channel's subscription is confirmed, and
the script appends the events before it publishes, atomically. So a write either comes
before the subscription (the read sees it) or after (the message wakes the waiter).
When the connection drops (Redis restarted, a network error, a slot that moved) every
waiter of it is woken and waits for the subscription to be confirmed again before it
reads again; if that does not happen before its wait ends, it reads once more and
answers. A channel is unsubscribed a couple of seconds after its last local waiter
left (a client asking again at once finds it live); a node's reader ends once it has
had no channel for ``PING_AFTER`` seconds, or its connection is down and it has none.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
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
IO_TIMEOUT = 5.0  # the reader's socket timeout: a reply started must end within it
_FAILURES = (redis.exceptions.RedisError, OSError)


class _Channel:
    """One game's channel in this process: its local waiters and subscription state.

    ``wanted``: it should be subscribed (it has waiters, or had them ``LINGER`` seconds
    ago). ``sent``: the last command the reader sent for it on its connection was a
    subscribe. Replies come back in the order commands were sent, so the subscription
    is live (``confirmed``) once every subscribe sent has been answered while the last
    one sent is a subscribe. Only the reader changes ``sent`` and the pending counts.
    """

    __slots__ = (
        "confirmed",
        "left_at",
        "name",
        "node",
        "sent",
        "subs_pending",
        "unsubs_pending",
        "waiters",
        "wanted",
    )

    def __init__(self, name: str, node: _Node) -> None:
        self.name = name
        self.node = node
        self.waiters: set[Waiter] = set()
        self.wanted = False
        self.sent = False
        self.subs_pending = 0
        self.unsubs_pending = 0
        self.left_at = 0.0
        self.confirmed = threading.Event()

    @property
    def idle(self) -> bool:
        """Nothing left to track: no waiter, not wanted nor sent, no reply to come."""
        return not (
            self.waiters or self.wanted or self.sent or self.subs_pending or self.unsubs_pending
        )

    def forget_connection(self) -> None:
        """The connection is gone: nothing sent on it counts any more."""
        self.sent = False
        self.subs_pending = self.unsubs_pending = 0
        self.confirmed.clear()


class Waiter:
    """One waiting client: woken when its game may have new events."""

    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.woken = threading.Event()
        self.channel: _Channel | None = None

    def events(self, after: str, count: int, block_ms: int) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after``, waiting up to ``block_ms`` for the
        first: what ``store.events(..., block_ms)`` (XREAD BLOCK) answers."""
        deadline = time.monotonic() + block_ms / 1000
        while True:
            if not self._subscribed(deadline, after):
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

    def _subscribed(self, deadline: float, after: str) -> bool:
        """Wait until the channel's subscription is live (``False``: not by ``deadline``).

        Meanwhile (a process's first subscription connecting, a reconnection, a stalled
        reader) the waiter looks for events itself, at growing intervals, so a slow
        subscription delays no answer by more than the interval; a failed look is
        ignored (the reader reconnects; the read at the end of the wait reports a real
        outage)."""
        pause = POLL_FIRST
        while True:
            remaining = deadline - time.monotonic()
            channel = self.channel  # another one once its node changed (Cluster)
            assert channel is not None
            if remaining <= 0:
                return False
            if channel.confirmed.wait(min(remaining, pause)):
                return True
            with contextlib.suppress(*_FAILURES):
                if self.store.events(self.game_id, after, 1):
                    return True  # events are there: the caller reads them
            pause = min(pause * 2, RETRY_MAX)


class _Node:
    """One pub/sub connection to one Redis node, owned by the reader that serves it."""

    def __init__(self, fanout: Fanout, key: str, pool: Any) -> None:
        self.fanout = fanout
        self.key = key
        self.pool = pool
        self.channels: dict[str, _Channel] = {}
        self.dirty: set[str] = set()  # channels whose wanted state may differ from sent
        self._bell, self._bell_rung = socket.socketpair()  # wakes the reader
        self._bell.setblocking(False)
        self._bell_rung.setblocking(False)
        self.thread = threading.Thread(target=self._run, name=f"fanout {key}", daemon=True)
        self.thread.start()

    def want(self, channel: _Channel, wanted: bool) -> None:
        """Ask for ``channel`` (un)subscribed; lock held. The caller rings :meth:`wake`
        once it released the lock."""
        channel.wanted = wanted
        self.dirty.add(channel.name)

    def wake(self) -> None:
        """Have the reader look at the changes now (any thread; never blocks)."""
        with contextlib.suppress(OSError):  # full: a ring is pending anyway; closed: ended
            self._bell.send(b"!")

    # -- the reader -----------------------------------------------------------------

    def _run(self) -> None:
        pause = 0.05
        try:
            while True:
                conn = self.pool.connection_class(**self._conn_kwargs())
                connected_at = time.monotonic()
                try:
                    conn.connect()
                    self._serve(conn)
                    conn.disconnect()
                    return  # retired
                except (*_FAILURES, _Resubscribe) as error:
                    log.info("fan-out connection to %s ended: %s", self.key, error)
                except Exception:  # never leave the node without its reader
                    log.exception("fan-out reader of %s failed", self.key)
                conn.disconnect()
                if self._dropped():
                    return
                if time.monotonic() - connected_at > 10 * RETRY_MAX:
                    pause = 0.05  # it served a while: reconnect at once
                else:  # refused again and again (down, an error reply, flapping): back off
                    time.sleep(pause)
                    pause = min(pause * 2, RETRY_MAX)
        finally:
            self._bell.close()
            self._bell_rung.close()

    def _conn_kwargs(self) -> dict[str, Any]:
        kwargs = dict(self.pool.connection_kwargs)
        kwargs["socket_timeout"] = kwargs.get("socket_connect_timeout") or IO_TIMEOUT
        return kwargs

    def _serve(self, conn: Any) -> None:
        """Send the wanted (un)subscriptions and read the replies until the connection
        fails; every socket operation on ``conn`` happens here, outside the lock."""
        with self.fanout.lock:
            self.dirty.update(self.channels)  # subscribe again what is wanted
        sock, bell = conn._sock, self._bell_rung
        poller = select.poll()  # gevent's under gevent: parks this greenlet only
        poller.register(sock, select.POLLIN)
        poller.register(bell, select.POLLIN)
        heard = swept = time.monotonic()
        pinged = False
        while True:
            self._send_changes(conn)
            ready = {fd for fd, _ in poller.poll(TICK * 1000)}
            if bell.fileno() in ready:
                with contextlib.suppress(BlockingIOError):
                    bell.recv(4096)
            if sock.fileno() in ready:
                self._handle(conn.read_response(push_request=True))
                while conn.can_read(0):  # replies already buffered
                    self._handle(conn.read_response(push_request=True))
                heard, pinged = time.monotonic(), False
            now = time.monotonic()
            if now - swept >= TICK:
                swept = now
                self._sweep()
            if now - heard >= PING_AFTER:
                if self._retired():
                    return  # nothing subscribed for a while: end rather than ping
                if pinged:
                    raise redis.exceptions.TimeoutError("no answer to PING")
                conn.send_command("PING", check_health=False)
                heard, pinged = now, True

    def _retired(self) -> bool:
        """Without channels, take this node out of the fanout (its reader then ends and
        a later waiter starts another): an idle process holds no connection, no thread."""
        with self.fanout.lock:
            if self.channels:
                return False
            del self.fanout.nodes[self.key]
            return True

    def _send_changes(self, conn: Any) -> None:
        """One write with the (un)subscriptions that differ from what was sent."""
        commands = []
        with self.fanout.lock:
            for name in self.dirty:
                channel = self.channels.get(name)
                if channel is not None and channel.idle:
                    del self.channels[name]  # wanted and let go before anything was sent
                if channel is None or channel.wanted == channel.sent:
                    continue
                channel.sent = channel.wanted
                if channel.wanted:
                    channel.subs_pending += 1
                    commands.append(("SSUBSCRIBE", name))
                else:
                    channel.unsubs_pending += 1
                    channel.confirmed.clear()
                    commands.append(("SUNSUBSCRIBE", name))
            self.dirty.clear()
        if commands:
            conn.send_packed_command(conn.pack_commands(commands), check_health=False)

    def _sweep(self) -> None:
        """Let go of the channels whose last waiter left ``LINGER`` seconds ago."""
        before = time.monotonic() - LINGER
        with self.fanout.lock:
            for channel in self.channels.values():
                if channel.wanted and not channel.waiters and channel.left_at < before:
                    self.want(channel, False)

    def _handle(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) < 2:
            return  # PONG
        kind, name = _text(reply[0]).lower(), _text(reply[1])
        with self.fanout.lock:
            channel = self.channels.get(name)
            if channel is None:
                return
            if kind == "smessage":
                for waiter in channel.waiters:
                    waiter.woken.set()
            elif kind == "ssubscribe":
                channel.subs_pending -= 1
                if not channel.subs_pending and channel.sent:
                    channel.confirmed.set()
            elif kind == "sunsubscribe":
                if not channel.unsubs_pending:  # the server's own: the slot moved
                    raise _Resubscribe(name)
                channel.unsubs_pending -= 1
            if channel.idle:
                del self.channels[name]

    def _dropped(self) -> bool:
        """The connection is gone: wake every waiter to wait for the next subscription,
        move the channels whose slot moved (Cluster); ``True`` once this node has nothing
        left to serve (its reader then ends)."""
        if self.fanout.cluster:
            self.fanout.refresh_slots()
        with self.fanout.lock:
            for name, channel in list(self.channels.items()):
                channel.forget_connection()
                channel.wanted = bool(channel.waiters)  # lingering ones are let go
                for waiter in channel.waiters:
                    waiter.woken.set()
                if channel.idle:
                    del self.channels[name]
            moved = self.fanout.reroute(self) if self.fanout.cluster else set()
            ended = not self.channels
            if ended:
                del self.fanout.nodes[self.key]
        for node in moved:
            node.wake()
        return ended


class _Resubscribe(Exception):
    """The server ended a subscription on its own (on Cluster: the slot moved)."""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Fanout:
    """The subscriptions of one store in this process (see the module docstring)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.cluster = store.cluster
        self.lock = threading.Lock()  # guards the state below; never held across I/O
        self.nodes: dict[str, _Node] = {}

    @contextmanager
    def waiting(self, game_id: str) -> Iterator[Waiter]:
        """A :class:`Waiter` for ``game_id``, subscribed while the block lasts."""
        waiter = Waiter(self.store, game_id)
        name = self.store.keys(game_id)[1]  # the channel has the event stream's name
        with self.lock:
            channel = self._channel(name)
            channel.waiters.add(waiter)
            waiter.channel = channel
            ring = not channel.wanted
            if ring:
                channel.node.want(channel, True)
        if ring:
            channel.node.wake()
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
        """The node (its key and connection pool) that serves channel ``name``: from
        the cluster client's slot table in memory, no round trip."""
        client = self.store.blocking
        if self.cluster:
            node = client.get_node_from_key(name)
            client = client.get_redis_connection(node)
            return node.name, client.connection_pool
        return "redis", client.connection_pool

    def refresh_slots(self) -> None:
        """Re-learn which node serves which slot (a node's reader, its connection down)."""
        try:
            self.store.blocking.nodes_manager.initialize()
        except _FAILURES as error:
            log.info("fan-out cannot refresh the cluster's slots: %s", error)

    def reroute(self, node: _Node) -> set[_Node]:
        """Move ``node``'s channels to the nodes that serve them now; lock held. The
        nodes to wake once the lock is released."""
        moved: set[_Node] = set()
        for name, channel in list(node.channels.items()):
            try:
                key, _ = self._owner(name)
            except _FAILURES:
                continue
            if key == node.key:
                continue
            del node.channels[name]
            target = self._channel(name)
            target.waiters = channel.waiters
            for waiter in target.waiters:
                waiter.channel = target
            target.node.want(target, True)
            moved.add(target.node)
        return moved

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


class BlockingWaiter:
    """A waiter without the fan-out (``EVENTS_FANOUT`` off): one blocking XREAD, on a
    Redis connection of its own, per wait."""

    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id

    def events(self, after: str, count: int, block_ms: int) -> list[dict[str, Any]]:
        """Up to ``count`` events after ``after``, waiting up to ``block_ms`` for the first."""
        return self.store.events(self.game_id, after, count, block_ms)


@contextmanager
def waiting(store: GameStore, game_id: str) -> Iterator[Waiter | BlockingWaiter]:
    """A waiter for ``game_id`` of ``store`` while the block lasts: subscribed through
    this process's :class:`Fanout` when ``store.fanout_waits`` (``EVENTS_FANOUT``)."""
    if not store.fanout_waits:
        yield BlockingWaiter(store, game_id)
        return
    with fanout_of(store).waiting(game_id) as waiter:
        yield waiter

"""One Redis command on a socket of the store's own, without redis-py's per-command work;
under gevent, the commands of all the process's greenlets on one socket (:class:`Pipe`).

redis-py 8 wraps every command in a retry closure, observability records, event
dispatches, a pool lock and a stale-data poll (a ``select`` call) before each use of a
pooled connection: about 40 µs of CPU a command on the project's machine, where the
socket round trip itself costs about 15. A move makes three round trips, so the store
sends its hot ones (a game's read, the write script) through :func:`call`: a lane of
plain sockets to the same server, the command packed and the reply parsed by hiredis
(redis-py's own parser), the socket kept for the next call.

What stays redis-py's:

- the settings: a lane is opened only for a plain ``Redis`` on a TCP ``ConnectionPool``
  whose options it knows (host, port, db, credentials, timeouts, decoding); TLS, a Unix
  socket, RESP3, a client-side cache or any other option take redis-py's path, as does
  Redis Cluster (``RedisCluster`` routes by slot);
- the errors: an error reply raises the exception redis-py raises for it
  (``ResponseError``, ``NoScriptError``, ``OutOfMemoryError``...), and the socket stays
  in use;
- the retries: a connection or timeout error closes the lane's sockets (after a Redis
  restart they are all dead) and sends the command again on redis-py's ordinary path,
  which retries and reconnects as it always did.

With threads (gthread or sync workers, the tests, the worker process), a socket is kept
only after a whole reply was read: an error, a timeout or a killed thread in between
closes it, so no reply is ever read by the wrong caller; idle sockets are a list, taken
and given back by one atomic ``pop`` and ``append`` each, so each thread gets a socket
of its own.

Under gunicorn's gevent worker (``socket`` patched before the app is loaded) a process
has one :class:`Pipe` per server instead, unless ``REDIS_PIPELINE=0`` (:func:`unpiped`):
the commands its greenlets issue in one turn of the loop leave in one send and come
back in one read. Through gunicorn this cut a move's CPU (workers and Redis) by a fifth
(docs/performance.md, "the pipe").
"""

from __future__ import annotations

import socket
from collections import deque
from os import getpid
from typing import Any
from weakref import WeakKeyDictionary, WeakSet

import hiredis
import redis
from redis._parsers.base import BaseParser

_KNOWN = frozenset(
    {
        "host",
        "port",
        "db",
        "username",
        "password",
        "socket_timeout",
        "socket_connect_timeout",
        "decode_responses",
        "encoding",
        "encoding_errors",
        # redis-py's own bookkeeping, nothing sent to the server
        "himport_registry",
        "maint_notifications_pool_handler",
        "maint_notifications_config",
        "orig_host_address",
        "orig_socket_timeout",
        "orig_socket_connect_timeout",
        "retry",
        "lib_name",
        "lib_version",
        "client_name",
        "health_check_interval",
    }
)
_IDLE_MAX = 256
"""Idle sockets a lane keeps; more are closed when given back (a burst of concurrent
requests opened them)."""
_BUFFER = 16384


def call(client: Any, *args: Any) -> Any:
    """``client.execute_command(*args)``, on the lane for a plain ``Redis``.

    For commands whose reply redis-py does not post-process (GET, MGET, EVALSHA)."""
    lane = lane_of(client) if type(client) is redis.Redis else None
    if lane is None:
        return client.execute_command(*args)
    if lane.piped:  # under gevent: one socket for the process's concurrent commands
        try:
            reply = lane.pipe().ask(hiredis.pack_command(args))
        except OSError:  # no pipe, a broken or late one: redis-py's path retries
            return client.execute_command(*args)
        return raised(reply)
    replies = on_socket(lane, hiredis.pack_command(args), 1)
    if replies is None:  # redis-py's path retries, or says why it cannot
        return client.execute_command(*args)
    return raised(replies)


def on_socket(lane: Lane, packed: bytes, count: int) -> Any:
    """``count`` replies to ``packed`` on a socket of ``lane``'s own (not the pipe), the
    socket kept for the next call; ``None`` when no socket could be had or it broke
    (closed, and the lane's idle ones with it): the caller takes redis-py's path."""
    try:
        conn = lane.take()
    except OSError:  # no connection to be had
        return None
    try:
        reply = conn.ask(packed) if count == 1 else conn.ask(packed, count)
    except OSError:  # the socket broke (builtin TimeoutError is an OSError too)
        conn.close()
        lane.drop_idle()
        return None
    except BaseException:
        conn.close()
        raise
    lane.give(conn)
    return reply


def raised(reply: Any) -> Any:
    """``reply``, or the exception redis-py raises for it when it is an error reply."""
    if isinstance(reply, hiredis.ReplyError):
        raise BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call]
    return reply


_LANES: WeakKeyDictionary[Any, Lane | None] = WeakKeyDictionary()
_UNPIPED: WeakSet[Any] = WeakSet()


def unpiped(client: Any) -> None:
    """Keep ``client``'s commands off the pipe (``REDIS_PIPELINE=0``): a socket each,
    under gevent too. Call before its first command."""
    _UNPIPED.add(client.connection_pool)


def lane_of(client: redis.Redis) -> Lane | None:
    """The client's lane, made on first use in this process; ``None`` when the client's
    settings are not ones a lane reproduces."""
    pool = client.connection_pool
    try:
        lane = _LANES[pool]
    except KeyError:
        lane = _LANES[pool] = Lane.of(pool)
    if lane is not None and lane.pid != getpid():  # forked: the parent's sockets stay its own
        lane = _LANES[pool] = Lane.of(pool)
    return lane


class Lane:
    """Idle sockets to one server, opened with a pool's settings."""

    __slots__ = (
        "address",
        "connect_timeout",
        "timeout",
        "setup",
        "encoding",
        "errors",
        "idle",
        "pid",
        "piped",
        "_pipe",
    )

    def __init__(self, kwargs: dict[str, Any]) -> None:
        self.address = (kwargs.get("host", "localhost"), int(kwargs.get("port", 6379)))
        self.timeout = kwargs.get("socket_timeout")
        self.connect_timeout = kwargs.get("socket_connect_timeout") or self.timeout
        decode = kwargs.get("decode_responses", False)
        self.encoding = kwargs.get("encoding", "utf-8") if decode else None
        self.errors = kwargs.get("encoding_errors", "strict")
        setup: list[tuple[Any, ...]] = []
        password, username = kwargs.get("password"), kwargs.get("username")
        if password is not None:
            setup.append(("AUTH", password) if username is None else ("AUTH", username, password))
        if int(kwargs.get("db") or 0):
            setup.append(("SELECT", int(kwargs["db"])))
        if kwargs.get("client_name"):
            setup.append(("CLIENT", "SETNAME", kwargs["client_name"]))
        self.setup = [hiredis.pack_command(command) for command in setup]
        self.idle: list[Conn] = []
        self.pid = getpid()
        self.piped = _gevent_sockets()
        self._pipe: Pipe | None = None

    @classmethod
    def of(cls, pool: Any) -> Lane | None:
        plain = (
            type(pool) is redis.ConnectionPool
            and pool.connection_class is redis.Connection
            and getattr(pool, "cache", None) is None
        )
        if not plain or not _KNOWN.issuperset(pool.connection_kwargs):
            return None
        lane = cls(pool.connection_kwargs)
        lane.piped = lane.piped and pool not in _UNPIPED
        return lane

    def take(self) -> Conn:
        try:  # one atomic pop: gthread workers share the lane between threads
            return self.idle.pop()
        except IndexError:
            return self.open()

    def give(self, conn: Conn) -> None:
        if len(self.idle) < _IDLE_MAX:
            self.idle.append(conn)
        else:
            conn.close()

    def pipe(self) -> Pipe:
        """The process's pipe to the server (under gevent: ``piped``), opened on first
        use; a closed one is replaced. Raises ``OSError`` when none can be opened."""
        pipe = self._pipe
        if pipe is None or pipe.dead:
            conn = self.open()  # (yields: another caller may open one meanwhile)
            if self._pipe is not None and not self._pipe.dead:
                conn.close()
                return self._pipe
            pipe = self._pipe = Pipe(conn.sock, conn.reader, self.timeout)
        return pipe

    def drop_idle(self) -> None:
        idle, self.idle = self.idle, []
        for conn in idle:
            conn.close()

    def open(self) -> Conn:
        sock = socket.create_connection(self.address, self.connect_timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(self.timeout)
            if self.encoding is None:
                reader = hiredis.Reader()
            else:
                reader = hiredis.Reader(encoding=self.encoding, errors=self.errors)
            conn = Conn(sock, reader)
            for packed in self.setup:
                raised(conn.ask(packed))
        except BaseException:
            sock.close()
            raise
        return conn


class Conn:
    """One socket and its reply parser."""

    __slots__ = ("sock", "reader", "buffer")

    def __init__(self, sock: socket.socket, reader: hiredis.Reader) -> None:
        self.sock = sock
        self.reader = reader
        self.buffer = bytearray(_BUFFER)

    def ask(self, packed: bytes, count: int = 1) -> Any:
        """Send packed commands and read the whole reply (an error reply returned); of
        ``count`` > 1 commands, the list of their replies."""
        self.sock.sendall(packed)
        if count == 1:
            return self.reply()
        return [self.reply() for _ in range(count)]

    def reply(self) -> Any:
        """The next whole reply on the socket."""
        sock, reader, buffer = self.sock, self.reader, self.buffer
        reply = reader.gets()
        while reply is False:
            n = sock.recv_into(buffer)
            if not n:
                raise ConnectionResetError("Redis closed the connection")
            reader.feed(buffer, 0, n)  # type: ignore[arg-type]  # any buffer, as in redis-py
            reply = reader.gets()
        return reply

    def close(self) -> None:
        self.sock.close()


def _gevent_sockets() -> bool:
    """Whether ``socket`` is gevent's (gunicorn's gevent worker patches it first)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


class Pipe:
    """One socket carrying the commands of all of a process's greenlets (gevent only).

    With one socket per request, every command is a send and a wake-up of Redis, and
    every reply a wake-up of the worker. Here the commands that greenlets issue in one
    turn of gevent's loop leave in one send, and Redis answers them in one write, read
    by one greenlet that hands each reply to its caller in order (Redis answers a
    connection's commands in the order sent). A caller killed while it waits leaves its
    reply to be dropped; a broken socket or a reply later than the timeout closes the
    pipe and fails every waiting caller with ``OSError``, whose command then takes
    redis-py's path (as with a broken socket of a lane).
    """

    def __init__(self, sock: socket.socket, reader: hiredis.Reader, timeout: float | None) -> None:
        import gevent
        from gevent.event import AsyncResult

        self._result = AsyncResult
        self._yield = gevent.sleep
        self._late = gevent.Timeout
        self.sock = sock
        self.reader = reader
        self.timeout = timeout
        self.waiting: deque[Any] = deque()
        self.outgoing: list[bytes] = []
        self.sending = False
        self.dead = False
        sock.settimeout(None)  # the reads wait for replies; each caller bounds its own wait
        gevent.spawn(self._read)  # until the socket closes

    def ask(self, packed: bytes) -> Any:
        """Send one packed command with this turn's others; its reply (an error reply
        returned)."""
        if self.dead:
            raise ConnectionResetError("the pipe to Redis is closed")
        result = self._result()
        self.outgoing.append(packed)
        self.waiting.append(result)
        if not self.sending:
            self._send()
        if self.timeout is None:
            return result.get()
        timer = self._late(self.timeout)  # our own, told apart from any outer Timeout
        timer.start()
        try:
            return result.get()
        except self._late as late:
            if late is not timer:
                raise
            late_error = TimeoutError("Redis did not answer in time")
            self.close(late_error)
            raise late_error from None
        finally:  # (killed while waiting: its reply, when it comes, is dropped)
            timer.close()

    def _send(self) -> None:
        """Send what this turn of the loop queued (and what queues meanwhile)."""
        self.sending = True
        try:
            self._yield(0)  # the other greenlets of this turn queue their commands
            while self.outgoing:
                data = b"".join(self.outgoing)
                self.outgoing.clear()
                self.sock.sendall(data)
        except BaseException as error:  # a half-sent batch leaves the stream unusable
            self.close(error if isinstance(error, OSError) else ConnectionResetError(repr(error)))
            if not isinstance(error, OSError):
                raise
        finally:
            self.sending = False

    def _read(self) -> None:
        reader, sock, waiting = self.reader, self.sock, self.waiting
        buffer = bytearray(_BUFFER)
        try:
            while True:
                n = sock.recv_into(buffer)
                if not n:
                    raise ConnectionResetError("Redis closed the connection")
                reader.feed(buffer, 0, n)  # type: ignore[arg-type]
                reply = reader.gets()
                while reply is not False:
                    waiting.popleft().set(reply)
                    reply = reader.gets()
        except BaseException as error:  # noqa: BLE001 (closed, reset, or killed)
            self.close(error if isinstance(error, OSError) else ConnectionResetError(repr(error)))

    def close(self, error: OSError) -> None:
        """Fail every waiting caller with ``error`` and close the socket (once)."""
        if self.dead:
            return
        self.dead = True
        waiting, self.waiting = self.waiting, deque()
        for result in waiting:
            if not result.ready():
                result.set_exception(error)
        self.sock.close()

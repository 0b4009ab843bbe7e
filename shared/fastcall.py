"""One Redis command on a socket of the store's own, without redis-py's per-command work.

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

A socket is kept only after a whole reply was read: an error, a timeout or a killed
greenlet in between closes it, so no reply is ever read by the wrong caller. Under
gunicorn's gevent worker the sockets are gevent's (the worker patches ``socket`` before
the app is loaded); idle sockets are a list, taken and given back by one atomic ``pop``
and ``append`` each (no yield, no lock), so greenlets and threads alike each get a
socket of their own.
"""

from __future__ import annotations

import socket
from os import getpid
from typing import Any
from weakref import WeakKeyDictionary

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
    lane = _lane(client) if type(client) is redis.Redis else None
    if lane is None:
        return client.execute_command(*args)
    try:
        conn = lane.take()
    except OSError:  # no connection to be had: redis-py's path says so as it always did
        return client.execute_command(*args)
    try:
        reply = conn.ask(hiredis.pack_command(args))
    except OSError:  # the socket broke (builtin TimeoutError is an OSError too)
        conn.close()
        lane.drop_idle()
        return client.execute_command(*args)
    except BaseException:
        conn.close()
        raise
    lane.give(conn)
    if isinstance(reply, hiredis.ReplyError):
        raise _error(reply)
    return reply


_LANES: WeakKeyDictionary[Any, Lane | None] = WeakKeyDictionary()


def _lane(client: redis.Redis) -> Lane | None:
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


def _error(reply: hiredis.ReplyError) -> Exception:
    """The exception redis-py raises for an error reply."""
    return BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call,no-any-return]


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

    @classmethod
    def of(cls, pool: Any) -> Lane | None:
        plain = (
            type(pool) is redis.ConnectionPool
            and pool.connection_class is redis.Connection
            and getattr(pool, "cache", None) is None
        )
        if not plain or not _KNOWN.issuperset(pool.connection_kwargs):
            return None
        return cls(pool.connection_kwargs)

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
                reply = conn.ask(packed)
                if isinstance(reply, hiredis.ReplyError):
                    raise _error(reply)
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

    def ask(self, packed: bytes) -> Any:
        """Send one packed command and read its whole reply (an error reply returned)."""
        sock, reader, buffer = self.sock, self.reader, self.buffer
        sock.sendall(packed)
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

"""One Redis command on a pooled connection, without redis-py's per-command machinery.

redis-py 8 wraps every command in a retry closure, observability records (operation
durations, connection counts: four per command even when nothing collects them),
event dispatches and per-command checks: about 30 µs of CPU a command on the project's
machine, more than the socket round trip itself. A move makes three round trips, so
the store sends its hot ones (a game's read, the write script) through :func:`call`:
the pool's own connection (its fork and stale-data checks kept), the command written,
the reply read, the connection given back.

A connection or timeout error falls back to the client's ordinary path, which
retries as redis-py always did (the failed connection is already closed by redis-py),
so a Redis restart looks the same to the callers. Error replies raise redis-py's own
exceptions (``ResponseError``, ``NoScriptError``, ``OutOfMemoryError``...). Redis
Cluster keeps the ordinary path (``RedisCluster`` routes by slot).

The connection is taken from and given back to redis-py's own ``ConnectionPool`` (its
lists, its lock) as its ``get_connection`` and ``release`` do, fork check, reconnect,
stale-data check, reconnect marks and release event included, without their
observability records (four per command, about 10 µs; nothing collects them here).
Any other pool (blocking, sentinel, a client-side cache), a pool to rebuild after a
fork or one with no idle connection takes redis-py's ``get_connection``.
"""

from __future__ import annotations

from os import getpid
from typing import Any

import redis
import redis.exceptions
from redis.event import AfterConnectionReleasedEvent

_RETRIED = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def call(client: Any, *args: Any) -> Any:
    """``client.execute_command(*args)``, on the short path for a plain ``Redis``.

    For commands whose reply redis-py does not post-process (GET, MGET, EVALSHA)."""
    if not isinstance(client, redis.Redis):
        return client.execute_command(*args)
    return _short(client, args)


def _short(client: Any, args: tuple[Any, ...]) -> Any:
    pool = client.connection_pool
    conn = _take(pool)
    lean = conn is not None
    if conn is None:
        conn = pool.get_connection()
    try:
        conn.send_command(*args)
        return conn.read_response()
    except _RETRIED:
        pass  # redis-py closed the connection: retried below, as redis-py would
    finally:
        if lean:
            _give(pool, conn)
        else:
            pool.release(conn)
    return client.execute_command(*args)


def _plain(pool: Any) -> bool:
    """A plain ``ConnectionPool`` (no client-side cache) of this process."""
    return type(pool) is redis.ConnectionPool and pool.cache is None and pool.pid == getpid()


def _take(pool: Any) -> Any | None:
    """An idle connection of a plain pool, connected and without stale data, as
    ``pool.get_connection()`` gives it; ``None``: take redis-py's own path."""
    if not _plain(pool):
        return None
    with pool._lock:
        if not pool._available_connections:
            return None
        conn = pool._available_connections.pop()
        pool._in_use_connections.add(conn)
    try:
        conn.connect()
        try:
            if conn.can_read() and not pool.maint_notifications_enabled():
                raise redis.exceptions.ConnectionError("Connection has data")
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
            conn.disconnect()
            conn.connect()
            if conn.can_read() and not pool.maint_notifications_enabled():
                raise redis.exceptions.ConnectionError("Connection not ready") from None
    except BaseException:
        _give(pool, conn)
        raise
    return conn


def _give(pool: Any, conn: Any) -> None:
    """``pool.release(conn)``, for a connection :func:`_take` took."""
    if pool.pid != getpid() or conn.pid != pool.pid:  # forked meanwhile: redis-py decides
        pool.release(conn)
        return
    with pool._lock:
        try:
            pool._in_use_connections.remove(conn)
        except KeyError:
            return
        if conn.should_reconnect():
            conn.disconnect()
        pool._available_connections.append(conn)
        pool._event_dispatcher.dispatch(AfterConnectionReleasedEvent(conn))  # type: ignore[no-untyped-call]

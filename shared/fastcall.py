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
"""

from __future__ import annotations

from typing import Any

import redis
import redis.exceptions

_RETRIED = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def call(client: Any, *args: Any) -> Any:
    """``client.execute_command(*args)``, on the short path for a plain ``Redis``.

    For commands whose reply redis-py does not post-process (GET, MGET, EVALSHA)."""
    if not isinstance(client, redis.Redis):
        return client.execute_command(*args)
    return _short(client, args)


def _short(client: Any, args: tuple[Any, ...]) -> Any:
    pool = client.connection_pool
    conn = pool.get_connection()
    try:
        conn.send_command(*args)
        return conn.read_response()
    except _RETRIED:
        pass  # redis-py closed the connection: retried below, as redis-py would
    finally:
        pool.release(conn)
    return client.execute_command(*args)

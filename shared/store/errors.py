"""The store's failures under the store's names: callers catch these, never redis-py's,
so the store stays the only package that knows it is Redis.

May import redis only.
"""

from __future__ import annotations

import redis.exceptions

StoreError = redis.exceptions.RedisError
"""Any failure of a store command (bookkeeping that may fail quietly catches this)."""
StoreFull = redis.exceptions.OutOfMemoryError
"""Redis at ``maxmemory`` under ``noeviction``: writes refused, reads still work."""
STORE_DOWN: tuple[type[Exception], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.ReadOnlyError,
)
"""Failures that mean the store is unreachable or not writable for now (503)."""

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


class NotReplicated(redis.exceptions.RedisError):
    """A write the primary made but fewer than ``REDIS_WAIT_REPLICAS`` replicas confirmed
    within ``REDIS_WAIT_TIMEOUT_MS`` (503 ``storage-not-replicated``): it may still be
    lost in a failover, so it is not acknowledged. A retry with the same
    ``Idempotency-Key`` finds it, waits for the replicas again and then answers."""

    def __init__(self, wanted: int, confirmed: int) -> None:
        super().__init__(f"{confirmed} of {wanted} replicas confirmed the write in time")
        self.wanted = wanted
        self.confirmed = confirmed

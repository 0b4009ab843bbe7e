"""Opening the store: the redis-py clients of one service (a plain client and one for
blocking reads; ``RedisCluster`` on a cluster) and its :class:`GameStore`.

May import the store's own modules and redis.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis

from shared.store import connection as fastcall
from shared.store.gamestore import GameStore


def make_clients(settings: dict[str, Any]) -> tuple[Any, Any]:
    """A client for ordinary commands and one for blocking reads (long-poll, SSE).

    Both are plain redis-py clients (``RedisCluster`` when ``REDIS_CLUSTER`` is set or
    the URL carries ``?cluster=true``). They hold only connection pools. Under gunicorn's
    gevent worker the sockets are monkey-patched, so a blocking XREAD parks one
    greenlet, not the worker. The blocking client's socket timeout exceeds the longest
    block we ever ask for, so a hung server still ends in an error.
    """
    parts = urlsplit(settings["REDIS_URL"])
    query = parse_qsl(parts.query)
    flags = {k: v for k, v in query if k == "cluster"}
    url = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "cluster"])))
    cluster = settings["REDIS_CLUSTER"] or flags.get("cluster", "").lower() in {"1", "true", "yes"}
    blocking_timeout = (
        max(settings["EVENTS_MAX_WAIT"], settings["SSE_HEARTBEAT_SECONDS"])
        + settings["REDIS_SOCKET_TIMEOUT"]
    )
    common = {
        "decode_responses": True,
        "socket_connect_timeout": settings["REDIS_SOCKET_TIMEOUT"],
        # redis-py 8 caps a pool at 100 connections and then fails ("Too many
        # connections"): under gevent every waiting long-poll/SSE holds one.
        "max_connections": settings.get("REDIS_MAX_CONNECTIONS", 4000),
    }
    factory = redis.RedisCluster.from_url if cluster else redis.Redis.from_url
    client = factory(url, socket_timeout=settings["REDIS_SOCKET_TIMEOUT"], **common)
    blocking = factory(url, socket_timeout=blocking_timeout, **common)
    return client, blocking


def open_store(settings: dict[str, Any], prefix: str) -> GameStore:
    """The store of one service (key prefix ``prefix``) on its own pair of clients."""
    client, blocking = make_clients(settings)
    if not settings.get("REDIS_PIPELINE", True):
        fastcall.unpiped(client)
    return GameStore(client, blocking, prefix, settings["WORKER_DUE_SHARDS"])

"""A write and its ``WAIT`` for replicas in one send (``REDIS_WAIT_REPLICAS``,
shared/store/documents.py): on the store's own sockets for a plain ``Redis``
(shared/store/connection.py), as a redis-py pipeline otherwise, and on a Redis Cluster
on the primary of the write's slot.

May import the store's own modules and redis.
"""

from __future__ import annotations

import contextlib
from typing import Any

import hiredis
import redis

from shared.store.connection import lane_of, on_socket, raised

_MOVED = (
    redis.exceptions.MovedError,
    redis.exceptions.AskError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
)


def call_waited(
    client: Any, key: str, replicas: int, timeout_ms: int, *args: Any
) -> tuple[Any, int]:
    """``client.execute_command(*args)`` followed by ``WAIT replicas timeout_ms`` in the
    same send on the same connection (one round trip): the command's reply and how many
    replicas confirmed it (and every write before it on that connection). ``key``: a key
    of the command, whose node takes both on Redis Cluster.

    WAIT blocks the connection it is sent on until the replicas answer, so under gevent
    the pair takes a socket of the lane's own, never the pipe (every greenlet's command
    would queue behind it). A client with no lane sends the two as a redis-py pipeline
    (one connection); a ``RedisCluster`` as a pipeline on the key's primary."""
    wait: tuple[Any, ...] = ("WAIT", replicas, timeout_ms)
    if isinstance(client, redis.RedisCluster):
        return _cluster_waited(client, key, wait, args)
    lane = lane_of(client) if type(client) is redis.Redis else None
    if lane is not None:
        packed = hiredis.pack_command(args) + hiredis.pack_command(wait)
        replies = on_socket(lane, packed, 2)
        if replies is not None:
            reply, acked = replies
            return raised(reply), int(raised(acked))
    return _pipelined(client, wait, args)


def _pipelined(client: Any, wait: tuple[Any, ...], args: tuple[Any, ...]) -> tuple[Any, int]:
    """The command and its WAIT as a redis-py pipeline (one connection, one send)."""
    pipe = client.pipeline(transaction=False)
    pipe.execute_command(*args)
    pipe.execute_command(*wait)
    reply, acked = pipe.execute(raise_on_error=False)
    for answer in (reply, acked):
        if isinstance(answer, Exception):
            raise answer
    return reply, int(acked)


def _cluster_waited(
    client: Any, key: str, wait: tuple[Any, ...], args: tuple[Any, ...]
) -> tuple[Any, int]:
    """On a cluster, a pipeline on the primary of ``key``'s slot (redis-py would send a
    lone WAIT to every node). A slot that moved (a failover) ran nothing there: the
    topology is read again and the pair sent to the new primary; a node that cannot be
    reached fails the call (503), after the topology is marked for a new read."""
    for _ in range(3):
        node = client.get_node_from_key(key)
        try:
            return _pipelined(client.get_redis_connection(node), wait, args)
        except _MOVED:
            _refresh(client)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            _refresh(client)
            raise
    raise redis.exceptions.ClusterDownError("the game's slot kept moving; try again")


def _refresh(client: Any) -> None:
    """Read the cluster's slots again (a failed read is left to the next command)."""
    with contextlib.suppress(redis.exceptions.RedisError):
        client.nodes_manager.initialize()

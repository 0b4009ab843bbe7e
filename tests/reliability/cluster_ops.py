"""Operations on a private Redis Cluster for the failover rehearsal
(test_failover.py): read a node's role, cut and heal a primary's replication (a
partition), restart a killed node as its pod would be."""

from __future__ import annotations

import subprocess

import redis


def node_of(client: redis.Redis) -> dict[str, str]:
    return {k: str(v) for k, v in client.info("replication").items()}


def cluster_ok(ports: list[int]) -> bool:
    for port in ports:
        info = redis.Redis(port=port, socket_timeout=1).cluster("info")
        if info.get("cluster_state") != "ok":
            return False
    return True


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0


def cut(primary: redis.Redis, replicas: list[redis.Redis]) -> None:
    """The replicas' links to their primary cut, all up: each replica now logs in as a
    user the primary does not know, and its link is dropped, so it cannot sync again; the
    primary goes on acknowledging writes that no replica has (a network partition)."""
    for replica in replicas:
        replica.config_set("masteruser", "cut-off")
        replica.config_set("masterauth", "no-such-user")
    primary.client_kill_filter(_type="replica")


def heal(replica: redis.Redis) -> None:
    """The partition over: the node logs in to its primary as before."""
    replica.config_set("masteruser", "")
    replica.config_set("masterauth", "")


def has_replica(node: redis.Redis) -> bool:
    """Whether a replica of ``node`` is online (it counts for ``WAIT``)."""
    info = node.info("replication")
    return any(
        info.get(f"slave{i}", {}).get("state") == "online"
        for i in range(int(info.get("connected_slaves", 0)))
    )


def restart(port: int, workdir: str) -> None:
    """The killed node back, as its pod would be: it rejoins as a replica of the primary
    that took its place (its nodes.conf says so) and syncs from it."""
    node = f"{workdir}/{port}"
    subprocess.run(
        ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", str(port)]
        + ["--cluster-enabled", "yes", "--cluster-config-file", f"{node}/nodes.conf"]
        + ["--cluster-node-timeout", "1000", "--dir", node, "--appendonly", "yes"]
        + ["--save", "", "--pidfile", f"{node}/redis.pid", "--logfile", f"{node}/redis.log"],
        check=True,
    )

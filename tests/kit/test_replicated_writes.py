"""REDIS_WAIT_REPLICAS (issue 33): a game write waits for its replicas in the write's own
send (a move still makes 2 round trips); a write too few replicas confirmed is a 503
``storage-not-replicated``, and a retry with the same Idempotency-Key answers the first
answer once a replica has it, without applying the move twice.

A replica of the session's Redis is started here (``redis-server --replicaof``); on a
Redis Cluster session (replicas are the failover rehearsal's: tests/reliability/
test_failover.py) these are skipped."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tests.conftest import CLUSTER, free_port, wait_until
from tests.kit.helpers import assert_problem, auth, post_move, sent_to_redis, started_game, view

pytestmark = pytest.mark.skipif(CLUSTER, reason="a replica of a single Redis")


def legal(client: Any, game_id: str, token: str) -> dict[str, Any]:
    return client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json["moves"][0]


@pytest.fixture
def replica_of(redis_url: str) -> Iterator[Any]:
    """``attach()`` starts a replica of the session's Redis and waits for its link;
    stopped (and so detached) at the end."""
    procs: list[subprocess.Popen[bytes]] = []
    workdir = tempfile.mkdtemp(prefix="test-replica-")
    primary = redis.Redis.from_url(redis_url)
    host, port = (
        primary.connection_pool.connection_kwargs["host"],
        primary.connection_pool.connection_kwargs["port"],
    )

    def attach() -> None:
        own = free_port()
        program = shutil.which("redis-server") or "redis-server"
        procs.append(
            subprocess.Popen(
                [program, "--port", str(own), "--bind", "127.0.0.1", "--dir", workdir]
                + ["--save", "", "--replicaof", str(host), str(port), "--loglevel", "warning"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        replica = redis.Redis(port=own)
        wait_until(
            lambda: replica.info("replication").get("master_link_status") == "up",
            20,
            "the replica's link",
        )
        wait_until(lambda: primary.info("replication")["connected_slaves"] >= 1, 10, "its ack")
        wait_until(
            lambda: primary.info("replication").get("slave0", {}).get("state") == "online",
            20,
            "the replica online",
        )

    yield attach
    for proc in procs:
        proc.terminate()
        proc.wait(10)
    wait_until(lambda: primary.info("replication")["connected_slaves"] == 0, 10, "detached")
    primary.close()
    shutil.rmtree(workdir, ignore_errors=True)


def test_an_unconfirmed_move_is_a_503_and_its_retry_the_first_answer(make_app, replica_of):
    app = make_app("toy", REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=20)
    client = app.test_client()
    plain = make_app("toy").test_client()  # (no wait) to set the game up without a replica
    game_id, _, tokens = started_game(plain, 2)
    seat = view(plain, game_id)["to_act"][0]
    move = legal(plain, game_id, tokens[seat])
    before = view(plain, game_id)["version"]

    # no replica: the primary wrote it, nobody confirmed it
    r = post_move(client, game_id, tokens[seat], move, **{"Idempotency-Key": "k1"})
    body = assert_problem(r, 503, "storage-not-replicated")
    assert r.headers["Retry-After"] and "Idempotency-Key" in body["detail"]
    assert view(plain, game_id)["version"] == before + 1  # written once...
    again = post_move(client, game_id, tokens[seat], move, **{"Idempotency-Key": "k1"})
    assert_problem(again, 503, "storage-not-replicated")  # ...and still not confirmed

    replica_of()
    # from here a replica answers: a timeout that a loaded machine cannot miss (a WAIT
    # returns as soon as the replica acknowledges)
    client = make_app("toy", REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=5000).test_client()
    app = client.application
    with sent_to_redis() as sent:
        retried = post_move(client, game_id, tokens[seat], move, **{"Idempotency-Key": "k1"})
    assert retried.status_code == 200, retried.get_json()
    assert view(plain, game_id)["version"] == before + 1  # not applied twice
    assert any(b"WAIT" in packed and b":sync" in packed for packed in sent)
    # the first answer: what a retry without the wait answers too
    first = post_move(plain, game_id, tokens[seat], move, **{"Idempotency-Key": "k1"})
    assert retried.get_json() == first.get_json()

    # with the replica there, a move is two round trips: the read, and the write with
    # its WAIT in one send
    seat = view(plain, game_id)["to_act"][0]
    move = legal(plain, game_id, tokens[seat])
    app.extensions["game_kit"].games.store.client.get("warm")
    with sent_to_redis() as sent:
        r = post_move(client, game_id, tokens[seat], move, **{"Idempotency-Key": "k2"})
    assert r.status_code == 200, r.get_json()
    assert len(sent) == 2 and b"MGET" in sent[0]
    assert b"EVALSHA" in sent[1] and b"WAIT" in sent[1]


def test_a_create_too_few_replicas_confirm_is_a_503(make_app):
    client = make_app("toy", REDIS_WAIT_REPLICAS=2, REDIS_WAIT_TIMEOUT_MS=5).test_client()
    r = client.post("/games", json={"players": 2})
    assert_problem(r, 503, "storage-not-replicated")


def test_without_the_setting_no_write_waits(toy_app, toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    seat = view(toy_client, game_id)["to_act"][0]
    move = legal(toy_client, game_id, tokens[seat])
    with sent_to_redis() as sent:
        assert post_move(toy_client, game_id, tokens[seat], move).status_code == 200
    assert not any(b"WAIT" in packed for packed in sent)

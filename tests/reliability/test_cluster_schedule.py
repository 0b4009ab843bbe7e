"""On Redis Cluster a game's due time lives in another slot than the game, so a move
writes the game, then the schedule in a second round trip. A process or node that dies
between the two must not leave the game without its worker (its bots and clocks never
played): a retry of the move with the same Idempotency-Key puts the due time back, and
with ``REDIS_WAIT_REPLICAS`` the schedule's write waits for replicas like the game's.

A private three-node cluster (scripts/redis_cluster.sh) on free ports."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.manhattan.app import create_app
from shared.store import client_of
from tests.conftest import _redis_cluster
from tests.kit.helpers import assert_problem, auth, create, join, post_move, view


@pytest.fixture(scope="module")
def cluster_url() -> Iterator[str]:
    yield from _redis_cluster()


def _store(app: Any) -> Any:
    return app.extensions["game_kit"].games.store


def _clocked_game(client: Any) -> tuple[str, str, dict[str, Any]]:
    """A running 2-seat game with a clock (the worker's to time): id, the token of the
    seat to act and a legal move of it."""
    game_id, host = create(client, players=2, clock={"turn_seconds": 60})
    tokens = [join(client, game_id, name)[1] for name in ("ann", "bob")]
    started = client.post(f"/games/{game_id}/start", headers=auth(host)).get_json()
    token = tokens[started["to_act"][0]]
    legal = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).get_json()
    return game_id, token, legal["moves"][0]


def test_a_retry_puts_back_a_due_time_the_first_attempt_lost(cluster_url: str) -> None:
    app = create_app({"REDIS_URL": cluster_url, "TESTING": True})
    client, store = app.test_client(), _store(app)
    game_id, token, move = _clocked_game(client)
    owner = client_of(store.read(game_id)[0])
    key = {"Idempotency-Key": "k1"}
    assert post_move(client, game_id, token, move, **key).status_code == 200
    due = store.due_score(game_id, owner)
    assert due is not None  # the next seat's deadline is the worker's
    # the schedule's write lost (a node died after the game's write): the entry is gone
    schedule_key = store.schedule_keys(owner)[0]
    assert store.client.zrem(schedule_key, game_id) == 1
    assert store.due_score(game_id, owner) is None
    again = post_move(client, game_id, token, move, **key)
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["game"]["version"] == view(client, game_id)["version"]
    back = store.due_score(game_id, owner)
    assert back is not None and abs(back - due) < 1000  # back, at the seat's deadline


def test_a_failed_schedule_write_is_a_503_and_its_retry_schedules(
    cluster_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app({"REDIS_URL": cluster_url, "TESTING": True})
    client, store = app.test_client(), _store(app)
    game_id, token, move = _clocked_game(client)
    owner = client_of(store.read(game_id)[0])
    lower = store.lower_due
    calls: list[int] = []

    def dies_once(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise redis.exceptions.ConnectionError("the schedule's node died")
        return lower(*args)

    monkeypatch.setattr(store, "lower_due", dies_once)
    store.client.zrem(store.schedule_keys(owner)[0], game_id)  # (the start's entry)
    key = {"Idempotency-Key": "k2"}
    assert_problem(post_move(client, game_id, token, move, **key), 503, "storage-unavailable")
    assert store.due_score(game_id, owner) is None  # the game written, its schedule not
    version = view(client, game_id)["version"]
    again = post_move(client, game_id, token, move, **key)
    assert again.status_code == 200, again.get_json()
    assert view(client, game_id)["version"] == version  # applied once
    assert store.due_score(game_id, owner) is not None

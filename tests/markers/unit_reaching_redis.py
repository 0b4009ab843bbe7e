"""Run only by tests/markers/test_unit_guard.py (its name keeps pytest from collecting
it otherwise): tests that the fixtures' names mark ``unit`` but that reach Redis anyway."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from shared.store import connection


def test_asks_for_a_client_by_name(request: pytest.FixtureRequest) -> None:
    request.getfixturevalue("redis_client").ping()


def test_opens_its_own_client() -> None:
    redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.1).ping()


def test_opens_the_stores_lane() -> None:
    client: Any = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.1)
    connection.call(client, "PING")


def test_pure() -> None:
    assert redis.Redis(host="127.0.0.1", port=1).connection_pool is not None

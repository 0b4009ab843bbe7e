"""Small helpers for driving a game service through Flask's test client."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient

from bench.common import each_send
from shared.store import jsoncodec, load_doc

PROBLEM = "application/problem+json"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **options: Any) -> tuple[str, str]:
    """Create a game; returns (id, host token)."""
    r = client.post("/games", json=options)
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["host_token"]


def join(client: FlaskClient, game_id: str, name: str) -> tuple[int, str]:
    r = client.post(f"/games/{game_id}/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["seat"], r.get_json()["token"]


def started_game(client: FlaskClient, players: int, **options: Any) -> tuple[str, str, list[str]]:
    """A running game of ``players`` seats; returns (id, host token, seat tokens)."""
    game_id, host = create(client, players=players, **options)
    tokens = [join(client, game_id, f"player {i}")[1] for i in range(players)]
    r = client.post(f"/games/{game_id}/start", headers=auth(host))
    assert r.status_code == 200, r.get_json()
    return game_id, host, tokens


def post_move(client: FlaskClient, game_id: str, token: str, move: Any, **headers: str) -> Any:
    """POST a move as ``token``'s seat (extra headers: ``**{"Idempotency-Key": "k"}``)."""
    return client.post(f"/games/{game_id}/moves", json=move, headers={**auth(token), **headers})


def view(client: FlaskClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/games/{game_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is a problem+json with this status and code (and no traceback)."""
    body = response.get_json(force=True)
    assert response.status_code == status, body
    assert response.mimetype == PROBLEM
    assert body["code"] == code, body
    assert body["status"] == status
    assert {"type", "title", "status", "detail", "code"} <= set(body)
    assert "Traceback" not in response.get_data(as_text=True)
    return body


@contextmanager
def sent_to_redis() -> Iterator[list[bytes]]:
    """Every round trip the test's own thread sends to Redis, as packed bytes, where it
    is sent: redis-py's connections and the store's lane (shared/store/connection.py). A
    pipeline is one round trip."""
    sent: list[bytes] = []

    def record(packet: bytes) -> None:
        if threading.current_thread() is threading.main_thread():
            sent.append(packet)

    with each_send(record):
        yield sent


def stored_text(redis_client: Any, key: str) -> str | None:
    """A string key's value as text a search can see into: a game document unpacked
    (it is stored compressed, see shared/store/document_codec.py) and written as compact JSON."""
    value = redis_client.get(key)
    if value is None or not str(key).endswith(":game"):
        return value
    return jsoncodec.dumps_text(load_doc(value))

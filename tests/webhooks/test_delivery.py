"""Webhooks end to end: real gunicorn, real worker processes, a real receiver."""

from __future__ import annotations

import json
import signal
from typing import Any

import requests
from standardwebhooks.webhooks import Webhook

from tests.webhooks.conftest import WORKER_ENV, Receiver
from tests.worker.helpers import wait_for

ALLOWED_DATA = {
    "game_id", "game", "version", "status", "to_act", "deadlines", "seat", "turn", "result",
}  # fmt: skip
HIDDEN = ("hand", "seed", "salt", "token", "state", "plan", "deck", "rng")


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _game(base: str, receiver: Receiver, seat_hooks: int = 1, **options: Any) -> dict[str, Any]:
    """A started 2-seat game with a game webhook (/game) and ``seat_hooks`` seat webhooks
    (/seat<n>); its id, host token, seat tokens and the secrets by path."""
    r = requests.post(
        f"{base}/games",
        json={"players": 2, "webhook": {"url": receiver.url("/game")}, **options},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    game = {"id": r.json()["id"], "host": r.json()["host_token"], "tokens": []}
    secrets = {"/game": r.json()["webhook_secret"]}
    assert secrets["/game"].startswith("whsec_")
    for seat in range(2):
        body: dict[str, Any] = {"name": f"p{seat}"}
        if seat < seat_hooks:
            body["webhook"] = {"url": receiver.url(f"/seat{seat}")}
        r = requests.post(f"{base}/games/{game['id']}/players", json=body, timeout=10)
        assert r.status_code == 201, r.text
        game["tokens"].append(r.json()["token"])
        if seat < seat_hooks:
            secrets[f"/seat{seat}"] = r.json()["webhook_secret"]
    r = requests.post(f"{base}/games/{game['id']}/start", headers=_auth(game["host"]), timeout=10)
    assert r.status_code == 200, r.text
    game["secrets"] = secrets
    return game


def _play(base: str, game: dict[str, Any], count: int) -> None:
    for _ in range(count):
        view = requests.get(f"{base}/games/{game['id']}", timeout=10).json()
        seat = view["to_act"][0]
        token = game["tokens"][seat]
        moves = requests.get(
            f"{base}/games/{game['id']}/legal-moves", headers=_auth(token), timeout=10
        ).json()["moves"]
        r = requests.post(
            f"{base}/games/{game['id']}/moves", json=moves[0], headers=_auth(token), timeout=10
        )
        assert r.status_code == 200, r.text


def _deliveries(base: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    r = requests.get(f"{base}/games/{game['id']}/webhooks", headers=_auth(game["host"]), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["deliveries"]


def test_every_delivery_verifies_and_shows_nothing_hidden(
    hooked_manhattan: str, receiver: Receiver, workers
) -> None:
    """A game played to its end by bots (seat 0 resigns): every delivery verifies with the
    standardwebhooks library under its registration's secret; bodies carry only public
    facts; the seat hears only its own turns and the end."""
    base = hooked_manhattan
    receiver.start()
    game = _game(base, receiver)
    _play(base, game, 2)
    r = requests.post(
        f"{base}/games/{game['id']}/resign", headers=_auth(game["tokens"][1]), timeout=10
    )
    assert r.status_code == 200, r.text
    r = requests.post(
        f"{base}/games/{game['id']}/resign", headers=_auth(game["tokens"][0]), timeout=10
    )
    assert r.status_code in (200, 409), r.text  # the last active seat may not resign
    workers.start(**WORKER_ENV)
    wait_for(
        lambda: (
            any(b["type"] == "game.over" for b in receiver.bodies("/seat0"))
            and any(b["type"] == "game.over" for b in receiver.bodies("/game"))
        ),
        60,
        "game.over delivered",
    )
    final = requests.get(f"{base}/games/{game['id']}", timeout=10).json()
    assert final["status"] == "finished"
    for req in receiver.requests:
        secret = game["secrets"][req["path"]]
        body = Webhook(secret).verify(req["body"], req["headers"])  # raises if not
        assert set(body) == {"type", "timestamp", "data"}
        assert set(body["data"]) <= ALLOWED_DATA, body
        assert body["data"]["game_id"] == game["id"]
        text = json.dumps(body["data"]).lower()
        assert not any(f'"{word}' in text for word in HIDDEN), text
        other = game["secrets"]["/seat0" if req["path"] == "/game" else "/game"]
        try:
            Webhook(other).verify(req["body"], req["headers"])
            raise AssertionError("verified under another registration's secret")
        except Exception as error:  # noqa: BLE001
            assert "another" not in str(error)
    game_types = [b["type"] for b in receiver.bodies("/game")]
    assert game_types[0] == "game.turn" or "game.started" in game_types
    assert {"game.turn", "game.over"} <= set(game_types)
    seat_bodies = receiver.bodies("/seat0")
    assert {b["type"] for b in seat_bodies} <= {"game.turn", "game.over", "game.cancelled"}
    assert all(0 in b["data"]["turn"] for b in seat_bodies if b["type"] == "game.turn")
    assert seat_bodies[-1]["data"]["result"] == final["result"]
    versions = [b["data"]["version"] for b in receiver.bodies("/game")]
    assert versions == sorted(versions)
    assert all(d["status"] == "delivered" for d in _deliveries(base, game))


def test_receiver_down_then_in_order(hooked_manhattan: str, receiver: Receiver, workers) -> None:
    """Deliveries wait while the receiver is down and arrive in order once it is back,
    each once per webhook-id (nothing was lost or reordered by the retries)."""
    base = hooked_manhattan
    game = _game(base, receiver)
    _play(base, game, 4)
    workers.start(**WORKER_ENV)
    wait_for(
        lambda: all(d["attempts"] >= 2 for d in _deliveries(base, game)[-1:]),
        20,
        "failed attempts while the receiver is down",
    )
    pending = _deliveries(base, game)
    assert all(d["status"] == "pending" for d in pending)
    assert pending[-1]["last_error"]
    _play(base, game, 2)  # more while it is down
    receiver.start()
    expected = list(reversed(_deliveries(base, game)))
    wait_for(lambda: len(receiver.requests) >= len(expected), 20, "every delivery after the outage")
    for path in ("/game", "/seat0"):
        mine = [d["id"] for d in expected if (d["seat"] is None) == (path == "/game")]
        got = [b["_id"] for b in receiver.bodies(path)]
        assert got == mine, (path, got, mine)
    wait_for(lambda: all(d["status"] == "delivered" for d in _deliveries(base, game)), 10, "marked")


def test_worker_killed_during_a_delivery(
    hooked_manhattan: str, receiver: Receiver, workers
) -> None:
    """SIGKILL while the receiver holds a delivery: another worker claims it and delivers
    (the same webhook-id arrives again: at least once)."""
    base = hooked_manhattan
    receiver.hang = 30  # the first try of each id never gets its answer in time
    receiver.start()
    first = workers.start(**{**WORKER_ENV, "WEBHOOK_TIMEOUT_SECONDS": "3"})
    game = _game(base, receiver, seat_hooks=0)
    assert receiver.arrived.wait(15)
    held = receiver.requests[0]["headers"]["webhook-id"]
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(10)
    receiver.hang = 0
    workers.start(**WORKER_ENV)
    wait_for(
        lambda: any(
            d["id"] == held and d["status"] == "delivered" for d in _deliveries(base, game)
        ),
        90,
        "the held delivery made by the other worker",
    )
    ids = [r["headers"]["webhook-id"] for r in receiver.requests]
    assert ids.count(held) >= 2

"""Webhooks end to end: real gunicorn, real worker processes, a real receiver."""

from __future__ import annotations

import json
import signal
import time
from typing import Any

import requests
from standardwebhooks.webhooks import Webhook

from shared.webhooks.delivery import KEPT
from tests.conftest import connect
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


def _entry(webhook_id: str) -> tuple[int, int]:
    """The outbox entry of a ``webhook-id`` (``msg_<game>_<ms>-<seq>``), to order by."""
    ms, seq = webhook_id.rsplit("_", 1)[1].split("-")
    return int(ms), int(seq)


def _test(base: str, game: dict[str, Any], token: str | None = None) -> list[str]:
    r = requests.post(
        f"{base}/games/{game['id']}/webhooks/test",
        headers=_auth(token or game["host"]),
        timeout=10,
    )
    assert r.status_code == 202, r.text
    ids: list[str] = r.json()["ids"]
    return ids


def test_seat_webhooks_follow_their_player_after_a_leave(
    hooked_manhattan: str, receiver: Receiver, workers
) -> None:
    """(issue 29) a, b and c join with a webhook each and a leaves: b (now seat 0) sees
    and tests only its own registration, d joining gets its own, and every delivery of
    the game that follows reaches the player it is about, at that player's seat; a's
    receiver hears nothing."""
    base = hooked_manhattan
    receiver.start()
    r = requests.post(f"{base}/games", json={"players": 3}, timeout=10)
    game = {"id": r.json()["id"], "host": r.json()["host_token"]}
    token: dict[str, str] = {}
    for name in ("a", "b", "c", "d"):
        if name == "d":
            gone = requests.delete(
                f"{base}/games/{game['id']}/players/me", headers=_auth(token["a"]), timeout=10
            )
            assert gone.status_code == 200, gone.text
            mine = requests.get(
                f"{base}/games/{game['id']}/webhooks", headers=_auth(token["b"]), timeout=10
            ).json()["webhooks"]
            assert [(w["url"], w["seat"]) for w in mine] == [(receiver.url("/b"), 0)]
            _test(base, game, token["b"])
        body = {"name": name, "webhook": {"url": receiver.url(f"/{name}")}}
        r = requests.post(f"{base}/games/{game['id']}/players", json=body, timeout=10)
        assert r.status_code == 201, r.text
        token[name] = r.json()["token"]
    mine = requests.get(
        f"{base}/games/{game['id']}/webhooks", headers=_auth(token["d"]), timeout=10
    ).json()["webhooks"]
    assert [(w["url"], w["seat"]) for w in mine] == [(receiver.url("/d"), 2)]
    seat_of = {"b": 0, "c": 1, "d": 2}
    game["tokens"] = [token[name] for name in seat_of]
    r = requests.post(f"{base}/games/{game['id']}/start", headers=_auth(game["host"]), timeout=10)
    assert r.status_code == 200, r.text
    workers.start(**WORKER_ENV)
    _play(base, game, 4)
    wait_for(
        lambda: (
            len(_deliveries(base, game)) == len(receiver.requests)
            and all(d["status"] == "delivered" for d in _deliveries(base, game))
        ),
        30,
        "every delivery made",
    )
    assert receiver.bodies("/a") == []
    for name, seat in seat_of.items():
        bodies = receiver.bodies(f"/{name}")
        assert any(b["type"] == "game.turn" for b in bodies), name
        for b in bodies:
            assert b["data"]["seat"] == seat, (name, b)
            assert b["type"] != "game.turn" or seat in b["data"]["turn"], (name, b)
    assert [b["type"] for b in receiver.bodies("/b")][0] == "webhook.test"


def test_delivered_notifications_leave_the_outbox(
    hooked_manhattan: str, receiver: Receiver, workers, redis_url: str
) -> None:
    """(issue 29) 30 tests to two registrations, all delivered: the outbox keeps only the
    newest 50 notifications, the delivery state only their records, and the list still
    shows those 50 as delivered."""
    base = hooked_manhattan
    receiver.start()
    workers.start(**WORKER_ENV)
    game = _game(base, receiver)
    sent = [i for _ in range(30) for i in _test(base, game)]
    got = lambda: {r["headers"]["webhook-id"] for r in receiver.requests}  # noqa: E731
    wait_for(lambda: set(sent) <= got(), 30, "every test delivered")
    client = connect(redis_url)
    outbox, state = f"mh:{{{game['id']}}}:outbox", f"mh:{{{game['id']}}}:whstate"
    wait_for(lambda: client.xlen(outbox) <= KEPT, 10, "the outbox trimmed")
    kept = {entry_id for entry_id, _ in client.xrange(outbox)}
    assert len(kept) == KEPT
    records = {f.removeprefix("d:") for f in client.hkeys(state) if f.startswith("d:")}
    assert records <= kept
    listed = _deliveries(base, game)
    assert len(listed) == KEPT and all(d["status"] == "delivered" for d in listed)
    assert [d["id"] for d in listed[:2]] == sent[:-3:-1]  # the newest first


def test_a_slow_receiver_holds_up_no_other_game(
    hooked_manhattan: str, receiver: Receiver, workers
) -> None:
    """(issue 29) Six registrations whose receiver never answers in time (3 s timeout):
    another game's delivery still arrives at once (it took 15 s and more when every
    delivery went out on one thread)."""
    base = hooked_manhattan
    slow = Receiver()
    slow.hang = 30
    slow.start()
    try:
        receiver.start()
        fast = _game(base, receiver, seat_hooks=0)
        workers.start(**{**WORKER_ENV, "WEBHOOK_TIMEOUT_SECONDS": "3"})
        wait_for(lambda: len(receiver.requests) >= 2, 10, "the fast game's start")
        for _ in range(2):
            _test(base, _game(base, slow, seat_hooks=2))  # 3 registrations each
        assert slow.arrived.wait(10)
        started = time.monotonic()
        (test_id,) = _test(base, fast)
        wait_for(
            lambda: any(r["headers"]["webhook-id"] == test_id for r in receiver.requests),
            60,
            "the fast game's test",
        )
        arrived = next(r["at"] for r in receiver.requests if r["headers"]["webhook-id"] == test_id)
        assert arrived - started < 2.0, arrived - started
    finally:
        slow.stop()


def test_a_busy_registration_takes_turns_with_the_others(
    hooked_manhattan: str, receiver: Receiver, workers
) -> None:
    """(issue 29) One deliverer thread and 1 s turns: a registration with 40 tests queued
    at a receiver taking 0.25 s each keeps the thread at most a turn at a time, so
    another game's test arrives within about a turn (it waited for all 40, over 10 s,
    before), and the busy one's still arrive in outbox order, each once."""
    base = hooked_manhattan
    slow = Receiver()
    slow.delay = 0.25
    slow.start()
    try:
        receiver.start()
        busy = _game(base, slow, seat_hooks=0)
        queued = [i for _ in range(40) for i in _test(base, busy)]
        fast = _game(base, receiver, seat_hooks=0)
        workers.start(**{**WORKER_ENV, "WEBHOOK_CONCURRENCY": "1", "WEBHOOK_TURN_SECONDS": "1"})
        assert slow.arrived.wait(10)
        started = time.monotonic()
        (test_id,) = _test(base, fast)
        wait_for(
            lambda: any(r["headers"]["webhook-id"] == test_id for r in receiver.requests),
            60,
            "the other game's test",
        )
        arrived = next(r["at"] for r in receiver.requests if r["headers"]["webhook-id"] == test_id)
        assert arrived - started < 3.0, arrived - started
        wait_for(lambda: len(slow.requests) >= len(queued) + 2, 30, "every busy delivery")
        ids = [r["headers"]["webhook-id"] for r in slow.requests]
        assert len(ids) == len(set(ids))
        assert ids == sorted(ids, key=_entry)
        assert set(queued) <= set(ids)
    finally:
        slow.stop()

"""Web Push delivered by the worker's own code (shared/webhooks/delivery.py with
shared/push/sending.py) to the stand-in push service, which checks the VAPID JWT and
decrypts every push: the tests read what a phone would show."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

from bench.pushservice import PushService
from shared.push.keys import generate
from tests.push.conftest import PUSH, auth, deliver, deliverer, game, player, subscribe
from tests.worker.helpers import wait_for

PUBLIC_FIELDS = {
    "type", "game_id", "game", "status", "to_act", "seat", "deadline", "url", "tag",
    "title", "body", "lang", "timestamp", "next_game",
}  # fmt: skip
HIDDEN = ("hand", "seed", "salt", "token", "state", "card", "key", "Ann", "Bob")


def _move(client, game_id: str, key: str) -> None:
    moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(key)).get_json()["moves"]
    r = client.post(f"/games/{game_id}/moves", json=moves[0], headers=auth(key))
    assert r.status_code == 200, r.get_json()


def test_a_turn_reaches_the_phone_in_the_players_language(pushed) -> None:
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
    client.patch("/players/me/push", json={"language": "de"}, headers=auth(keys[1]))
    game_id, to_act = game(client, *keys, clock={"turn_seconds": 600})
    deliver(app)
    (seat,) = to_act
    shown = service.shown(f"p{seat}")
    assert len(shown) == 1, service.refused
    push = shown[0]
    assert set(push) == PUBLIC_FIELDS
    assert push["type"] == "your_turn" and push["game_id"] == game_id and push["seat"] == seat
    assert push["url"] == f"/play?game={game_id}" and push["to_act"] == [seat]
    assert push["title"] == ("Du bist am Zug" if seat == 1 else "Your turn")
    assert push["body"] == ("In toy bist du am Zug." if seat == 1 else "It is your turn in toy.")
    assert not service.shown(f"p{1 - seat}") and not service.refused
    headers = service.pushes(f"p{seat}")[0]["headers"]
    assert headers["urgency"] == "high" and 590 <= int(headers["ttl"]) <= 600
    assert len(headers["topic"]) == 32
    text = str(push)
    assert not [word for word in HIDDEN if word in text]
    _move(client, game_id, keys[seat])
    deliver(app)
    other = service.shown(f"p{1 - seat}")
    assert [p["type"] for p in other] == ["your_turn"]
    assert service.pushes(f"p{1 - seat}")[0]["headers"]["topic"] == headers["topic"]


def test_quiet_hours_hold_a_turn_back(pushed, redis_client) -> None:
    """Quiet hours in the player's own zone (Tokyo, whatever this machine's) skip its
    pushes; once they are off, the next turn is pushed."""
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    tokyo = datetime.now(UTC) + timedelta(hours=9)
    quiet = {
        "start": (tokyo - timedelta(hours=1)).strftime("%H:%M"),
        "end": (tokyo + timedelta(hours=1)).strftime("%H:%M"),
    }
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
        body = {"quiet_hours": quiet, "time_zone": "Asia/Tokyo"}
        assert client.patch("/players/me/push", json=body, headers=auth(key)).status_code == 200
    game_id, (seat,) = game(client, *keys)
    deliver(app)
    assert not service.received and not service.refused
    state = redis_client.hgetall(f"toy:{{{game_id}}}:whstate")
    assert any('"skipped"' in v and "quiet hours" in v for v in state.values())
    other = keys[1 - seat]
    r = client.patch("/players/me/push", json={"quiet_hours": None}, headers=auth(other))
    assert r.status_code == 200
    _move(client, game_id, keys[seat])
    deliver(app)
    assert [p["type"] for p in service.shown(f"p{1 - seat}")] == ["your_turn"]
    assert not service.shown(f"p{seat}")


def test_a_410_removes_the_subscription(pushed, redis_client) -> None:
    app, client, service = pushed
    ids_keys = [player(client, name) for name in ("Ann", "Bob")]
    keys = [k for _, k in ids_keys]
    subs = [subscribe(client, key, service.subscribe(f"p{n}")) for n, key in enumerate(keys)]
    for n in range(2):
        service.status[f"/push/p{n}"] = 410
    game_id, to_act = game(client, *keys)
    deliver(app)
    (seat,) = to_act
    assert len(service.pushes(f"p{seat}")) == 1
    player_id = ids_keys[seat][0]
    assert redis_client.hget(f"players:{{{player_id}}}", f"push:{subs[seat]['id']}") is None
    seen = client.get("/players/me/push", headers=auth(keys[seat])).get_json()
    assert seen["subscriptions"] == []
    state = redis_client.hgetall(f"toy:{{{game_id}}}:whstate")
    assert any('"failed"' in v for k, v in state.items() if k.startswith("d:"))


def test_a_slow_push_service_does_not_delay_another(pushed) -> None:
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob", "Cy", "Di")]
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
    first, to_act = game(client, keys[0], keys[1])
    service.delay[f"/push/p{to_act[0]}"] = 3.0
    second, fast = game(client, keys[2], keys[3])
    d = deliverer(app, WEBHOOK_TIMEOUT_SECONDS=5.0)
    ticking = threading.Thread(target=d.settle, args=(10,))
    started = time.monotonic()
    ticking.start()
    wait_for(lambda: bool(service.shown(f"p{2 + fast[0]}")), 10, "the fast push")
    fast_at = time.monotonic() - started
    ticking.join()
    d.close()
    assert service.shown(f"p{to_act[0]}"), "the slow one arrives too"
    assert fast_at < 2.0, fast_at
    assert first != second


def test_a_player_gets_at_most_its_rate_of_pushes(pushed, redis_client) -> None:
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
    games = [game(client, *keys) for _ in range(3)]
    deliver(app, PUSH_RATE_LIMIT=1, WEBHOOK_BACKOFF_BASE_SECONDS=60.0)
    for seat in (0, 1):
        wanted = sum(1 for _, (s,) in games if s == seat)
        assert len(service.shown(f"p{seat}")) == min(1, wanted)
    held = [
        v
        for game_id, _ in games
        for v in redis_client.hgetall(f"toy:{{{game_id}}}:whstate").values()
        if "rate limited" in v
    ]
    assert len(held) == 3 - sum(min(1, len(service.shown(f"p{s}"))) for s in (0, 1))
    assert all('"pending"' in v for v in held)


def test_the_end_of_a_game_reaches_every_player_with_normal_urgency(pushed) -> None:
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
        body = {"events": ["game_over"], "language": ("ja", "de")[n]}
        assert client.patch("/players/me/push", json=body, headers=auth(key)).status_code == 200
    game_id, _ = game(client, *keys)
    for _ in range(200):
        view = client.get(f"/games/{game_id}").get_json()
        if view["status"] != "running":
            break
        for seat in view["to_act"]:
            _move(client, game_id, keys[seat])
    assert view["status"] == "finished"
    deliver(app)
    for n, title in enumerate(("ゲーム終了", "Spiel vorbei")):
        shown = service.shown(f"p{n}")
        assert [p["type"] for p in shown] == ["game_over"], shown
        assert shown[0]["title"] == title and shown[0]["status"] == "finished"
        assert service.pushes(f"p{n}")[0]["headers"]["urgency"] == "normal"


def test_a_rematch_calls_the_other_player_to_the_next_game(pushed) -> None:
    app, client, service = pushed
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
        body = {"events": ["rematch"], "language": "de"}
        assert client.patch("/players/me/push", json=body, headers=auth(key)).status_code == 200
    game_id, _ = game(client, *keys)
    for _ in range(200):
        view = client.get(f"/games/{game_id}").get_json()
        if view["status"] != "running":
            break
        for seat in view["to_act"]:
            _move(client, game_id, keys[seat])
    deliver(app)
    assert not service.received, "only rematch is wanted"
    r = client.post(f"/games/{game_id}/rematch", headers=auth(keys[0]))
    assert r.status_code == 201, r.get_json()
    next_id = r.get_json()["game_id"]
    deliver(app)
    for n in range(2):
        shown = service.shown(f"p{n}")
        assert [p["type"] for p in shown] == ["rematch"], shown
        assert shown[0]["next_game"] == next_id != game_id
        assert shown[0]["url"] == f"/play?game={next_id}" and shown[0]["title"] == "Revanche"


def test_the_stand_in_refuses_a_push_signed_with_another_key(make_app, redis_client) -> None:
    """The stand-in push service is no rubber stamp: a push signed with a key other than
    the one the device subscribed with is refused, and waits to be retried."""
    app = make_app("toy", **PUSH)
    client = app.test_client()
    service = PushService(generate()[1])
    service.start()
    try:
        keys = [player(client, name)[1] for name in ("Ann", "Bob")]
        for n, key in enumerate(keys):
            subscribe(client, key, service.subscribe(f"p{n}"))
        game_id, _ = game(client, *keys)
        deliver(app, WEBHOOK_BACKOFF_BASE_SECONDS=60.0)
        assert service.refused == ["another key"] and not service.received
        state = redis_client.hgetall(f"toy:{{{game_id}}}:whstate")
        assert any('"pending"' in v and "HTTP 400" in v for v in state.values())
    finally:
        service.stop()

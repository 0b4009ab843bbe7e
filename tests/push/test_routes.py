"""The push routes (issue 40): the VAPID key, a player's subscriptions and settings,
their validation, the export and erasure."""

from __future__ import annotations

from bench.pushservice import PushService
from shared.push.keys import generate
from shared.push.sending import Pusher
from tests.conftest import CLUSTER
from tests.kit.helpers import sent_to_redis
from tests.push.conftest import PUBLIC, PUSH, auth, player, subscribe


def test_without_a_key_push_is_off_and_says_so_in_the_readers_language(make_app) -> None:
    client = make_app("toy", WEBHOOK_ALLOW_PRIVATE=True).test_client()
    r = client.get("/push/key", headers={"Accept-Language": "de"})
    assert r.status_code == 404 and r.content_type == "application/problem+json"
    assert r.get_json()["code"] == "push-disabled"
    assert "Push-Benachrichtigungen" in r.get_json()["detail"]
    _, key = player(client, "Ann")
    sub = PushService(PUBLIC).subscribe("a")
    r = client.post("/players/me/push/subscriptions", json=sub, headers=auth(key))
    assert r.status_code == 404 and r.get_json()["code"] == "push-disabled"


def test_the_public_key_is_the_settings_own(make_app) -> None:
    client = make_app("toy", **PUSH).test_client()
    r = client.get("/push/key")
    assert r.status_code == 200
    assert r.get_json() == {
        "public_key": PUBLIC,
        "events": [
            "your_turn",
            "game_over",
            "tournament_game",
            "clock_low",
            "rematch",
            "digest",
        ],
    }
    other_private, other_public = generate()
    r = make_app("toy", PUSH_VAPID_PRIVATE_KEY=other_private).test_client().get("/push/key")
    assert r.get_json()["public_key"] == other_public != PUBLIC


def test_subscribe_list_replace_remove(make_app, redis_client) -> None:
    client = make_app("toy", **PUSH).test_client()
    player_id, key = player(client, "Ann")
    service = PushService(PUBLIC)
    phone, laptop = service.subscribe("phone"), service.subscribe("laptop")
    first = subscribe(client, key, {**phone, "device": "phone"})
    assert set(first) == {"id", "endpoint", "device", "since", "games"}
    assert first["games"] == ["toy"]
    subscribe(client, key, laptop)
    again = client.post("/players/me/push/subscriptions", json=phone, headers=auth(key))
    assert again.status_code == 200 and again.get_json()["id"] == first["id"]
    assert again.get_json()["since"] == first["since"]
    seen = client.get("/players/me/push", headers=auth(key)).get_json()
    assert [s["endpoint"] for s in seen["subscriptions"]] == [
        phone["endpoint"],
        laptop["endpoint"],
    ]
    assert seen["events"] == [
        "your_turn",
        "game_over",
        "tournament_game",
        "clock_low",
        "rematch",
    ]
    assert "keys" not in str(seen["subscriptions"])
    r = client.delete(f"/players/me/push/subscriptions/{first['id']}", headers=auth(key))
    assert r.status_code == 204
    r = client.delete(f"/players/me/push/subscriptions/{first['id']}", headers=auth(key))
    assert r.status_code == 404 and r.get_json()["code"] == "push-subscription-not-found"
    seen = client.get("/players/me/push", headers=auth(key)).get_json()
    assert [s["endpoint"] for s in seen["subscriptions"]] == [laptop["endpoint"]]
    assert redis_client.hget(f"players:{{{player_id}}}", f"push:{first['id']}") is None


def test_settings(make_app) -> None:
    client = make_app("toy", **PUSH).test_client()
    _, key = player(client, "Ann")
    body = {
        "events": ["clock_low", "your_turn"],
        "quiet_hours": {"start": "22:30", "end": "07:00"},
        "time_zone": "Asia/Tokyo",
        "language": "ja",
    }
    r = client.patch("/players/me/push", json=body, headers=auth(key))
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {**body, "events": ["your_turn", "clock_low"], "subscriptions": []}
    r = client.patch("/players/me/push", json={"quiet_hours": None}, headers=auth(key))
    assert r.get_json()["quiet_hours"] is None and r.get_json()["language"] == "ja"
    for bad, code in (
        ({"time_zone": "Mars/Olympus"}, "push-time-zone-unknown"),
        ({"quiet_hours": {"start": "07:00", "end": "07:00"}}, "push-quiet-hours-invalid"),
        ({"quiet_hours": {"start": "25:00", "end": "07:00"}}, "validation-error"),
        ({"events": ["game.turn"]}, "validation-error"),
        ({"language": "fr"}, "validation-error"),
    ):
        r = client.patch("/players/me/push", json=bad, headers=auth(key))
        assert r.status_code == 422 and r.get_json()["code"] == code, (bad, r.get_json())
    r = client.patch(
        "/players/me/push",
        json={"time_zone": "Mars/Olympus"},
        headers={**auth(key), "Accept-Language": "ja"},
    )
    assert "IANA" in r.get_json()["detail"] and "タイムゾーン" in r.get_json()["detail"]


def test_what_a_subscription_needs(make_app) -> None:
    client = make_app("toy", **PUSH).test_client()
    _, key = player(client, "Ann")
    good = PushService(PUBLIC).subscribe("a")
    short = {**good["keys"], "auth": good["keys"]["auth"][:20]}
    not_a_point = {**good["keys"], "p256dh": "A" + good["keys"]["p256dh"][1:]}
    for body, code in (
        ({"endpoint": good["endpoint"]}, "validation-error"),
        ({**good, "keys": {"p256dh": "!!" * 44, "auth": "x" * 22}}, "validation-error"),
        ({**good, "keys": short}, "push-keys-invalid"),
        ({**good, "keys": not_a_point}, "push-keys-invalid"),
    ):
        r = client.post("/players/me/push/subscriptions", json=body, headers=auth(key))
        assert r.status_code == 422 and r.get_json()["code"] == code, (body, r.get_json())
    r = client.post("/players/me/push/subscriptions", json=good)
    assert r.status_code == 401
    guarded = make_app("toy", PUSH_VAPID_PRIVATE_KEY=PUSH["PUSH_VAPID_PRIVATE_KEY"]).test_client()
    r = guarded.post("/players/me/push/subscriptions", json=good, headers=auth(key))
    assert r.status_code == 422 and r.get_json()["code"] == "push-endpoint-refused"
    few = make_app("toy", **PUSH, PUSH_MAX_SUBSCRIPTIONS=1).test_client()
    subscribe(few, key, good)
    r = few.post(
        "/players/me/push/subscriptions", json=PushService(PUBLIC).subscribe("b"), headers=auth(key)
    )
    assert r.status_code == 409 and r.get_json()["code"] == "push-subscriptions-full"


def test_in_the_export_and_gone_with_the_player(make_app, redis_client) -> None:
    client = make_app("toy", **PUSH).test_client()
    player_id, key = player(client, "Ann")
    sub = subscribe(client, key, PushService(PUBLIC).subscribe("a"))
    body = {"language": "de", "events": ["your_turn", "digest"]}
    client.patch("/players/me/push", json=body, headers=auth(key))
    assert redis_client.zscore("players:digest", player_id) is not None
    export = client.get("/players/me/export", headers=auth(key)).get_json()
    assert export["push"]["language"] == "de"
    assert export["push"]["events"] == ["your_turn", "digest"]
    assert [s["id"] for s in export["push"]["subscriptions"]] == [sub["id"]]
    assert set(export["push"]["subscriptions"][0]["keys"]) == {"p256dh", "auth"}
    assert client.delete("/players/me", headers=auth(key)).status_code == 204
    fields = redis_client.hgetall(f"players:{{{player_id}}}")
    assert not [f for f in fields if str(f).startswith("push")]
    assert redis_client.zscore("players:digest", player_id) is None


def test_a_move_of_subscribed_players_under_a_clock_still_costs_two_round_trips(
    make_app,
) -> None:
    """Push adds nothing to a move: its notifications are the outbox entries the write
    script appends anyway, and clock_low is only the due time the write sets anyway."""
    client = make_app("toy", **PUSH, CLOCK_MIN_TURN_SECONDS=1).test_client()
    keys = [player(client, name)[1] for name in ("Ann", "Bob")]
    service = PushService(PUBLIC)
    for n, key in enumerate(keys):
        subscribe(client, key, service.subscribe(f"p{n}"))
    r = client.post(
        "/games", json={"players": 2, "rounds": 1, "seed": 4, "clock": {"turn_seconds": 60}}
    )
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    tokens = [
        client.post(f"/games/{game_id}/players", json={}, headers=auth(k)).get_json()["token"]
        for k in keys
    ]
    (seat,) = client.post(f"/games/{game_id}/start", headers=auth(host)).get_json()["to_act"]
    move = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat])).get_json()
    with sent_to_redis() as sent:
        r = client.post(
            f"/games/{game_id}/moves", json=move["moves"][0], headers=auth(tokens[seat])
        )
    assert r.status_code == 200, r.get_json()
    if not CLUSTER:
        assert len(sent) == 2
    else:
        assert [c.split(b"\r\n")[2] for c in sent[:2]] == [b"MGET", b"EVALSHA"]


def test_a_subscription_hears_the_services_it_was_registered_with(make_app) -> None:
    """A push's url is a path on the service that sent it, so a device subscribed through
    Manhattan's /play hears Manhattan's games only, until the same endpoint is registered
    with Wind City too (the players are common to both services)."""
    manhattan = make_app("manhattan", **PUSH).test_client()
    windcity = make_app("windcity", **PUSH).test_client()
    player_id, key = player(manhattan, "Ann")
    sub = PushService(PUBLIC).subscribe("phone")
    assert subscribe(manhattan, key, sub)["games"] == ["manhattan"]
    registry = manhattan.application.extensions["game_kit"].games.store.registry.client

    def heard(game: str) -> list[str]:
        note = {"reg": f"player:{player_id}", "data": {"game": game}}
        found = Pusher(PUSH).current(registry, [("1-0", note)])
        return [reg["push"]["endpoint"] for reg in found.get(f"player:{player_id}", [])]

    assert heard("manhattan") == [sub["endpoint"]]
    assert heard("windcity") == []
    r = windcity.post("/players/me/push/subscriptions", json=sub, headers=auth(key))
    assert r.status_code == 200 and r.get_json()["games"] == ["manhattan", "windcity"]
    assert heard("windcity") == [sub["endpoint"]]

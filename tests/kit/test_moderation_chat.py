"""Moderation of the table chat (issue 41): a blocked sender's messages never reach the
blocker, a message is reported with the ten around it, an operator's deletion leaves a
placeholder everywhere (chat, events, SSE replay; the text gone from Redis), and an
erased player's name leaves reports (toy game, real Redis)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.kit.helpers import assert_problem, auth
from tests.kit.test_moderation import player


def running_game(mod_client: FlaskClient, mod_keys: dict[str, str], *players: str) -> str:
    r = mod_client.post(
        "/games", json={"players": len(players), "rounds": 1}, headers=auth(mod_keys["plain"])
    )
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    for key in players:
        assert (
            mod_client.post(f"/games/{gid}/players", json={}, headers=auth(key)).status_code == 201
        )
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    return str(gid)


def say(mod_client: FlaskClient, gid: str, key: str, text: str) -> dict[str, Any]:
    r = mod_client.post(f"/games/{gid}/chat", json={"text": text}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json()["message"])


def texts(mod_client: FlaskClient, gid: str, key: str | None = None) -> list[str | None]:
    headers = auth(key) if key else {}
    return [
        m["text"]
        for m in mod_client.get(f"/games/{gid}/chat", headers=headers).get_json()["messages"]
    ]


def event_texts(mod_client: FlaskClient, gid: str, key: str | None = None) -> list[Any]:
    headers = auth(key) if key else {}
    events = mod_client.get(f"/games/{gid}/events?after=0", headers=headers).get_json()["events"]
    return [e["message"]["text"] for e in events if e["type"] == "chat"]


def test_a_blocked_players_messages_never_reach_the_blocker(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    _, cid = player(mod_client, mod_keys, "Cid")
    gid = running_game(mod_client, mod_keys, ann, bob, cid)
    say(mod_client, gid, bob, "before the block")
    assert mod_client.put(f"/players/me/blocks/{bob_id}", headers=auth(ann)).status_code == 204
    say(mod_client, gid, bob, "after the block")
    say(mod_client, gid, cid, "hi all")
    assert texts(mod_client, gid, ann) == ["hi all"]  # none of Bob's, before or after
    assert event_texts(mod_client, gid, ann) == ["hi all"]
    assert texts(mod_client, gid, cid) == ["before the block", "after the block", "hi all"]
    mod_client.delete(f"/players/me/blocks/{bob_id}", headers=auth(ann))
    assert len(texts(mod_client, gid, ann)) == 3


def test_a_block_holds_when_either_player_uses_its_seat_token(mod_client, mod_keys):
    """A seat taken with a player key is that player's whatever credential it sends or
    reads with: Bob writing with his seat token is Bob, and Ann reading with hers is Ann."""
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    r = mod_client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(mod_keys["plain"]))
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    seat_tokens = [
        mod_client.post(f"/games/{gid}/players", json={}, headers=auth(key)).get_json()["token"]
        for key in (ann, bob)
    ]
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    assert mod_client.put(f"/players/me/blocks/{bob_id}", headers=auth(ann)).status_code == 204
    message = say(mod_client, gid, seat_tokens[1], "by seat token")
    assert message["player"] == bob_id
    say(mod_client, gid, bob, "by player key")
    for reader in (ann, seat_tokens[0]):
        assert texts(mod_client, gid, reader) == []
        assert event_texts(mod_client, gid, reader) == []
    assert texts(mod_client, gid, seat_tokens[1]) == ["by seat token", "by player key"]


def test_a_message_is_reported_with_the_ones_around_it(mod_client, mod_keys):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    gid = running_game(mod_client, mod_keys, ann, bob)
    sent = [say(mod_client, gid, bob if n % 2 else ann, f"m{n}") for n in range(20)]
    target = sent[9]  # Bob's
    r = mod_client.post(
        f"/games/{gid}/chat/{target['id']}/report",
        json={"reason": "abuse", "note": "rude"},
        headers=auth(ann),
    )
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["kind"] == "message"
    [report] = mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).get_json()[
        "reports"
    ]
    context = report["context"]
    assert context["message"] == target["id"] and context["game"] == gid
    assert [m["text"] for m in context["messages"]] == [f"m{n}" for n in range(4, 15)]
    assert report["subject"] == {"player": bob_id, "name": "Bob"}
    assert report["reporter"] == {"player": ann_id, "name": "Ann"}
    for bad in ("1-1", "nonsense", "9" * 60):
        r = mod_client.post(
            f"/games/{gid}/chat/{bad}/report", json={"reason": "spam"}, headers=auth(ann)
        )
        assert_problem(r, 404, "message-not-found")


def test_a_deleted_message_is_a_placeholder_everywhere_and_gone_from_redis(
    mod_client, mod_keys, redis_client
):
    _, ann = player(mod_client, mod_keys, "Ann")
    _, bob = player(mod_client, mod_keys, "Bob")
    gid = running_game(mod_client, mod_keys, ann, bob)
    say(mod_client, gid, ann, "fine")
    bad = say(mod_client, gid, bob, "SECRET-INSULT")
    say(mod_client, gid, ann, "after")
    ttl = redis_client.pttl(f"toy:{{{gid}}}:chat")
    r = mod_client.delete(
        f"/admin/games/{gid}/chat/{bad['id']}",
        json={"reason": "abuse"},
        headers=auth(mod_keys["admin"]),
    )
    assert r.status_code == 204
    for key in (ann, bob, None):
        assert texts(mod_client, gid, key) == ["fine", None, "after"]
        assert event_texts(mod_client, gid, key) == ["fine", None, "after"]
    page = mod_client.get(f"/games/{gid}/chat", headers=auth(ann)).get_json()["messages"]
    assert page[1]["deleted"] is True and page[1]["id"] == bad["id"] and page[1]["name"] == "Bob"
    sse = mod_client.get(
        f"/games/{gid}/events", headers={"Accept": "text/event-stream", "Last-Event-ID": "0"}
    )
    body = sse.get_data(as_text=True)
    assert sse.status_code == 200 and '"deleted":true' in body.replace(" ", "")
    assert "SECRET-INSULT" not in body and "fine" in body
    stored = redis_client.xrange(f"toy:{{{gid}}}:chat")
    assert "SECRET-INSULT" not in str(stored) and len(stored) == 3
    assert abs(redis_client.pttl(f"toy:{{{gid}}}:chat") - ttl) < 5000  # expires with the game
    # the ids go on: a new message sorts after the others
    later = say(mod_client, gid, bob, "sorry")
    assert texts(mod_client, gid, ann)[-1] == "sorry" and later["id"] > bad["id"]
    audit = mod_client.get("/admin/audit", headers=auth(mod_keys["admin"])).get_json()["entries"][0]
    assert audit["action"] == "message.delete" and audit["target"].endswith(f"/{gid}/{bad['id']}")
    missing = mod_client.delete(
        f"/admin/games/{gid}/chat/1-1", json={"reason": "x"}, headers=auth(mod_keys["admin"])
    )
    assert_problem(missing, 404, "message-not-found")
    assert_problem(
        mod_client.delete(
            f"/admin/games/{gid}/chat/{bad['id']}", json={"reason": "x"}, headers=auth(ann)
        ),
        403,
        "admin-required",
    )


def test_an_erased_players_name_leaves_the_reports_about_its_messages(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    gid = running_game(mod_client, mod_keys, ann, bob)
    say(mod_client, gid, ann, "hello")
    bad = say(mod_client, gid, bob, "awful words")
    mod_client.post(
        f"/games/{gid}/chat/{bad['id']}/report", json={"reason": "hate"}, headers=auth(ann)
    )
    assert mod_client.delete("/players/me", headers=auth(bob)).status_code == 204
    [report] = mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).get_json()[
        "reports"
    ]
    assert report["subject"] == {"player": None, "name": "Deleted player"}
    messages = report["context"]["messages"]
    assert [m["name"] for m in messages] == ["Ann", "Deleted player"]
    assert messages[1]["text"] == "awful words"  # what the operator needs stays
    assert bob_id not in str(report) and "Bob" not in str(report)
    # and in the game, the chat shows the placeholder name too
    names = [
        m["name"]
        for m in mod_client.get(f"/games/{gid}/chat", headers=auth(ann)).get_json()["messages"]
    ]
    assert names == ["Ann", "Deleted player"]


def _seat_game(mod_client: FlaskClient, mod_keys: dict[str, str], ann: str, bob: str) -> Any:
    """A running game: seat 0 Ann's (joined with her key, named Annabel), seat 1 Bob's;
    its id and Annabel's seat token."""
    r = mod_client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(mod_keys["plain"]))
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    seat = mod_client.post(f"/games/{gid}/players", json={"name": "Annabel"}, headers=auth(ann))
    mod_client.post(f"/games/{gid}/players", json={}, headers=auth(bob))
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    return gid, seat.get_json()["token"]


def test_a_report_with_a_players_seat_token_is_that_players(mod_client, mod_keys):
    """A seat token of a player's seat reports as that player (as it talks and blocks):
    the report is in its export, goes with it, and no erased name stays behind."""
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    _, bob = player(mod_client, mod_keys, "Bob")
    gid, seat = _seat_game(mod_client, mod_keys, ann, bob)
    bad = say(mod_client, gid, bob, "rude")
    url = f"/games/{gid}/chat/{bad['id']}/report"
    assert mod_client.post(url, json={"reason": "abuse"}, headers=auth(seat)).status_code == 201
    admin = auth(mod_keys["admin"])
    [report] = mod_client.get("/admin/reports", headers=admin).get_json()["reports"]
    assert report["reporter"] == {"player": ann_id, "name": "Ann"}
    mine = mod_client.get("/players/me/export", headers=auth(ann)).get_json()["moderation"]
    assert [r["id"] for r in mine["reports"]] == [report["id"]]
    assert mod_client.delete("/players/me", headers=auth(ann)).status_code == 204
    queue = mod_client.get("/admin/reports", headers=admin).get_json()["reports"]
    assert queue == [] and "Annabel" not in str(queue)


def test_a_seat_token_without_a_player_files_20_reports_an_hour_too(mod_client, mod_keys):
    """A seat of no player has its own hourly count (the players' 20): a seat token
    cannot bury the operators' queue."""
    _, bob = player(mod_client, mod_keys, "Bob")
    r = mod_client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(mod_keys["plain"]))
    gid, host = r.get_json()["id"], r.get_json()["host_token"]
    guest = mod_client.post(f"/games/{gid}/players", json={"name": "Guest"}).get_json()["token"]
    mod_client.post(f"/games/{gid}/players", json={}, headers=auth(bob))
    assert mod_client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
    url = f"/games/{gid}/chat/{say(mod_client, gid, bob, 'rude')['id']}/report"
    for _ in range(20):
        assert mod_client.post(url, json={"reason": "spam"}, headers=auth(guest)).status_code == 201
    r = mod_client.post(url, json={"reason": "spam"}, headers=auth(guest))
    assert_problem(r, 429, "rate-limited")
    queue = mod_client.get("/admin/reports?limit=100", headers=auth(mod_keys["admin"])).get_json()
    assert len(queue["reports"]) == 20


def test_reports_from_one_address_are_limited_whatever_seats_file_them(make_app, mod_keys):
    """An address holding seats of many games (each seat its own 20 an hour) is limited
    as a whole (`RATE_LIMIT_REPORTS_ADDRESS`): 429 with Retry-After, nothing queued; the
    player route counts in the same window, and another address still reports."""
    client = make_app(
        "toy", API_KEYS_FILE=mod_keys["file"], RATE_LIMIT_REPORTS_ADDRESS="3/hour"
    ).test_client()
    bob_id, bob = player(client, mod_keys, "Bob")
    reports = []
    for _ in range(4):  # a guest seat (no player) in each of 4 games
        r = client.post("/games", json={"players": 2, "rounds": 1}, headers=auth(mod_keys["plain"]))
        gid, host = r.get_json()["id"], r.get_json()["host_token"]
        guest = client.post(f"/games/{gid}/players", json={"name": "G"}).get_json()["token"]
        client.post(f"/games/{gid}/players", json={}, headers=auth(bob))
        assert client.post(f"/games/{gid}/start", headers=auth(host)).status_code == 200
        reports.append((f"/games/{gid}/chat/{say(client, gid, bob, 'rude')['id']}/report", guest))
    for url, guest in reports[:3]:
        assert client.post(url, json={"reason": "spam"}, headers=auth(guest)).status_code == 201
    url, guest = reports[3]
    r = client.post(url, json={"reason": "spam"}, headers=auth(guest))
    assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 3600
    _, ann = player(client, mod_keys, "Ann")  # a player key, from the same address
    r = client.post(f"/players/{bob_id}/report", json={"reason": "spam"}, headers=auth(ann))
    assert_problem(r, 429, "rate-limited")
    admin = auth(mod_keys["admin"])
    assert len(client.get("/admin/reports?limit=100", headers=admin).get_json()["reports"]) == 3
    other = {"REMOTE_ADDR": "10.9.9.9"}
    r = client.post(url, json={"reason": "spam"}, headers=auth(guest), environ_base=other)
    assert r.status_code == 201


def test_the_per_address_report_limit_is_on_by_default(mod_app):
    assert mod_app.extensions["address_limits"].reports_address is not None

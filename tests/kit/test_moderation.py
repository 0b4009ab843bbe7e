"""Moderation (issue 41): blocks (quick match, a race of 40 under gunicorn, unlisted
tables), reports and their limit, the operator's key and routes, the audit log, export
and erasure (toy game served by the kit, real Redis). Suspension:
test_moderation_suspension.py; the chat's moderation: test_moderation_chat.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests
from flask.testing import FlaskClient

from tests.kit.helpers import assert_problem, auth


def player(mod_client: FlaskClient, mod_keys: dict[str, str], name: str) -> tuple[str, str]:
    r = mod_client.post("/players", json={"name": name}, headers=auth(mod_keys["plain"]))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["key"]


def game_with(
    mod_client: FlaskClient, mod_keys: dict[str, str], *players: str, **options: Any
) -> str:
    return table(mod_client, mod_keys, *players, **options)[0]


def table(
    mod_client: FlaskClient, mod_keys: dict[str, str], *players: str, **options: Any
) -> tuple[str, str | None]:
    """A game the platform's key creates, joined by ``players``: its id and invite code."""
    r = mod_client.post(
        "/games", json={"players": 2, "rounds": 1, **options}, headers=auth(mod_keys["plain"])
    )
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    for key in players:
        joined = mod_client.post(
            f"/games/{body['id']}/players",
            json={"invite": body.get("invite_code")} if body.get("invite_code") else {},
            headers=auth(key),
        )
        assert joined.status_code == 201, joined.get_json()
    return str(body["id"]), body.get("invite_code")


# -- blocks -------------------------------------------------------------------------------


def test_blocks_are_listed_paged_lifted_and_checked(mod_client, mod_keys):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    others = [player(mod_client, mod_keys, f"P{n}") for n in range(3)]
    for other_id, _ in others:
        assert (
            mod_client.put(f"/players/me/blocks/{other_id}", headers=auth(ann)).status_code == 204
        )
    assert (
        mod_client.put(f"/players/me/blocks/{others[0][0]}", headers=auth(ann)).status_code == 204
    )
    page = mod_client.get("/players/me/blocks?limit=2", headers=auth(ann)).get_json()
    rest = mod_client.get(f"/players/me/blocks?cursor={page['next_cursor']}", headers=auth(ann))
    listed = page["blocks"] + rest.get_json()["blocks"]
    assert sorted(b["player"] for b in listed) == sorted(o for o, _ in others)
    assert rest.get_json()["next_cursor"] is None
    assert {b["name"] for b in listed} == {"P0", "P1", "P2"}
    assert (
        mod_client.delete(f"/players/me/blocks/{others[1][0]}", headers=auth(ann)).status_code
        == 204
    )
    assert_problem(
        mod_client.delete(f"/players/me/blocks/{others[1][0]}", headers=auth(ann)),
        404,
        "not-blocked",
    )
    assert_problem(
        mod_client.put(f"/players/me/blocks/{ann_id}", headers=auth(ann)), 422, "cannot-block-self"
    )
    assert_problem(
        mod_client.put("/players/me/blocks/0123456789abcdef", headers=auth(ann)),
        404,
        "player-not-found",
    )
    assert_problem(mod_client.put(f"/players/me/blocks/{others[0][0]}"), 401, "player-key-required")
    # an API key acts for its player too (X-Player needs an external_id: the key's player)
    r = mod_client.post(
        "/players", json={"name": "Plat", "external_id": "u1"}, headers=auth(mod_keys["plain"])
    )
    assert r.status_code == 201
    headers = {**auth(mod_keys["plain"]), "X-Player": "u1"}
    assert mod_client.put(f"/players/me/blocks/{ann_id}", headers=headers).status_code == 204
    assert mod_client.get("/players/me/blocks", headers=headers).get_json()["blocks"] == [
        {"player": ann_id, "name": "Ann"}
    ]


def test_a_blocked_player_cannot_join_an_unlisted_table_either_way(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    _, cid = player(mod_client, mod_keys, "Cid")
    assert mod_client.put(f"/players/me/blocks/{bob_id}", headers=auth(ann)).status_code == 204
    private, invite = table(mod_client, mod_keys, ann, visibility="unlisted", players=3)
    r = mod_client.post(f"/games/{private}/players", json={"invite": invite}, headers=auth(bob))
    assert_problem(r, 403, "blocked")
    # the other way: Bob's table, Ann (the blocker) may not join it either
    theirs, invite = table(mod_client, mod_keys, bob, visibility="unlisted", players=3)
    r = mod_client.post(f"/games/{theirs}/players", json={"invite": invite}, headers=auth(ann))
    assert_problem(r, 403, "blocked")
    r = mod_client.post(f"/games/{theirs}/players", json={"invite": invite}, headers=auth(cid))
    assert r.status_code == 201
    # a public table stays open to anyone who finds it (documented)
    public = game_with(mod_client, mod_keys, ann)
    assert (
        mod_client.post(f"/games/{public}/players", json={}, headers=auth(bob)).status_code == 201
    )


def test_quick_match_never_seats_a_blocked_pair_together(mod_client, mod_keys):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    _, cid = player(mod_client, mod_keys, "Cid")
    assert mod_client.put(f"/players/me/blocks/{ann_id}", headers=auth(bob)).status_code == 204
    body = {"players": 2, "rounds": 1}
    first = mod_client.post("/matches", json=body, headers=auth(ann)).get_json()
    second = mod_client.post("/matches", json=body, headers=auth(bob)).get_json()
    assert first["game_id"] != second["game_id"]  # Ann was blocked by Bob: both ways
    third = mod_client.post("/matches", json=body, headers=auth(cid)).get_json()
    assert third["game_id"] == first["game_id"]  # the oldest table that welcomes Cid


# -- reports and the operator -------------------------------------------------------------


def test_the_admin_routes_need_an_operator_key(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    made = mod_client.post("/games", json={"players": 2}, headers=auth(mod_keys["admin"]))
    host = made.get_json()["host_token"]  # a game the operator's own key made
    seat = mod_client.post(f"/games/{made.get_json()['id']}/players", json={"name": "S"})
    assert_problem(mod_client.get("/admin/reports"), 401, "admin-required")
    # a player key, a plain API key, a host token, a seat token, anything else
    for bearer in (ann, mod_keys["plain"], host, seat.get_json()["token"], "bgk_x", "a" * 300):
        assert_problem(
            mod_client.get("/admin/reports", headers=auth(bearer)), 403, "admin-required"
        )
    assert mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).status_code == 200


def test_without_api_keys_there_is_no_operator(toy_client):
    assert_problem(toy_client.get("/admin/audit", headers=auth("bgk_x")), 403, "admin-required")


def test_a_report_reaches_the_queue_with_its_context_and_is_resolved_once(mod_client, mod_keys):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    gid = game_with(mod_client, mod_keys, ann, bob)
    body = {"reason": "abuse", "note": "rude", "game": gid}
    r = mod_client.post(f"/players/{bob_id}/report", json=body, headers=auth(ann))
    assert r.status_code == 201, r.get_json()
    receipt = r.get_json()
    assert receipt["kind"] == "player" and receipt["status"] == "open"
    assert "context" not in receipt  # the operator's
    assert_problem(
        mod_client.post(f"/players/{bob_id}/report", json={"reason": "rude"}, headers=auth(ann)),
        422,
        "validation-error",
    )
    queue = mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).get_json()
    [report] = queue["reports"]
    assert report["reporter"] == {"player": ann_id, "name": "Ann"}
    assert report["subject"] == {"player": bob_id, "name": "Bob"}
    context = report["context"]
    assert context["service"] == "toy" and context["game"] == gid and context["version"] >= 1
    assert [p["name"] for p in context["players"]] == ["Ann", "Bob"]
    before = datetime.now(UTC).replace(microsecond=0)
    done = mod_client.post(
        f"/admin/reports/{report['id']}/resolve",
        json={"action": "actioned", "note": "warned"},
        headers=auth(mod_keys["admin"]),
    )
    after = datetime.now(UTC)
    assert done.status_code == 200 and done.get_json()["resolution"]["by"] == _key_id(mod_keys)
    again = mod_client.post(
        f"/admin/reports/{report['id']}/resolve",
        json={"action": "dismissed"},
        headers=auth(mod_keys["admin"]),
    )
    assert_problem(again, 409, "report-resolved")
    assert (
        mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).get_json()["reports"]
        == []
    )
    resolved = mod_client.get(
        "/admin/reports?status=resolved", headers=auth(mod_keys["admin"])
    ).get_json()
    assert [x["id"] for x in resolved["reports"]] == [report["id"]]
    audit = mod_client.get("/admin/audit", headers=auth(mod_keys["admin"])).get_json()["entries"]
    assert (
        audit[0]["action"] == "report.actioned" and audit[0]["target"] == f"report:{report['id']}"
    )
    assert audit[0]["who"] == _key_id(mod_keys) and audit[0]["reason"] == "warned"
    assert before <= datetime.fromisoformat(audit[0]["at"]) <= after  # who, what, why, when


def _key_id(mod_keys: dict[str, str]) -> str:
    import json

    entries = json.loads(Path(mod_keys["file"]).read_text())["keys"]
    return str(next(e["id"] for e in entries if e["name"] == "ops"))


def test_reports_and_the_audit_log_are_paged(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, _ = player(mod_client, mod_keys, "Bob")
    for n in range(5):
        r = mod_client.post(f"/players/{bob_id}/report", json={"reason": "spam"}, headers=auth(ann))
        assert r.status_code == 201
        mod_client.put(
            f"/admin/players/{bob_id}/suspension",
            json={"seconds": 60 + n, "reason": f"r{n}"},
            headers=auth(mod_keys["admin"]),
        )
    seen: list[str] = []
    cursor = ""
    while True:
        page = mod_client.get(
            f"/admin/reports?limit=2{cursor}", headers=auth(mod_keys["admin"])
        ).get_json()
        seen += [r["id"] for r in page["reports"]]
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert len(seen) == 5 and seen == sorted(seen)
    reasons: list[str] = []
    cursor = ""
    while True:
        page = mod_client.get(
            f"/admin/audit?limit=2{cursor}", headers=auth(mod_keys["admin"])
        ).get_json()
        reasons += [e["reason"] for e in page["entries"]]
        if page["next_cursor"] is None:
            break
        cursor = f"&cursor={page['next_cursor']}"
    assert reasons == ["r4", "r3", "r2", "r1", "r0"]  # newest first
    bad = mod_client.get("/admin/audit?cursor=zzz", headers=auth(mod_keys["admin"]))
    assert_problem(bad, 422, "validation-error")


# -- export and erasure -------------------------------------------------------------------


def test_blocks_and_reports_are_exported_and_go_with_the_player(mod_client, mod_keys, redis_client):
    ann_id, ann = player(mod_client, mod_keys, "Ann")
    bob_id, bob = player(mod_client, mod_keys, "Bob")
    _, cid = player(mod_client, mod_keys, "Cid")
    mod_client.put(f"/players/me/blocks/{bob_id}", headers=auth(ann))
    mod_client.put(f"/players/me/blocks/{ann_id}", headers=auth(cid))
    gid = game_with(mod_client, mod_keys, ann, bob)
    filed = mod_client.post(
        f"/players/{bob_id}/report", json={"reason": "spam", "game": gid}, headers=auth(ann)
    )
    about = mod_client.post(
        f"/players/{ann_id}/report", json={"reason": "hate", "game": gid}, headers=auth(bob)
    )
    exported = mod_client.get("/players/me/export", headers=auth(ann)).get_json()["moderation"]
    assert exported["blocks"] == [{"player": bob_id, "name": "Bob"}]
    assert [r["id"] for r in exported["reports"]] == [filed.get_json()["id"]]
    assert mod_client.delete("/players/me", headers=auth(ann)).status_code == 204
    # its blocks, both ways
    assert mod_client.get("/players/me/blocks", headers=auth(cid)).get_json()["blocks"] == []
    assert not redis_client.exists(f"players:{{{ann_id}}}:blocks", f"players:{{{bob_id}}}:blockers")
    # the report it filed is gone; the one about it keeps what the operator needs
    queue = mod_client.get("/admin/reports", headers=auth(mod_keys["admin"])).get_json()["reports"]
    assert [r["id"] for r in queue] == [about.get_json()["id"]]
    [report] = queue
    assert report["subject"] == {"player": None, "name": "Deleted player"}
    assert report["reason"] == "hate" and report["context"]["game"] == gid
    names = [p["name"] for p in report["context"]["players"]]
    assert names == ["Deleted player", "Bob"] and "Ann" not in str(report)
    assert ann_id not in str(report)


# -- the race, under real gunicorn --------------------------------------------------------


def test_a_race_of_40_quick_matches_never_seats_a_blocked_pair_together(live_manhattan):
    """40 players, each blocking the next three (so each must avoid six of the 39),
    ask for 2-seat tables at once: a pool that ignored blocks would pair some blocked
    couple with near certainty (each pair about 15%, 20 pairs)."""
    base = live_manhattan
    with requests.Session() as session:
        people = []
        for n in range(40):
            r = session.post(f"{base}/players", json={"name": f"racer {n}"}, timeout=10)
            assert r.status_code == 201, r.text
            people.append((r.json()["id"], r.json()["key"]))
        blocked: set[frozenset[str]] = set()
        for n, (_, key) in enumerate(people):
            for step in (1, 2, 3):
                other = people[(n + step) % 40][0]
                r = session.put(f"{base}/players/me/blocks/{other}", headers=auth(key), timeout=10)
                assert r.status_code == 204, r.text
                blocked.add(frozenset((people[n][0], other)))
    options = {"players": 2, "six_rounds": True, "promo_cards": True}  # this test's own pool

    def ask(key: str) -> dict[str, Any]:
        r = requests.post(f"{base}/matches", json=options, headers=auth(key), timeout=30)
        assert r.status_code == 201, r.text
        return dict(r.json())

    with ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(ask, [key for _, key in people]))
    by_key = {key: pid for pid, key in people}
    tables: dict[str, set[str]] = {}
    for (_, key), answer in zip(people, answers, strict=True):
        tables.setdefault(answer["game_id"], set()).add(by_key[key])
    assert sum(len(t) for t in tables.values()) == 40
    for seated in tables.values():
        for a in seated:
            for b in seated - {a}:
                assert frozenset((a, b)) not in blocked, (a, b)
    assert sum(len(t) == 2 for t in tables.values()) >= 10  # tables do fill


def test_a_flood_of_reports_is_limited_and_nothing_more_is_queued(mod_client, mod_keys):
    _, ann = player(mod_client, mod_keys, "Ann")
    bob_id, _ = player(mod_client, mod_keys, "Bob")
    for _ in range(20):
        r = mod_client.post(f"/players/{bob_id}/report", json={"reason": "spam"}, headers=auth(ann))
        assert r.status_code == 201
    r = mod_client.post(f"/players/{bob_id}/report", json={"reason": "spam"}, headers=auth(ann))
    assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 3600
    queue = mod_client.get("/admin/reports?limit=100", headers=auth(mod_keys["admin"])).get_json()
    assert len(queue["reports"]) == 20


def test_the_host_players_block_keeps_a_joiner_out_of_its_unlisted_table(toy_client):
    ann = toy_client.post("/players", json={"name": "Ann"}).get_json()
    bob = toy_client.post("/players", json={"name": "Bob"}).get_json()
    r = toy_client.post(
        "/games",
        json={"players": 2, "rounds": 1, "visibility": "unlisted"},
        headers=auth(ann["key"]),
    )
    gid, invite = r.get_json()["id"], r.get_json()["invite_code"]
    assert (
        toy_client.put(f"/players/me/blocks/{bob['id']}", headers=auth(ann["key"])).status_code
        == 204
    )
    r = toy_client.post(f"/games/{gid}/players", json={"invite": invite}, headers=auth(bob["key"]))
    assert_problem(r, 403, "blocked")
    # a seat without a player (a name, no key) has no blocks: it may join
    r = toy_client.post(f"/games/{gid}/players", json={"invite": invite, "name": "Guest"})
    assert r.status_code == 201


def test_wrong_operator_keys_count_as_failed_authentications(make_app, mod_keys):
    client = make_app(
        "toy", API_KEYS_FILE=mod_keys["file"], RATE_LIMIT_AUTH_FAILURES="3/minute"
    ).test_client()
    assert_problem(client.get("/admin/audit"), 401, "admin-required")  # no bearer: not one
    for n in range(3):
        r = client.get("/admin/audit", headers=auth(f"bgk_guess{n}"))
        assert_problem(r, 403, "admin-required")
    assert_problem(client.get("/admin/audit", headers=auth("bgk_guess3")), 429, "rate-limited")
    other = {"REMOTE_ADDR": "10.9.9.9"}
    r = client.get("/admin/audit", headers=auth(mod_keys["admin"]), environ_base=other)
    assert r.status_code == 200

"""Seat statuses, clocks, bot seats, leaving and resigning, through the toy game's API
(Flask test client on the real test Redis; the worker's steps run in-process here, the
worker process itself is proved in tests/worker)."""

from __future__ import annotations

import time
from typing import Any

from shared.games import seats
from shared.store import Claim, client_of
from shared.usecases.autoplay import NothingDue, play_due
from tests.kit.helpers import assert_problem, auth, create, join, view

CLOCK = {"turn_seconds": 1, "max_timeouts": 2}


def _kit(app):
    return app.extensions["game_kit"].games


def test_clock_option_is_checked_and_shown(make_app):
    client = make_app("toy").test_client()
    r = client.post("/games", json={"clock": {"turn_seconds": 5}})
    assert_problem(r, 422, "validation-error")  # below CLOCK_MIN_TURN_SECONDS (10)
    r = client.post("/games", json={"clock": {"turn_seconds": 10, "max_timeouts": 11}})
    assert_problem(r, 422, "validation-error")
    r = client.post("/games", json={"clock": {"turn_seconds": 1209601}})
    assert_problem(r, 422, "validation-error")
    game_id, _ = create(client, clock={"turn_seconds": 10})
    assert view(client, game_id)["options"]["clock"] == {"turn_seconds": 10, "max_timeouts": 3}
    plain, _ = create(client)
    assert "clock" not in view(client, plain)["options"]


def test_deadlines_start_per_seat_and_simultaneous_seats_keep_their_own(make_app, redis_client):
    app = make_app("toy", CLOCK_MIN_TURN_SECONDS=1)
    client = app.test_client()
    game_id, host = create(client, players=3, clock={"turn_seconds": 60})
    tokens = [join(client, game_id, name)[1] for name in ("a", "b", "c")]
    started = client.post(f"/games/{game_id}/start", headers=auth(host)).get_json()
    caller = started["to_act"][0]
    for p in started["players"]:
        assert (p["deadline"] is not None) == (p["seat"] == caller)
        assert (p["status"], p["bot"], p["timeouts"]) == ("active", None, 0)
    store = _kit(app).store
    owner = client_of(store.read(game_id)[0])
    assert owner == "addr:127.0.0.1"  # the creator's address: no API keys here
    assert store.due_score(game_id, owner) == seats.parse_ms(started["players"][caller]["deadline"])
    r = client.post(
        f"/games/{game_id}/moves", json={"type": "call", "value": 1}, headers=auth(tokens[caller])
    )
    picking = r.get_json()["game"]
    assert sorted(picking["to_act"]) == [0, 1, 2]
    deadlines = {p["seat"]: p["deadline"] for p in picking["players"]}
    assert all(deadlines.values())
    time.sleep(0.01)
    r = client.post(
        f"/games/{game_id}/moves", json={"type": "pick", "value": 1}, headers=auth(tokens[0])
    )
    after = {p["seat"]: p["deadline"] for p in r.get_json()["game"]["players"]}
    assert after[0] is None and after[1] == deadlines[1] and after[2] == deadlines[2]
    client.delete(f"/games/{game_id}", headers=auth(host))
    if store.cluster:  # the shard is in another slot: the worker drops the entry
        claim = Claim(owner, game_id, store.due_score(game_id, owner), store.client_shard(owner))
        assert store.reschedule(claim, None)
    assert store.due_score(game_id, owner) is None  # a cancelled game leaves the schedule


def test_timeouts_in_a_row_abandon_the_seat_and_a_human_move_resets_them(make_app, redis_client):
    app = make_app("toy", CLOCK_MIN_TURN_SECONDS=1)
    client = app.test_client()
    game_id, host = create(client, players=2, clock=CLOCK)
    tokens = [join(client, game_id, name)[1] for name in ("a", "b")]
    client.post(f"/games/{game_id}/start", headers=auth(host))
    kit = _kit(app)
    try:
        play_due(kit, game_id)
        raise AssertionError("nothing is due before the deadline")
    except NothingDue:
        pass
    time.sleep(1.05)
    doc, lag = play_due(kit, game_id)  # the caller timed out: a bot called for it
    assert 0 <= lag < 1000
    caller = next(p for p in doc["players"] if p["timeouts"] == 1)["seat"]
    other = 1 - caller
    r = client.post(
        f"/games/{game_id}/moves", json={"type": "pick", "value": 2}, headers=auth(tokens[caller])
    )
    assert r.status_code == 200
    assert r.get_json()["game"]["players"][caller]["timeouts"] == 0  # a human move resets
    time.sleep(1.05)
    doc, _ = play_due(kit, game_id)  # the other seat's pick timed out
    assert doc["players"][other]["timeouts"] == 1
    time.sleep(1.05)
    doc, _ = play_due(kit, game_id)  # the other seat is the caller now: second in a row
    assert (doc["players"][other]["status"], doc["players"][other]["bot"]) == (
        "abandoned",
        "strong",  # the default take-over level (the game's ``takeover`` option)
    )
    events = client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    kinds = [(e["type"], e.get("seat")) for e in events if e["type"].startswith("seat_")]
    assert kinds == [
        ("seat_timed_out", caller),
        ("seat_timed_out", other),
        ("seat_timed_out", other),
        ("seat_abandoned", other),
    ]
    r = client.post(
        f"/games/{game_id}/moves", json={"type": "pick", "value": 1}, headers=auth(tokens[other])
    )
    assert r.status_code == 409 and r.get_json()["code"] in ("seat-abandoned", "not-your-turn")


def test_the_host_seats_bots_and_only_the_host(make_app):
    client = make_app("toy").test_client()
    game_id, host = create(client, players=3)
    _, token = join(client, game_id, "ann")
    url = f"/games/{game_id}/players"
    assert_problem(client.post(url, json={"bot": "greedy"}), 401, "missing-token")
    assert_problem(
        client.post(url, json={"bot": "greedy"}, headers=auth(token)), 403, "host-token-required"
    )
    assert_problem(
        client.post(url, json={"bot": "smart"}, headers=auth(host)), 422, "validation-error"
    )
    r = client.post(url, json={"bot": "greedy"}, headers=auth(host))
    assert r.status_code == 201
    body = r.get_json()
    assert body["seat"] == 1 and body["token"] is None
    assert body["game"]["players"][1] == {
        "seat": 1,
        "name": "Greedy bot 1",
        "status": "bot",
        "bot": "greedy",
        "deadline": None,
        "timeouts": 0,
    }
    r = client.post(url, json={"bot": "random", "name": "ann"}, headers=auth(host))
    assert_problem(r, 409, "name-taken")
    r = client.post(url, json={"bot": "random", "name": "Robo"}, headers=auth(host))
    assert r.get_json()["game"]["players"][2]["name"] == "Robo"
    assert_problem(client.post(url, json={"bot": "random"}, headers=auth(host)), 409, "game-full")
    assert_problem(client.post(url, json={}), 422, "validation-error")


def test_leaving_an_open_game_frees_the_seat_and_tokens_stay_bound(make_app):
    client = make_app("toy").test_client()
    game_id, host = create(client, players=3)
    tokens = [join(client, game_id, name)[1] for name in ("a", "b", "c")]
    url = f"/games/{game_id}/players/me"
    assert_problem(client.delete(url), 401, "missing-token")
    assert_problem(client.delete(url, headers=auth(host)), 403, "seat-token-required")
    r = client.delete(url, headers=auth(tokens[0]))
    assert r.status_code == 200
    assert [(p["seat"], p["name"]) for p in r.get_json()["players"]] == [(0, "b"), (1, "c")]
    assert_problem(client.get(f"/games/{game_id}", headers=auth(tokens[0])), 403, "invalid-token")
    assert view(client, game_id, tokens[1])["you"] == 0  # b moved down, same token
    assert view(client, game_id, tokens[2])["you"] == 1
    assert join(client, game_id, "a")[0] == 2  # the freed seat can be taken again
    assert_problem(
        client.post(f"/games/{game_id}/resign", headers=auth(tokens[1])), 409, "game-not-running"
    )
    client.post(f"/games/{game_id}/start", headers=auth(host))
    assert_problem(client.delete(url, headers=auth(tokens[1])), 409, "game-not-open")


def test_resigned_seats_rank_last():
    result = {
        "standings": [
            {"seat": 2, "rank": 1, "total": 9},
            {"seat": 0, "rank": 1, "total": 9},
            {"seat": 1, "rank": 3, "total": 4},
            {"seat": 3, "rank": 4, "total": 1},
        ],
        "winners": [2, 0],
    }
    players: list[Any] = [
        {"seat": s, "status": "resigned" if s == 0 else "active"} for s in range(4)
    ]
    ranked = seats.rank_resigned_last(result, players)
    assert [(r["seat"], r["rank"]) for r in ranked["standings"]] == [(2, 1), (1, 2), (3, 3), (0, 4)]
    assert ranked["standings"][-1]["resigned"] is True
    assert ranked["winners"] == [2]
    active: list[Any] = [{"seat": 0, "status": "active"}]
    assert seats.rank_resigned_last(result, active) is result


def test_nobody_wins_when_every_seat_resigned():
    """(issue 39) every seat resigned: they share the last rank, which is 1, and nobody
    is listed as a winner (the clients said "rank 1" twice with different scores)."""
    result = {
        "standings": [{"seat": 1, "rank": 1, "total": 7}, {"seat": 0, "rank": 2, "total": 3}],
        "winners": [1],
    }
    players: list[Any] = [{"seat": s, "status": "resigned"} for s in range(2)]
    ranked = seats.rank_resigned_last(result, players)
    assert [(r["seat"], r["rank"], r["resigned"]) for r in ranked["standings"]] == [
        (1, 1, True),
        (0, 1, True),
    ]
    assert ranked["winners"] == []


def test_seat_webhooks_follow_their_player_when_an_earlier_one_leaves(make_app):
    """(issue 29) a, b and c join with a webhook each; a leaves, so b and c move down a
    seat. Each keeps its own registration at its new seat: a seat token sees and tests
    only its own, a's is gone (nobody sees its URL or queues to it), the next joiner's
    answer names its own registration, and every turn goes to the player whose it is."""
    app = make_app("toy", WEBHOOK_SIGNING_KEY="k", WEBHOOK_ALLOW_PRIVATE=True)
    client = app.test_client()
    store = _kit(app).store
    game_id, host = create(client, players=3)
    tokens, hooks = {}, {}

    def join_hooked(name: str) -> dict:
        body = {"name": name, "webhook": {"url": f"http://127.0.0.1:8089/{name}"}}
        r = client.post(f"/games/{game_id}/players", json=body)
        assert r.status_code == 201, r.get_json()
        tokens[name], hooks[name] = r.get_json()["token"], r.get_json()["webhook_id"]
        return r.get_json()

    def seen(token: str) -> list[tuple[str, str, int]]:
        r = client.get(f"/games/{game_id}/webhooks", headers=auth(token))
        return [(w["id"], w["url"][-1], w["seat"]) for w in r.get_json()["webhooks"]]

    for name in ("a", "b", "c"):
        join_hooked(name)
    r = client.delete(f"/games/{game_id}/players/me", headers=auth(tokens["a"]))
    assert r.status_code == 200
    assert seen(tokens["b"]) == [(hooks["b"], "b", 0)]
    assert seen(tokens["c"]) == [(hooks["c"], "c", 1)]
    assert seen(host) == [(hooks["b"], "b", 0), (hooks["c"], "c", 1)]
    r = client.post(f"/games/{game_id}/webhooks/test", headers=auth(tokens["b"]))
    assert r.status_code == 202
    notes = [note for _, note in store.outbox_entries(game_id)]
    assert [(n["reg"], n["data"]["seat"]) for n in notes] == [(hooks["b"], 0)]
    assert join_hooked("d")["seat"] == 2
    assert seen(tokens["d"]) == [(hooks["d"], "d", 2)]  # the answer named d's own
    seat_of = {"b": 0, "c": 1, "d": 2}
    player = {hooks[name]: name for name in seat_of}
    client.post(f"/games/{game_id}/start", headers=auth(host))
    for _ in range(6):
        for name, seat in seat_of.items():
            if seat in view(client, game_id)["to_act"]:
                url = f"/games/{game_id}/legal-moves"
                move = client.get(url, headers=auth(tokens[name])).get_json()["moves"][0]
                client.post(f"/games/{game_id}/moves", json=move, headers=auth(tokens[name]))
    turns = [n for _, n in store.outbox_entries(game_id) if n["type"] == "game.turn"]
    mine = [n for n in turns if n["reg"] in player]
    assert len(mine) >= 6
    for note in mine:
        seat = seat_of[player[note["reg"]]]
        assert note["data"]["seat"] == seat and seat in note["data"]["turn"], note
    assert all(n["reg"] != hooks["a"] for _, n in store.outbox_entries(game_id))

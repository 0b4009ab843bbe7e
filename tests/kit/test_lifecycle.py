"""Creating, joining, starting, viewing, listing and cancelling games (toy game)."""

from __future__ import annotations

import pytest

from tests.kit.helpers import assert_problem, auth, create, join, post_move, started_game, view


def test_create_answers_201_with_location_host_token_and_open_view(toy_client):
    r = toy_client.post("/games", json={"players": 3, "rounds": 2, "seed": 7})
    assert r.status_code == 201
    body = r.get_json()
    assert r.headers["Location"] == f"/games/{body['id']}"
    assert r.headers["ETag"] == '"1"'
    assert len(body["host_token"]) >= 40
    game = body["game"]
    assert game["status"] == "open" and game["version"] == 1
    assert game["options"] == {"players": 3, "rounds": 2}  # no seed
    assert game["players"] == [] and game["state"] is None and game["you"] is None


def test_create_with_empty_body_uses_defaults(toy_client):
    r = toy_client.post("/games")
    assert r.status_code == 201
    assert r.get_json()["game"]["options"] == {"players": 4, "rounds": 3}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"players": "3"}, "players"),
        ({"players": True}, "players"),
        ({"players": 2.5}, "players"),
        ({"players": 10**40}, "players"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"rounds": 0}, "rounds"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_create_rejects_bad_options_with_field_messages(toy_client, body, field):
    problem = assert_problem(toy_client.post("/games", json=body), 422, "validation-error")
    assert field in problem["errors"]["json"]


@pytest.mark.parametrize(
    "data, content_type",
    [("not json", "application/json"), ("{", "application/json"), ("hello", "text/plain")],
)
def test_create_rejects_non_json_bodies(toy_client, data, content_type):
    r = toy_client.post("/games", data=data, content_type=content_type)
    assert_problem(r, 400, "invalid-json")


@pytest.mark.parametrize("body", [[1, 2], "players", 3, None])
def test_create_rejects_json_that_is_not_an_object(toy_client, body):
    import json

    r = toy_client.post("/games", data=json.dumps(body), content_type="application/json")
    assert_problem(r, 422, "validation-error")


def test_join_gives_seats_in_order_and_a_token_shown_once(toy_client):
    game_id, _ = create(toy_client, players=2)
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Zoë 🎲"})
    assert r.status_code == 201
    body = r.get_json()
    assert body["seat"] == 0 and body["game"]["you"] == 0
    assert body["game"]["players"] == [
        {
            "seat": 0,
            "name": "Zoë 🎲",
            "status": "active",
            "bot": None,
            "deadline": None,
            "timeouts": 0,
        }
    ]
    assert join(toy_client, game_id, "Bob")[0] == 1
    # the token is never shown again, to anyone
    for token in (None, body["token"]):
        assert body["token"] not in str(view(toy_client, game_id, token))


@pytest.mark.parametrize(
    "name", ["", " ", "x" * 33, "tab\there", "new\nline", "\x00", None, 42, ["a"]]
)
def test_join_rejects_bad_names(toy_client, name):
    game_id, _ = create(toy_client)
    r = toy_client.post(f"/games/{game_id}/players", json={"name": name})
    problem = assert_problem(r, 422, "validation-error")
    assert "name" in problem["errors"]["json"]


def test_join_rejects_missing_name_and_unknown_fields(toy_client):
    game_id, _ = create(toy_client)
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "a", "seat": 3})
    assert "seat" in assert_problem(r, 422, "validation-error")["errors"]["json"]
    r = toy_client.post(f"/games/{game_id}/players", json={})
    assert "name" in assert_problem(r, 422, "validation-error")["errors"]["json"]


def test_join_conflicts(toy_client):
    game_id, host = create(toy_client, players=2)
    join(toy_client, game_id, "Ann")
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Ann"})
    assert_problem(r, 409, "name-taken")
    join(toy_client, game_id, "Bob")
    r = toy_client.post(f"/games/{game_id}/players", json={"name": "Cid"})
    assert_problem(r, 409, "game-full")
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    game2, host2 = create(toy_client, players=3)
    join(toy_client, game2, "a")
    join(toy_client, game2, "b")
    assert toy_client.post(f"/games/{game2}/start", headers=auth(host2)).status_code == 200
    r = toy_client.post(f"/games/{game2}/players", json={"name": "late"})
    assert_problem(r, 409, "game-not-open")


@pytest.mark.parametrize("game_id", ["0123456789abcdef", "x{y}", "a" * 65, "é"])
def test_unknown_games_are_404_game_not_found(toy_client, game_id):
    for r in (
        toy_client.get(f"/games/{game_id}"),
        toy_client.post(f"/games/{game_id}/players", json={"name": "a"}),
        toy_client.get(f"/games/{game_id}/score"),
        toy_client.get(f"/games/{game_id}/log"),
        toy_client.get(f"/games/{game_id}/events"),
    ):
        assert_problem(r, 404, "game-not-found")


def test_start_needs_the_host_token(toy_client):
    game_id, host = create(toy_client, players=2)
    _, seat_token = join(toy_client, game_id, "a")
    join(toy_client, game_id, "b")
    r = toy_client.post(f"/games/{game_id}/start")
    assert_problem(r, 401, "missing-token")
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(
        toy_client.post(f"/games/{game_id}/start", headers={"Authorization": "Basic eDp5"}),
        401,
        "missing-token",
    )
    r = toy_client.post(f"/games/{game_id}/start", headers=auth(seat_token))
    assert_problem(r, 403, "host-token-required")
    r = toy_client.post(f"/games/{game_id}/start", headers=auth("forged"))
    assert_problem(r, 403, "invalid-token")
    other, other_host = create(toy_client)
    r = toy_client.post(f"/games/{game_id}/start", headers=auth(other_host))
    assert_problem(r, 403, "invalid-token")
    assert view(toy_client, game_id)["status"] == "open"
    r = toy_client.post(f"/games/{game_id}/start", json={"now": True}, headers=auth(host))
    assert_problem(r, 422, "validation-error")
    r = toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    assert r.status_code == 200 and r.get_json()["status"] == "running"
    assert_problem(
        toy_client.post(f"/games/{game_id}/start", headers=auth(host)), 409, "game-not-open"
    )


def test_start_needs_enough_players_and_uses_those_who_joined(toy_client):
    game_id, host = create(toy_client, players=4)
    join(toy_client, game_id, "a")
    r = toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    assert_problem(r, 409, "not-enough-players")
    join(toy_client, game_id, "b")
    r = toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    assert r.status_code == 200
    game = r.get_json()
    assert game["state"]["scores"] == [0, 0]  # a 2-player game
    assert len(game["to_act"]) == 1


def test_view_etag_if_none_match_and_seat_views(toy_client):
    game_id, host, tokens = started_game(toy_client, 2, seed=11)
    r = toy_client.get(f"/games/{game_id}")
    version = r.get_json()["version"]
    assert r.headers["ETag"] == f'"{version}"'
    assert r.get_json()["you"] is None and r.get_json()["state"]["my_card"] is None
    r = toy_client.get(f"/games/{game_id}", headers={"If-None-Match": f'"{version}"'})
    assert r.status_code == 304 and r.get_data() == b""
    r = toy_client.get(f"/games/{game_id}", headers={"If-None-Match": f'"{version - 1}"'})
    assert r.status_code == 200
    mine = [view(toy_client, game_id, t)["state"]["my_card"] for t in tokens]
    assert all(isinstance(card, int) for card in mine)
    assert view(toy_client, game_id, tokens[1])["you"] == 1
    assert view(toy_client, game_id, host)["you"] is None  # the host token is no seat
    assert_problem(toy_client.get(f"/games/{game_id}", headers=auth("nope")), 403, "invalid-token")


def test_cancel(toy_client):
    game_id, host, tokens = started_game(toy_client, 2)
    assert_problem(toy_client.delete(f"/games/{game_id}"), 401, "missing-token")
    assert_problem(
        toy_client.delete(f"/games/{game_id}", headers=auth(tokens[0])), 403, "host-token-required"
    )
    r = toy_client.delete(f"/games/{game_id}", headers=auth(host))
    assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
    assert r.get_json()["to_act"] == []
    assert_problem(toy_client.delete(f"/games/{game_id}", headers=auth(host)), 409, "game-over")
    r = post_move(toy_client, game_id, tokens[0], {"type": "call", "value": 1})
    assert_problem(r, 409, "game-not-running")
    log = toy_client.get(f"/games/{game_id}/log").get_json()
    assert log["events"][-1]["type"] == "game_cancelled"
    assert isinstance(log["seed"], int) and log["moves"] == []


def test_list_filters_by_status_and_paginates(toy_client):
    open_ids = [create(toy_client)[0] for _ in range(5)]
    running_id, _, _ = started_game(toy_client, 2)
    r = toy_client.get("/games?status=running")
    assert [g["id"] for g in r.get_json()["games"]] == [running_id]
    seen = []
    cursor = None
    while True:
        url = "/games?status=open&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = toy_client.get(url).get_json()
        assert len(page["games"]) <= 2
        seen += [g["id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == open_ids[::-1]  # newest first, each once
    assert toy_client.get("/games?status=finished").get_json() == {
        "games": [],
        "next_cursor": None,
    }
    summary = toy_client.get("/games").get_json()["games"][0]
    assert "state" not in summary and "host" not in summary and "seed" not in summary


@pytest.mark.parametrize(
    "query", ["status=done", "limit=0", "limit=101", "limit=x", "cursor=%25%25", "page=2"]
)
def test_list_rejects_bad_queries(toy_client, query):
    assert_problem(toy_client.get(f"/games?{query}"), 422, "validation-error")


def test_list_drops_games_whose_document_expired(toy_client, redis_client):
    keep, _ = create(toy_client)
    gone, _ = create(toy_client)
    redis_client.delete(f"toy:{{{gone}}}:game")
    assert [g["id"] for g in toy_client.get("/games").get_json()["games"]] == [keep]
    assert redis_client.zrange("toy:games", 0, -1) == [keep]


def test_keys_share_the_hash_tag_and_expire(toy_app, toy_client, redis_client):
    game_id, host, tokens = started_game(toy_client, 2)
    keys = sorted(redis_client.keys(f"toy:{{{game_id}}}:*"))
    assert keys == sorted(f"toy:{{{game_id}}}:{k}" for k in ("game", "events", "tail"))
    idle = toy_app.config["GAME_TTL_IDLE"]
    for key in keys:
        assert idle - 5 < redis_client.ttl(key) <= idle
    toy_client.delete(f"/games/{game_id}", headers=auth(host))
    finished = toy_app.config["GAME_TTL_FINISHED"]
    assert finished < idle
    keys = sorted(redis_client.keys(f"toy:{{{game_id}}}:*"))  # the tail archived whole
    assert keys == sorted(f"toy:{{{game_id}}}:{k}" for k in ("game", "events", "hist"))
    grace = toy_app.config["HISTORY_ENDED_STREAM_SECONDS"]
    assert grace - 5 < redis_client.ttl(f"toy:{{{game_id}}}:events") <= grace
    keys.remove(f"toy:{{{game_id}}}:events")
    for key in keys:
        assert finished - 5 < redis_client.ttl(key) <= finished


def test_ttls_come_from_config(make_app, redis_client):
    client = make_app("toy", GAME_TTL_IDLE=1000, GAME_TTL_FINISHED=50, GAME_TTL_OPEN=500)
    client = client.test_client()
    open_id, _ = create(client)
    assert 490 < redis_client.ttl(f"toy:{{{open_id}}}:game") <= 500
    game_id, host, _ = started_game(client, 2)
    assert 990 < redis_client.ttl(f"toy:{{{game_id}}}:game") <= 1000
    client.delete(f"/games/{game_id}", headers=auth(host))
    assert 40 < redis_client.ttl(f"toy:{{{game_id}}}:events") <= 50


def test_options_the_engine_refuses_are_a_422_problem(redis_client, redis_url):
    """The engine has the last word on options; its refusal is bad input, not a conflict."""
    from shared.http.app import create_game_app
    from shared.http.schemas import Int, KitOptionsSchema
    from tests.kit import toy_engine
    from tests.kit.toy_schemas import ToyMoveSchema

    class LooseOptions(KitOptionsSchema):  # lets rounds=0 through to the engine
        PLAYERS = (2, 4)
        rounds = Int(load_default=3)

    app = create_game_app(
        toy_engine.ENGINE, LooseOptions, ToyMoveSchema, "loose", {"REDIS_URL": redis_url}
    )
    r = app.test_client().post("/games", json={"players": 2, "rounds": 0})
    assert r.status_code == 422
    assert r.mimetype == "application/problem+json"
    assert r.get_json()["code"] == "invalid-option"
    assert redis_client.keys("loose:*") == []

"""Quick match (``POST /matches``): equal options share the oldest open table, a full
table starts, a player asking twice keeps its seat, bots fill a table after
``bots_after`` (toy game, real Redis); and a crowd of 200 players against Manhattan under
real gunicorn fills exactly 50 tables."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest
import requests
from flask.testing import FlaskClient

from shared.games import Games, Outcome, seats
from shared.games.document import GameDoc
from shared.store import client_of
from shared.usecases import autoplay, matches
from tests.kit.helpers import assert_problem, auth
from tests.kit.test_players import new_player


def match(client: FlaskClient, key: str, **body: Any) -> dict[str, Any]:
    r = client.post("/matches", json=body, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    answer = dict(r.get_json())
    assert list(answer) == ["game_id", "seat", "token", "game"]
    assert r.headers["Location"] == f"/games/{answer['game_id']}"
    return answer


def test_equal_options_share_a_table_and_the_last_seat_starts_it(toy_client):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(3)]
    first = match(toy_client, keys[0], players=3, rounds=2)
    assert first["seat"] == 0 and first["token"] and first["game"]["status"] == "open"
    second = match(toy_client, keys[1], players=3, rounds=2)
    assert second["game_id"] == first["game_id"] and second["seat"] == 1
    third = match(toy_client, keys[2], players=3, rounds=2)
    assert third["game_id"] == first["game_id"] and third["seat"] == 2
    assert third["game"]["status"] == "running"
    game = toy_client.get(f"/games/{first['game_id']}").get_json()
    assert game["status"] == "running"
    assert [p["name"] for p in game["players"]] == ["P0", "P1", "P2"]
    assert game["seed_chosen"] is False  # a match's seed is the server's
    listed = [g["id"] for g in toy_client.get("/games").get_json()["games"]]
    assert listed == [first["game_id"]]  # public
    # the next player with the same options opens a new table
    _, late = new_player(toy_client, "Late")
    assert match(toy_client, late, players=3, rounds=2)["game_id"] != first["game_id"]


def test_defaults_count_as_asked_and_other_options_get_other_tables(toy_client):
    keys = [new_player(toy_client, f"P{n}")[1] for n in range(5)]
    a = match(toy_client, keys[0], players=4)
    assert match(toy_client, keys[1], rounds=3)["game_id"] == a["game_id"]  # the defaults
    b = match(toy_client, keys[2], players=4, rounds=5)
    c = match(toy_client, keys[3], players=4, clock={"turn_seconds": 60})
    d = match(toy_client, keys[4], players=4, bots_after=30)
    assert len({a["game_id"], b["game_id"], c["game_id"], d["game_id"]}) == 4
    assert c["game"]["options"]["clock"]["turn_seconds"] == 60


def test_a_player_asking_twice_keeps_its_seat(toy_client):
    _, ann = new_player(toy_client, "Ann")
    first = match(toy_client, ann, players=2)
    again = match(toy_client, ann, players=2)
    assert (again["game_id"], again["seat"], again["token"]) == (first["game_id"], 0, None)
    assert len(toy_client.get(f"/games/{first['game_id']}").get_json()["players"]) == 1


def test_clashing_names_get_a_number(toy_client):
    _, one = new_player(toy_client, "Ann")
    _, two = new_player(toy_client, "ann")
    match(toy_client, one, players=2)
    second = match(toy_client, two, players=2)
    assert [p["name"] for p in second["game"]["players"]] == ["Ann", "ann (2)"]


def rewrite(kit: Games, game_id: str, **fields: Any) -> None:
    """Change a game's document behind the routes' back (a write with no event)."""

    def decide(doc: GameDoc) -> Outcome:
        return Outcome(cast(GameDoc, {**doc, **fields}), [])

    kit.writes.mutate(game_id, decide)


def test_a_table_started_elsewhere_leaves_the_pool(toy_client, toy_app):
    _, ann = new_player(toy_client, "Ann")
    _, bob = new_player(toy_client, "Bob")
    first = match(toy_client, ann, players=3)
    # the pool still counts the table, but its game no longer takes players
    kit = toy_app.extensions["game_kit"].games
    doc = kit.writes.load(first["game_id"])
    rewrite(kit, first["game_id"], status="cancelled")
    other = match(toy_client, bob, players=3)
    assert other["game_id"] != first["game_id"] and other["seat"] == 0
    assert kit.store.pooled(matches.pool_of(doc)) == {other["game_id"]: 1}


def test_bots_fill_a_table_after_bots_after(toy_client, toy_app):
    _, ann = new_player(toy_client, "Ann")
    first = match(toy_client, ann, players=3, bots_after=5)
    kit = toy_app.extensions["game_kit"].games
    doc = kit.writes.load(first["game_id"])
    created = seats.parse_ms(doc["created_at"])
    assert seats.due_ms(doc, created) == created + 5000
    assert kit.store.due_score(doc["id"], client_of(doc)) == created + 5000  # scheduled
    with pytest.raises(autoplay.NothingDue):  # not yet
        autoplay.play_due(kit, doc["id"])
    earlier = seats.rfc3339(created - 6000)
    rewrite(kit, doc["id"], created_at=earlier)
    started, _ = autoplay.play_due(kit, doc["id"])
    assert started["status"] == "running"
    assert [p.get("bot") for p in started["players"]] == [None, "greedy", "greedy"]
    assert kit.store.pooled(matches.pool_of(doc)) == {}
    _, bob = new_player(toy_client, "Bob")
    assert match(toy_client, bob, players=3, bots_after=5)["game_id"] != doc["id"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"seed": 3}, "seed"),
        ({"visibility": "unlisted"}, "visibility"),
        ({"start": "host"}, "start"),
        ({"bots_after": 4}, "bots_after"),
        ({"bots_after": 3601}, "bots_after"),
        ({"players": 5}, "players"),
        ({"colour": "red"}, "colour"),
        ({"takeover": "expert"}, "takeover"),
    ],
)
def test_a_match_refuses_what_it_decides_itself_and_bad_values(toy_client, body, field):
    _, ann = new_player(toy_client, "Ann")
    r = toy_client.post("/matches", json=body, headers=auth(ann))
    problem = assert_problem(r, 422, "validation-error")
    assert field in str(problem), problem


def test_a_match_needs_a_player(toy_client):
    assert_problem(toy_client.post("/matches", json={}), 401, "player-key-required")
    game = toy_client.post("/games", json={"players": 2}).get_json()
    r = toy_client.post("/matches", json={}, headers=auth(game["host_token"]))
    assert_problem(r, 403, "player-key-required")


# -- the crowd, under real gunicorn -------------------------------------------------------


def test_a_crowd_of_200_fills_exactly_50_tables(live_manhattan):
    base = live_manhattan
    with requests.Session() as session:
        keys = []
        for n in range(200):
            r = session.post(f"{base}/players", json={"name": f"crowd {n}"}, timeout=10)
            assert r.status_code == 201, r.text
            keys.append((r.json()["id"], r.json()["key"]))
    options = {"players": 4, "promo_cards": True, "six_rounds": True}  # this test's own pool

    def ask(key: str) -> dict[str, Any]:
        r = requests.post(f"{base}/matches", json=options, headers=auth(key), timeout=30)
        assert r.status_code == 201, r.text
        return dict(r.json())

    with ThreadPoolExecutor(48) as pool:
        answers = list(pool.map(ask, [key for _, key in keys]))
    tables: dict[str, list[int]] = {}
    for answer in answers:
        tables.setdefault(answer["game_id"], []).append(answer["seat"])
    assert len(tables) == 50
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in tables.values())
    seen: list[str] = []
    for game_id in tables:
        game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
        assert game["status"] == "running" and len(game["players"]) == 4
        seen += [p["name"] for p in game["players"]]
    assert sorted(seen) == sorted(f"crowd {n}" for n in range(200))


def test_a_rematch_race_makes_one_game(live_manhattan):
    """Issue 30: racing rematch requests of both players, through real gunicorn (2
    workers), all get the one next game."""
    base = live_manhattan
    with requests.Session() as http:
        created = http.post(f"{base}/games", json={"players": 2, "seed": 11}, timeout=10).json()
        game_id, host = created["id"], created["host_token"]
        tokens = [
            http.post(f"{base}/games/{game_id}/players", json={"name": n}, timeout=10).json()[
                "token"
            ]
            for n in ("Ann", "Bob")
        ]
        http.post(f"{base}/games/{game_id}/start", headers=auth(host), timeout=10)
        while True:  # each move the first legal one, until the end
            view = http.get(f"{base}/games/{game_id}", timeout=10).json()
            if view["status"] != "running":
                break
            seat = view["to_act"][0]
            url = f"{base}/games/{game_id}?include=legal_moves"
            move = http.get(url, headers=auth(tokens[seat]), timeout=10).json()["legal_moves"][0]
            r = http.post(
                f"{base}/games/{game_id}/moves", json=move, headers=auth(tokens[seat]), timeout=10
            )
            assert r.status_code == 200, r.text

    def ask(n: int) -> tuple[int, str]:
        r = requests.post(
            f"{base}/games/{game_id}/rematch", headers=auth(tokens[n % 2]), timeout=30
        )
        assert r.status_code in (200, 201), r.text
        return r.status_code, r.json()["game_id"]

    with ThreadPoolExecutor(24) as pool:
        answers = list(pool.map(ask, range(48)))
    assert len({game for _, game in answers}) == 1
    assert [status for status, _ in answers].count(201) <= 1  # the one that made it (or none
    # seen: a loser's own game is deleted, and it answers with the winner's)
    (next_id,) = {game for _, game in answers}
    assert requests.get(f"{base}/games/{game_id}", timeout=10).json()["next_game"] == next_id
    listed = requests.get(f"{base}/games?limit=100", timeout=10).json()["games"]
    rematches = [g for g in listed if g["id"] != game_id and g["created_at"] > view["created_at"]]
    # the racers that lost deleted the games they made: only the rematch is listed
    assert [g["id"] for g in rematches if g["status"] == "open"] == [next_id]

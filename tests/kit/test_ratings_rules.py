"""What is rated and how it is shown (issue 39): no cancel of a running rated game, no
rating against a seat without a player, a JSON boolean `rated`, cursors that are
checked, and a rating that never moves against the result (toy game, real Redis)."""

from __future__ import annotations

import base64
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from shared.games import ratings
from tests.kit.helpers import assert_problem, auth, create, join
from tests.kit.test_ratings import player, rated_game
from tests.kit.test_rematch import play_to_end


def _seated(client: FlaskClient, game_id: str, key: str) -> str:
    r = client.post(f"/games/{game_id}/players", json={}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return str(r.get_json()["token"])


def test_a_running_rated_game_cannot_be_cancelled_by_its_playing_host(toy_client):
    pid, key = player(toy_client, "Ann")
    _, other = player(toy_client, "Bob")
    r = toy_client.post("/games", json={"players": 2, "rounds": 1, "seed": 4}, headers=auth(key))
    game_id = r.get_json()["id"]
    tokens = [_seated(toy_client, game_id, key), _seated(toy_client, game_id, other)]
    assert toy_client.post(f"/games/{game_id}/start", headers=auth(key)).status_code == 200
    assert_problem(
        toy_client.delete(f"/games/{game_id}", headers=auth(key)), 409, "rated-game-running"
    )
    host = r.get_json()["host_token"]
    assert_problem(
        toy_client.delete(f"/games/{game_id}", headers=auth(host)), 409, "rated-game-running"
    )
    assert toy_client.get(f"/games/{game_id}").get_json()["status"] == "running"
    # resigning is the way out, and it counts
    assert toy_client.post(f"/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    view = play_to_end(toy_client, game_id, ["", tokens[1]])
    mine = next(e for e in view["result"]["ratings"] if e["player"] == pid)
    assert mine["rank"] == 2 and mine["after"]["rating"] <= mine["before"]["rating"]


def test_open_and_unrated_games_can_still_be_cancelled(toy_client):
    _, key = player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    _seated(toy_client, game_id, key)
    assert toy_client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200
    game_id, host = create(toy_client, players=2, rounds=1, seed=4, rated=True)
    _seated(toy_client, game_id, key)
    join(toy_client, game_id, "Bob")  # a seat without a player: not rated
    assert toy_client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    assert toy_client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200


def test_a_seat_without_a_player_makes_the_game_unrated_even_when_asked(toy_client):
    pid, key = player(toy_client, "Ann")
    for seed in (4, 5):
        game_id, host = create(toy_client, players=2, rounds=1, seed=seed, rated=True)
        tokens = [_seated(toy_client, game_id, key), join(toy_client, game_id, "Sock")[1]]
        toy_client.post(f"/games/{game_id}/start", headers=auth(host))
        toy_client.post(f"/games/{game_id}/resign", headers=auth(tokens[1]))
        view = play_to_end(toy_client, game_id, [tokens[0], ""])
        assert view["status"] == "finished" and "ratings" not in view["result"]
    assert toy_client.get(f"/players/{pid}").get_json()["ratings"] == {}


@pytest.mark.parametrize("value", ["yes", 1, "on", "true", 0, None])
def test_rated_takes_a_json_boolean_only(toy_client, value):
    r = toy_client.post("/games", json={"players": 2, "rated": value})
    body = assert_problem(r, 422, "validation-error")
    assert "rated" in str(body)


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "text",
    ["{stamp}:99999999999999999999", "{stamp}:١٢", "١٢٣:0", "{stamp}:-1", "{stamp}: 1", ":0"],
)
def test_leaderboard_cursors_out_of_range_or_not_ascii_are_422(make_app, text):
    app = make_app("toy", LEADERBOARD_MIN_GAMES=1)
    client = app.test_client()
    rated_game(client, [player(client, n)[1] for n in ("Ann", "Bob")])
    stamp = app.extensions["game_kit"].games.ctx.ratings.refresh("")
    r = client.get(f"/leaderboards/toy?cursor={_cursor(text.format(stamp=stamp))}")
    body = assert_problem(r, 422, "validation-error")
    assert "cursor" in str(body)


@pytest.mark.parametrize(
    "text", ["99999999999999999999999:abc", "١٢٣:abc", "-5:abc", "12:", "12:a b", "1e3:abc"]
)
def test_listing_and_my_games_cursors_are_checked(toy_client, text):
    _, key = player(toy_client, "Ann")
    for path, headers in (("/games", {}), ("/players/me/games", auth(key))):
        r = toy_client.get(f"{path}?cursor={_cursor(text)}", headers=headers)
        body = assert_problem(r, 422, "validation-error")
        assert "cursor" in str(body)


def test_the_rating_shown_starts_at_1000_and_the_board_says_what_it_needs(make_app):
    app = make_app("toy", LEADERBOARD_MIN_GAMES=3)
    client = app.test_client()
    people = [player(client, n) for n in ("Ann", "Bob")]
    view = rated_game(client, [k for _, k in people])
    for entry in view["result"]["ratings"]:
        assert entry["before"]["rating"] == ratings.RATING_BASE
        want = ratings.rating(entry["after"]["mu"] - 3 * entry["after"]["sigma"])
        assert entry["after"]["rating"] == want
    profile = client.get(f"/players/{people[0][0]}").get_json()["ratings"]["toy"]
    assert profile["games"] == 1 and profile["games_to_rank"] == 2
    assert isinstance(profile["rating"], int)
    board = client.get("/leaderboards/toy").get_json()
    assert board["min_games"] == 3 and board["entries"] == []


def _ordinal(rating: Any) -> float:
    return float(rating.mu - 3 * rating.sigma)


def test_a_last_place_never_raises_the_ordinal_nor_a_first_lowers_it():
    # tied last with a weaker player: openskill alone raises this player's ordinal (its
    # sigma shrinks more than its mu falls)
    befores = [(9.113, 8.138), (34.788, 0.962), (3.128, 0.608)]
    model = ratings.MODEL
    raw = model.rate([[model.rating(mu=m, sigma=s)] for m, s in befores], ranks=[2.0, 2.0, 1.0])
    assert _ordinal(raw[0][0]) > ratings.ordinal(*befores[0]) + 1  # (the case the rule is for)
    doc: Any = {
        "players": [{"seat": s, "player": f"p{s}"} for s in range(3)],
        "result": {"standings": [{"seat": s, "rank": r} for s, r in ((2, 1), (0, 2), (1, 2))]},
    }
    current: dict[str, Any] = {f"p{s}": (*befores[s], 9) for s in range(3)}
    entries = ratings.compute(doc, current)
    assert entries is not None
    assert [e["rank"] for e in entries] == [2, 2, 1]
    assert entries[0]["after"]["ordinal"] == pytest.approx(ratings.ordinal(*befores[0]))
    assert entries[0]["after"]["sigma"] == pytest.approx(raw[0][0].sigma)


def test_over_many_games_results_move_ordinals_their_way():
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(2, 4)
        doc: Any = {
            "players": [{"seat": s, "player": f"p{s}"} for s in range(n)],
            "result": {"standings": [{"seat": s, "rank": rng.randint(1, n)} for s in range(n)]},
        }
        current: dict[str, Any] = {
            f"p{s}": (rng.uniform(0, 45), rng.uniform(0.5, 8.3), 3) for s in range(n)
        }
        entries = ratings.compute(doc, current)
        assert entries is not None
        last = max(e["rank"] for e in entries)
        for entry in entries:
            before, after = entry["before"], entry["after"]
            assert after["sigma"] <= before["sigma"] + 1e-9
            if last > 1 and entry["rank"] == 1:
                assert after["ordinal"] >= before["ordinal"] - 1e-9
            if last > 1 and entry["rank"] == last:
                assert after["ordinal"] <= before["ordinal"] + 1e-9

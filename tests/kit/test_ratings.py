"""Ratings (issue 31): openskill Plackett-Luce from the final ranking, counted exactly
once per game and player, bots fixed, leaderboards (toy game, real Redis)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from shared.games import ratings
from shared.usecases import autoplay
from tests.kit.helpers import assert_problem, auth, create, join
from tests.kit.test_rematch import play_to_end

MODEL = PlackettLuce()


def player(client: FlaskClient, name: str) -> tuple[str, str]:
    body = client.post("/players", json={"name": name}).get_json()
    return body["id"], body["key"]


def rated_game(
    client: FlaskClient, keys: list[str], seed: int = 4, **options: Any
) -> dict[str, Any]:
    """A toy game of these players, played to its end; its last view."""
    game_id, host = create(client, players=len(keys), rounds=1, seed=seed, **options)
    tokens = [
        client.post(f"/games/{game_id}/players", json={}, headers=auth(key)).get_json()["token"]
        for key in keys
    ]
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    return play_to_end(client, game_id, tokens)


def expected(befores: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in befores]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=[float(r) for r in ranks])]


def test_a_rated_game_updates_each_player_as_openskill_does(toy_client):
    ids_keys = [player(toy_client, n) for n in ("Ann", "Bob", "Cid")]
    view = rated_game(toy_client, [k for _, k in ids_keys], seed=5)
    result = view["result"]
    ranks = {row["seat"]: row["rank"] for row in result["standings"]}
    want = expected([ratings.DEFAULT] * 3, [ranks[s] for s in range(3)])
    for entry, (mu, sigma) in zip(result["ratings"], want, strict=True):
        assert entry["before"]["mu"] == pytest.approx(25.0)
        assert (entry["after"]["mu"], entry["after"]["sigma"]) == pytest.approx(
            (mu, sigma), abs=1e-6
        )
    # the stored ratings are the result's, and the second game starts from them
    for (pid, _), entry in zip(ids_keys, result["ratings"], strict=True):
        profile = toy_client.get(f"/players/{pid}").get_json()
        assert profile["ratings"]["toy"]["mu"] == pytest.approx(entry["after"]["mu"], abs=1e-6)
        assert profile["ratings"]["toy"]["games"] == 1
    second = rated_game(toy_client, [k for _, k in ids_keys], seed=6)["result"]["ratings"]
    assert [e["before"] for e in second] == [e["after"] for e in result["ratings"]]
    events = toy_client.get(f"/games/{view['id']}/events").get_json()["events"]
    finished = next(e for e in events if e["type"] == "game_finished")
    assert finished["result"]["ratings"] == result["ratings"]


def test_ties_share_a_rank_and_the_resigned_rank_last(toy_client):
    doc: Any = {
        "players": [
            {"seat": 0, "player": "a"},
            {"seat": 1, "player": "b"},
            {"seat": 2, "player": "c", "status": "resigned"},
            {"seat": 3, "player": "d", "status": "abandoned"},
        ],
        "result": {
            "standings": [{"seat": s, "rank": r} for s, r in ((2, 1), (0, 2), (1, 2), (3, 4))]
        },
    }
    assert ratings.ranks(doc) == {0: 1, 1: 1, 2: 3, 3: 3}
    entries = ratings.compute(doc, {})
    assert entries is not None
    want = expected([ratings.DEFAULT] * 4, [1, 1, 3, 3])
    assert [e["after"]["mu"] for e in entries] == pytest.approx([mu for mu, _ in want])
    assert [e["after"]["sigma"] for e in entries] == pytest.approx([sg for _, sg in want])
    assert [e["won"] for e in entries] == [0.5, 0.5, 0.0, 0.0]


def test_bots_take_part_with_fixed_ratings(toy_client):
    pid, key = player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    token = toy_client.post(f"/games/{game_id}/players", json={}, headers=auth(key)).get_json()[
        "token"
    ]
    toy_client.post(f"/games/{game_id}/players", json={"bot": "greedy"}, headers=auth(host))
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    view = play_to_end(toy_client, game_id, [token, ""])
    human, bot = view["result"]["ratings"]
    assert bot["bot"] == "greedy" and bot["before"] == bot["after"]
    assert bot["before"]["mu"] == ratings.BOTS["greedy"][0]
    ranks = {r["seat"]: r["rank"] for r in view["result"]["standings"]}
    want = expected([ratings.DEFAULT, ratings.BOTS["greedy"]], [ranks[0], ranks[1]])
    assert human["after"]["mu"] == pytest.approx(want[0][0], abs=1e-6)


def test_unrated_unless_every_human_is_a_player_or_asked(toy_client):
    _, key = player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    tokens = [
        toy_client.post(f"/games/{game_id}/players", json={}, headers=auth(key)).get_json()[
            "token"
        ],
        join(toy_client, game_id, "Bob")[1],
    ]
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    assert "ratings" not in play_to_end(toy_client, game_id, tokens)["result"]
    keys = [player(toy_client, n)[1] for n in ("Cid", "Dan")]
    assert "ratings" not in rated_game(toy_client, keys, rated=False)["result"]


def test_a_retried_last_move_counts_once(toy_client, redis_client):
    ids_keys = [player(toy_client, n) for n in ("Ann", "Bob")]
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    tokens = [
        toy_client.post(f"/games/{game_id}/players", json={}, headers=auth(k)).get_json()["token"]
        for _, k in ids_keys
    ]
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    while True:
        view = toy_client.get(f"/games/{game_id}").get_json()
        seat = view["to_act"][0]
        moves = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        move = moves.get_json()["moves"][0]
        headers = {**auth(tokens[seat]), "Idempotency-Key": f"k{view['version']}"}
        first = toy_client.post(f"/games/{game_id}/moves", json=move, headers=headers)
        if first.get_json()["game"]["status"] == "finished":
            again = toy_client.post(f"/games/{game_id}/moves", json=move, headers=headers)
            assert again.get_json() == first.get_json()
            break
    for pid, _ in ids_keys:
        assert redis_client.hget(f"players:{{{pid}}}", "toy:n") == "1"


def test_workers_racing_to_end_a_bots_game_count_it_once(make_app, redis_client):
    app = make_app("toy")
    client = app.test_client()
    pid, key = player(client, "Ann")
    game_id, host = create(client, players=2, rounds=1, seed=4)
    token = client.post(f"/games/{game_id}/players", json={}, headers=auth(key)).get_json()["token"]
    client.post(f"/games/{game_id}/players", json={"bot": "random"}, headers=auth(host))
    client.post(f"/games/{game_id}/start", headers=auth(host))
    kit = app.extensions["game_kit"].games
    while client.get(f"/games/{game_id}").get_json()["status"] == "running":
        view = client.get(f"/games/{game_id}").get_json()
        if 0 in view["to_act"]:
            move = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).get_json()[
                "moves"
            ][0]
            client.post(f"/games/{game_id}/moves", json=move, headers=auth(token))
            continue
        barrier = threading.Barrier(4)

        def race(barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            with contextlib.suppress(autoplay.NothingDue):
                autoplay.play_due(kit, game_id)

        threads = [threading.Thread(target=race) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert redis_client.hget(f"players:{{{pid}}}", "toy:n") == "1"


def test_the_worker_settles_ratings_a_dead_process_left(make_app, redis_client, monkeypatch):
    from shared.worker.loop import Worker

    app = make_app("toy", RATINGS_GRACE_SECONDS=0)
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    ids_keys = [player(client, n) for n in ("Ann", "Bob")]
    real = kit.ctx.ratings.apply

    def dies(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the process died here")

    monkeypatch.setattr(type(kit.ctx.ratings), "apply", dies)
    view = rated_game(client, [k for _, k in ids_keys])
    monkeypatch.setattr(type(kit.ctx.ratings), "apply", real.__func__)
    assert redis_client.hget(f"players:{{{ids_keys[0][0]}}}", "toy:n") is None
    settings = dict(app.config)
    worker = Worker([kit], settings)
    worker.tick()
    for pid, _ in ids_keys:
        assert redis_client.hget(f"players:{{{pid}}}", "toy:n") == "1"
    assert client.get(f"/games/{view['id']}").get_json()["status"] == "finished"
    worker.tick()  # nothing left: counted once
    assert redis_client.hget(f"players:{{{ids_keys[0][0]}}}", "toy:n") == "1"


def test_leaderboard_pages_are_stable_and_need_enough_games(make_app):
    app = make_app("toy", LEADERBOARD_MIN_GAMES=2)
    client = app.test_client()
    board = app.extensions["game_kit"].games.ctx.ratings
    people = [player(client, f"P{n}") for n in range(4)]
    rated_game(client, [people[0][1], people[1][1]], seed=4)
    assert client.get("/leaderboards/toy").get_json()["entries"] == []
    for seed in (5, 6):
        rated_game(client, [people[0][1], people[1][1]], seed=seed)
        rated_game(client, [people[2][1], people[3][1]], seed=seed)
    assert client.get("/leaderboards/toy").get_json()["entries"] == []  # the old snapshot
    board.refresh("")  # the worker's, every LEADERBOARD_SNAPSHOT_SECONDS
    first = client.get("/leaderboards/toy?limit=2").get_json()
    assert [e["rank"] for e in first["entries"]] == [1, 2] and first["next_cursor"]
    ordinals = [e["ordinal"] for e in first["entries"]]
    assert ordinals == sorted(ordinals, reverse=True)
    # ratings change and a new snapshot is taken between the pages: the reader's pages
    # still come from its own snapshot
    rated_game(client, [people[0][1], people[2][1]], seed=7)
    board.refresh("")
    rest = client.get(f"/leaderboards/toy?limit=2&cursor={first['next_cursor']}").get_json()
    seen = [e["player"]["id"] for e in first["entries"] + rest["entries"]]
    assert sorted(seen) == sorted(pid for pid, _ in people) and rest["next_cursor"] is None
    assert_problem(client.get("/leaderboards/manhattan"), 404, "game-not-found")
    assert_problem(client.get("/leaderboards/toy?cursor=xyz"), 422, "validation-error")


def test_the_worker_takes_snapshots_and_keeps_only_the_newest(make_app, redis_client):
    from shared.worker.loop import Worker

    app = make_app("toy", LEADERBOARD_MIN_GAMES=1, LEADERBOARD_SNAPSHOT_SECONDS=0)
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    keys = [player(client, n)[1] for n in ("Ann", "Bob")]
    rated_game(client, keys)
    worker = Worker([kit], dict(app.config))
    stamps = []
    for _ in range(5):
        worker.refresh_boards()  # (its leaderboards thread's step)
        stamps.append(redis_client.get("toy:lb:{t:}:snap"))
    kept = redis_client.lrange("toy:lb:{t:}:snaps", 0, -1)
    assert len(set(stamps)) == 5 and kept == stamps[-3:]
    snapshots = sorted(redis_client.scan_iter(match="toy:lb:{t:}:snap:*"))
    assert snapshots == sorted(f"toy:lb:{{t:}}:snap:{s}" for s in kept)
    entries = client.get("/leaderboards/toy").get_json()["entries"]
    assert sorted(e["player"]["name"] for e in entries) == ["Ann", "Bob"]

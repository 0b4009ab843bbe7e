"""What erasure and the export do with a player's ratings and webhooks (issue 39): a
deleted player leaves the leaderboards and their snapshots, its id leaves every rated
result, and the export holds its stored rating and webhook registrations (toy game,
real Redis; on Redis Cluster too with ``TEST_REDIS_CLUSTER=1``)."""

from __future__ import annotations

from tests.kit.helpers import auth, create
from tests.kit.test_ratings import player, rated_game

HOOK = "http://127.0.0.1:9999/hook"


def test_a_deleted_player_leaves_the_boards_and_the_rated_results(make_app, redis_client):
    app = make_app("toy", LEADERBOARD_MIN_GAMES=1)
    client = app.test_client()
    board = app.extensions["game_kit"].games.ctx.ratings
    (ann_id, ann), (bob_id, bob) = player(client, "Ann"), player(client, "Bob")
    game_id = rated_game(client, [ann, bob])["id"]
    rated_game(client, [ann, bob], seed=5)
    board.refresh("")
    entries = client.get("/leaderboards/toy").get_json()["entries"]
    assert sorted(e["player"]["id"] for e in entries) == sorted([ann_id, bob_id])
    assert client.delete("/players/me", headers=auth(ann)).status_code == 204
    # the snapshot being read no longer has it, nor does the next one
    for _ in range(2):
        entries = client.get("/leaderboards/toy").get_json()["entries"]
        assert [(e["rank"], e["player"]["id"]) for e in entries] == [(1, bob_id)]
        board.refresh("")
    for key in redis_client.scan_iter(match="toy:lb:*"):
        if redis_client.type(key) == "zset":
            assert redis_client.zscore(key, ann_id) is None, key
    assert redis_client.exists(f"players:{{{ann_id}}}:rated") == 0
    # no rated result links its games: the id is gone from the result, the log and events
    ratings = client.get(f"/games/{game_id}").get_json()["result"]["ratings"]
    assert sorted(r["player"] or "" for r in ratings) == ["", bob_id]
    for path in ("", "/log", "/events", "/score"):
        text = client.get(f"/games/{game_id}{path}").get_data(as_text=True)
        assert ann_id not in text and bob_id in text, path


def test_the_export_holds_the_stored_rating_and_the_webhooks(make_app):
    config = {"WEBHOOK_SIGNING_KEY": "k", "WEBHOOK_ALLOW_PRIVATE": True}
    client = make_app("toy", **config).test_client()
    (_, ann), (_, bob) = player(client, "Ann"), player(client, "Bob")
    body = client.get("/players/me/export", headers=auth(ann)).get_json()
    assert body["rating"] is None and body["webhook"] is None
    rated_game(client, [ann, bob])
    r = client.put("/players/me/webhook", json={"url": HOOK}, headers=auth(ann))
    assert r.status_code in (200, 201), r.get_json()
    reg = r.get_json()
    game_id, _ = create(client, players=2)
    seat_hook = {"url": f"{HOOK}/seat"}
    r = client.post(f"/games/{game_id}/players", json={"webhook": seat_hook}, headers=auth(ann))
    assert r.status_code == 201, r.get_json()
    body = client.get("/players/me/export", headers=auth(ann)).get_json()
    profile = client.get(f"/players/{body['player']['id']}").get_json()
    shown = profile["ratings"]["toy"]
    rating = body["rating"]
    assert (rating["mu"], rating["sigma"], rating["games"]) == (shown["mu"], shown["sigma"], 1)
    assert rating["wins"] == shown["win_share"]
    assert body["webhook"]["id"] == reg["id"] and body["webhook"]["url"] == HOOK
    assert body["webhook"]["events"] == reg["events"] and body["webhook"]["since"] > 0
    open_game = next(g for g in body["games"] if g["id"] == game_id)
    assert [w["url"] for w in open_game["webhooks"]] == [seat_hook["url"]]
    assert all(g["webhooks"] == [] for g in body["games"] if g["id"] != game_id)

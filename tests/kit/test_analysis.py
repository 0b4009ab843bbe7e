"""Analysis after the game (issue 42), in process on the test session's Redis: queued
when a game finishes, ``GET /games/{id}/analysis`` (202 while pending, 409 before the
end, its shape when ready), made once by racing analysts, one ``analysis_ready`` event
and one webhook notification (Manhattan)."""

from __future__ import annotations

import json
import threading

from shared.worker.analysing import Analyst
from tests.kit.helpers import assert_problem, auth, started_game
from tests.kit.test_rematch import play_to_end

SETTINGS = {
    "ANALYSIS_LEASE_SECONDS": 30.0,
    "WORKER_ANALYSIS_PROCESSES": 0,
}


def finished(client, **options):
    game_id, _, tokens = started_game(client, 2, seed=9, **options)
    assert play_to_end(client, game_id, tokens)["status"] == "finished"
    return game_id, tokens


def kit_of(client):
    return client.application.extensions["game_kit"].games


def test_pending_then_ready_with_its_shape(manhattan_client):
    c = manhattan_client
    game_id, _, tokens = started_game(c, 2, seed=9)
    assert_problem(c.get(f"/games/{game_id}/analysis"), 409, "game-not-finished")
    play_to_end(c, game_id, tokens)
    kit = kit_of(c)
    assert kit.ctx.store.analyses.queued(game_id)  # the finishing write queued it
    pending = c.get(f"/games/{game_id}/analysis")
    assert_problem(pending, 202, "analysis-pending")
    assert int(pending.headers["Retry-After"]) > 0
    assert Analyst([kit], SETTINGS, threading.Event()).tick() == 1
    r = c.get(f"/games/{game_id}/analysis")
    assert r.status_code == 200
    body = r.get_json()
    assert body["game_id"] == game_id and body["seats"] == 2
    assert len(body["chances"]) == body["moves"] + 1
    last = body["chances"][-1]["chances"]
    winners = c.get(f"/games/{game_id}").get_json()["result"]["winners"]
    assert [s for s in range(2) if last[s] > 0] == sorted(winners)
    for entry in body["chances"]:
        assert abs(sum(entry["chances"]) - 1) < 1e-3
    assert [d["seat"] for d in body["drops"]] == [0, 1]
    for seat in body["drops"]:
        assert len(seat["drops"]) <= 3
        for drop in seat["drops"]:
            assert drop["drop"] > 0 and drop["before"] - drop["after"] == drop["drop"]
            assert drop["drop"] == max(drop["drop"], 0)
            assert set(drop) >= {"move", "preferred", "by", "index", "version"}
    assert not kit.ctx.store.analyses.queued(game_id)
    assert c.get(f"/games/{game_id}").get_json()["status"] == "finished"
    assert_problem(c.get("/games/0123456789abcdef/analysis"), 404, "game-not-found")


def test_racing_analysts_publish_once_and_notify_once(make_app, redis_client):
    app = make_app("manhattan", WEBHOOK_ALLOW_PRIVATE=True, WEBHOOK_SIGNING_KEY="k")
    c = app.test_client()
    hook = {"url": "http://127.0.0.1:8080/hook", "events": ["analysis.ready", "game.over"]}
    game_id, _ = finished(c, webhook=hook)
    kit = kit_of(c)
    stop = threading.Event()
    analysts = [Analyst([kit], SETTINGS, stop) for _ in range(2)]
    threads = [threading.Thread(target=a.tick) for a in analysts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sum(a.analysed for a in analysts) == 1  # the claim let one of them do it
    # a second analyst racing after a lost claim publishes nothing new
    kit.ctx.store.analyses.enqueue(game_id)
    assert Analyst([kit], SETTINGS, stop).tick() == 0
    log = c.get(f"/games/{game_id}/log").get_json()
    assert [e["type"] for e in log["events"]].count("analysis_ready") == 1
    notes = [json.loads(f["n"]) for _, f in redis_client.xrange(f"mh:{{{game_id}}}:outbox")]
    assert [n["type"] for n in notes].count("analysis.ready") == 1


def test_reading_a_lost_queue_entry_queues_it_again(manhattan_client):
    c = manhattan_client
    game_id, tokens = finished(c)
    kit = kit_of(c)
    kit.ctx.store.analyses.done(game_id)
    assert_problem(
        c.get(f"/games/{game_id}/analysis", headers=auth(tokens[0])), 202, "analysis-pending"
    )
    assert kit.ctx.store.analyses.queued(game_id)

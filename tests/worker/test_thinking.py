"""Search bots think in the worker's pool of processes (shared/worker/thinking.py), so a
decision never runs on the worker's own thread."""

from __future__ import annotations

import os
import time

from shared.worker.loop import Worker
from tests.kit.helpers import auth, create


def test_a_search_bot_moves_from_the_pool_and_the_loop_goes_on(make_app, monkeypatch):
    app = make_app("manhattan")
    client = app.test_client()
    kit = app.extensions["game_kit"].games
    game_id, host = create(client, players=2, seed=5)
    client.post(f"/games/{game_id}/players", json={"bot": "medium"}, headers=auth(host))
    client.post(f"/games/{game_id}/players", json={"bot": "greedy"}, headers=auth(host))
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    here = os.getpid()
    worker = Worker([kit], {**app.config, "WORKER_BOT_PROCESSES": 1})
    try:
        version = client.get(f"/games/{game_id}").get_json()["version"]
        deadline = time.monotonic() + 60
        while client.get(f"/games/{game_id}").get_json()["version"] < version + 6:
            assert time.monotonic() < deadline, "the bots did not move"
            worker.tick()
        assert worker.moves >= 6
        # the pool's processes start with its first decision: the medium bot's
        assert worker.thinker.pool is not None
        pids = {p.pid for p in worker.thinker.pool._processes.values()}  # noqa: SLF001
        assert pids and here not in pids
    finally:
        worker.thinker.close()

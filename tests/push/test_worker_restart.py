"""Real gunicorn, real worker processes: a push the worker could not send (the push
service was down) survives the worker's death (SIGKILL) and is sent by the next one."""

from __future__ import annotations

import requests

from bench.pushservice import PushService
from services.manhattan.game import GAME
from tests.push.conftest import PUBLIC, WORKER_ENV, auth
from tests.worker.helpers import wait_for


def test_a_restart_of_the_worker_loses_nothing(pushed_manhattan: str, workers, redis_client):
    base = pushed_manhattan
    service = PushService(PUBLIC)  # not started yet: its port refuses connections
    keys = []
    for n, name in enumerate(("Ann", "Bob")):
        r = requests.post(f"{base}/players", json={"name": name}, timeout=10)
        assert r.status_code == 201, r.text
        keys.append(r.json()["key"])
        r = requests.post(
            f"{base}/players/me/push/subscriptions",
            json=service.subscribe(f"p{n}"),
            headers=auth(keys[-1]),
            timeout=10,
        )
        assert r.status_code == 201, r.text
    r = requests.post(f"{base}/games", json={"players": 2}, timeout=10)
    game_id, host = r.json()["id"], r.json()["host_token"]
    for key in keys:
        r = requests.post(f"{base}/games/{game_id}/players", json={}, headers=auth(key), timeout=10)
        assert r.status_code == 201, r.text
    r = requests.post(f"{base}/games/{game_id}/start", headers=auth(host), timeout=10)
    (seat,) = r.json()["to_act"]
    first = workers.start(**WORKER_ENV)
    state = f"{GAME.key_prefix}:{{{game_id}}}:whstate"

    def tried() -> bool:
        found = redis_client.hgetall(state)
        return any('"pending"' in v for k, v in found.items() if k.startswith("d:"))

    wait_for(tried, 30, "a failed attempt recorded")
    first.kill()
    assert not service.received
    service.start()
    try:
        workers.start(**WORKER_ENV)
        wait_for(lambda: bool(service.shown(f"p{seat}")), 30, "the push after the restart")
        shown = service.shown(f"p{seat}")
        assert shown[0]["type"] == "your_turn" and shown[0]["game_id"] == game_id
        assert shown[0]["game"] == "manhattan" and not service.refused
        assert not service.shown(f"p{1 - seat}")
    finally:
        service.stop()

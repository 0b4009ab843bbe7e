"""A suspended player's seats (issue 41), end to end: Manhattan under gunicorn, a real
``python -m shared.worker`` and the session's Redis. The seat to act is played by the
takeover bot within one worker tick of the suspension; the player's key is refused
meanwhile, and the game plays on to its end."""

from __future__ import annotations

import time

import requests

from shared.games.seats import now_ms
from shared.store.moderation import Moderation
from tests.worker.helpers import assert_replays


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_suspended_players_seat_is_bot_played_within_one_tick(
    clock_manhattan, workers, redis_client
):
    base = clock_manhattan
    made = [
        requests.post(f"{base}/players", json={"name": n}, timeout=10).json()
        for n in ("Ann", "Bob")
    ]
    ann, bob = made
    game = requests.post(
        f"{base}/games", json={"players": 2, "takeover": "greedy", "seed": 3}, timeout=10
    ).json()
    gid = game["id"]
    for player in made:
        r = requests.post(
            f"{base}/games/{gid}/players", json={}, headers=auth(player["key"]), timeout=10
        )
        assert r.status_code == 201, r.text
    r = requests.post(f"{base}/games/{gid}/start", headers=auth(game["host_token"]), timeout=10)
    assert r.status_code == 200, r.text
    view = r.json()
    suspended, other = (ann, bob) if 0 in view["to_act"] else (bob, ann)
    seat = 0 if suspended is ann else 1
    assert view["to_act"] == [seat]
    poll = 0.05
    workers.start(WORKER_POLL_SECONDS=str(poll))
    time.sleep(0.3)  # the worker is ticking: nothing is due (no clock, no bot)
    version = requests.get(f"{base}/games/{gid}", timeout=10).json()["version"]
    began = time.monotonic()
    Moderation(redis_client).suspend(suspended["id"], now_ms() + 600_000)
    taken = None
    while time.monotonic() - began < 10:
        now = requests.get(f"{base}/games/{gid}", timeout=10).json()
        if now["players"][seat]["status"] == "abandoned" and now["version"] >= version + 2:
            taken = time.monotonic() - began
            break
        time.sleep(0.01)
    assert taken is not None, now
    assert taken < 4 * poll + 0.5, taken  # one tick (the poll), and the request's own time
    assert now["players"][seat]["bot"] == "greedy"
    refused = requests.get(f"{base}/players/me", headers=auth(suspended["key"]), timeout=10)
    assert refused.status_code == 403 and refused.json()["code"] == "player-suspended"
    # the game goes on: the other player plays, the bot answers, to the end
    began = time.monotonic()
    while time.monotonic() - began < 60:
        now = requests.get(f"{base}/games/{gid}", timeout=10).json()
        if now["status"] == "finished":
            break
        if now["to_act"] == [1 - seat]:
            moves = requests.get(
                f"{base}/games/{gid}/legal-moves", headers=auth(other["key"]), timeout=10
            ).json()["moves"]
            requests.post(
                f"{base}/games/{gid}/moves", json=moves[0], headers=auth(other["key"]), timeout=10
            )
        else:
            time.sleep(0.02)
    assert now["status"] == "finished"
    doc, moves = assert_replays(redis_client, "manhattan", gid)
    assert {m["seat"] for m in moves} == {0, 1}
    assert not redis_client.sismember("players:suspending", suspended["id"])

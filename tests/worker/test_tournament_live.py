"""(issue 43) A Swiss tournament under real gunicorn and two worker copies: 8 bots, two
scripted humans playing over HTTP and two registered players who never show up (the
takeover bot plays them), three rounds of 4-player Manhattan tables on 1 s clocks. One
worker is killed (SIGKILL) mid-round: the other carries on, every round is paired once,
every game is counted once and the standings are exactly the games' places."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import requests

from shared.tournaments.points import award, points_for_size
from tests.worker.helpers import stored


def new_player(base: str, name: str) -> tuple[str, dict[str, str]]:
    r = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"], {"Authorization": f"Bearer {r.json()['key']}"}


def scripted(base: str, headers: dict[str, str], stop: threading.Event, seed: int) -> None:
    """A human who plays a random legal move in each game where it is to act."""
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            page = requests.get(
                f"{base}/players/me/games", params={"turn": "mine"}, headers=headers, timeout=5
            ).json()
            for item in page.get("items", []):
                gid = item["id"]
                legal = requests.get(f"{base}/games/{gid}/legal-moves", headers=headers, timeout=5)
                moves = legal.json().get("moves") or []
                if moves:
                    requests.post(
                        f"{base}/games/{gid}/moves",
                        json=rng.choice(moves),
                        headers=headers,
                        timeout=5,
                    )
        except (requests.RequestException, ValueError):
            pass
        stop.wait(0.02)


def tournament(base: str, tid: str) -> dict[str, Any]:
    return requests.get(f"{base}/tournaments/{tid}", timeout=10).json()


def wait_for(check: Any, seconds: float, what: str) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_swiss_tournament_survives_a_killed_worker(clock_manhattan, workers, redis_client):
    base = clock_manhattan
    _, host = new_player(base, "Host")
    spec = {
        "name": "Live",
        "rounds": 3,
        "table_size": 4,
        "clock": {"turn_seconds": 1, "max_timeouts": 1},
        "bots": ["random"] * 8,
    }
    r = requests.post(f"{base}/tournaments", json=spec, headers=host, timeout=10)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    humans = [new_player(base, name) for name in ("Ann", "Bob", "Cid", "Dee")]
    for _, headers in humans:
        r = requests.post(f"{base}/tournaments/{tid}/players", headers=headers, timeout=10)
        assert r.status_code == 200, r.text
    absent = {humans[2][0], humans[3][0]}
    stop = threading.Event()
    threads = [
        threading.Thread(target=scripted, args=(base, h, stop, n), daemon=True)
        for n, (_, h) in enumerate(humans[:2])
    ]
    for t in threads:
        t.start()
    first = workers.start(CLOCK_MIN_TURN_SECONDS="1")
    workers.start(CLOCK_MIN_TURN_SECONDS="1")
    try:
        assert requests.post(f"{base}/tournaments/{tid}/start", headers=host, timeout=10).ok
        wait_for(
            lambda: (
                tournament(base, tid)["history"]
                and tournament(base, tid)["history"][0]["state"] == "playing"
            ),
            20,
            "round 1 seated",
        )
        time.sleep(1.0)
        first.kill()  # mid-round
        doc = wait_for(
            lambda: (d := tournament(base, tid))["status"] == "finished" and d, 90, "the end"
        )
    finally:
        stop.set()
    assert doc["round"] == 3 and [r["round"] for r in doc["history"]] == [1, 2, 3]
    games_seen: list[str] = []
    points = {pid: 0 for pid in doc["entries"]}
    for rnd in doc["history"]:
        active = [p for t in rnd["tables"] for p in t["players"]] + rnd["byes"]
        assert len(active) == len(set(active)), "nobody twice in a round"
        for table in rnd["tables"]:
            game, _ = stored(redis_client, "manhattan", table["game"])
            assert game["status"] == "finished"
            seated = sorted(p.get("player") for p in game["players"])
            assert seated == sorted(table["players"]), "the table's players, each once"
            by_seat = {p["seat"]: p.get("player") for p in game["players"]}
            rows = game["result"]["standings"]
            got = award([row["rank"] for row in rows], points_for_size(len(rows)))
            for row, pts in zip(rows, got, strict=True):
                points[by_seat[row["seat"]]] += pts
            games_seen.append(table["game"])
        for p in rnd["byes"]:
            points[p] += doc["bye_points"]
    assert len(games_seen) == len(set(games_seen)), "every game in one round only"
    assert points == {pid: e["points"] for pid, e in doc["entries"].items()}, "counted once"
    for pid in absent:  # never played: missed games, then withdrawn
        assert doc["entries"][pid]["missed"] >= 1
    standings = requests.get(f"{base}/tournaments/{tid}/standings?limit=100", timeout=10).json()
    assert [row["player"] for row in standings["items"]][:1]
    assert {row["player"] for row in standings["items"]} == set(doc["entries"])

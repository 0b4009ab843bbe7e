"""(issue 43) A Swiss tournament of 24 players under real gunicorn and two worker copies:
16 bot entries, four scripted humans playing over HTTP with their player keys and four
registered players who never show up (the takeover bot plays their seats; after two
missed games they are withdrawn), three rounds of 4-player Manhattan tables on 2 s
clocks. One worker is killed (SIGKILL) in the middle of round 1's games: the other
carries on. Then, from the games themselves: every round was paired once and none
skipped, nobody sat twice in a round and everyone active sat in each, every game was
played to its end and counted once, and the standings are exactly the games' places."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import requests

from shared.tournaments.points import award, points_for_size
from tests.worker.helpers import stored

BOTS, PLAYING, ABSENT = 16, 4, 4


def new_player(base: str, name: str) -> tuple[str, dict[str, str]]:
    r = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"], {"Authorization": f"Bearer {r.json()['key']}"}


def scripted(base: str, headers: dict[str, str], stop: threading.Event, seed: int) -> None:
    """A human who plays a random legal move in each game where it is to act: it finds
    them in its games (``turn=mine``), then plays on in each while it is to act (the
    view with its legal moves, then the move: the two requests of every move)."""
    rng = random.Random(seed)
    http = requests.Session()
    http.headers.update(headers)
    while not stop.is_set():
        try:
            page = http.get(f"{base}/players/me/games", params={"turn": "mine"}, timeout=5)
            for item in page.json().get("games", []):
                for _ in range(50):
                    url = f"{base}/games/{item['id']}"
                    view = http.get(url, params={"include": "legal_moves"}, timeout=5).json()
                    moves = view.get("legal_moves") or []
                    if not moves or view.get("status") != "running":
                        break
                    http.post(f"{url}/moves", json=rng.choice(moves), timeout=5)
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


def mid_round_one(base: str, tid: str, redis_client: Any) -> bool:
    """Round 1 is seated and a game of it is under way (the bots' own tables may be over:
    they play at once)."""
    doc = tournament(base, tid)
    if not doc["history"] or doc["history"][0]["state"] != "playing":
        return False
    games = [stored(redis_client, "manhattan", t["game"])[0] for t in doc["history"][0]["tables"]]
    return any(g["version"] > 8 and g["status"] == "running" for g in games)


def recount(doc: dict[str, Any], redis_client: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Every round checked against its games; the points and missed games they give."""
    points = dict.fromkeys(doc["entries"], 0)
    missed = dict.fromkeys(doc["entries"], 0)
    seen: list[str] = []
    out: set[str] = set()  # withdrawn before the round
    for rnd in doc["history"]:
        active = [p for t in rnd["tables"] for p in t["players"]] + rnd["byes"]
        assert len(active) == len(set(active)), "nobody twice in a round"
        assert set(active) == set(doc["entries"]) - out, "everyone active, in every round"
        assert all(2 <= len(t["players"]) <= 4 for t in rnd["tables"])
        for table in rnd["tables"]:
            game, moves = stored(redis_client, "manhattan", table["game"])
            assert game["status"] == "finished" and moves, "played to its end"
            by_seat = {p["seat"]: p for p in game["players"]}
            assert sorted(p["player"] for p in by_seat.values()) == sorted(table["players"])
            rows = game["result"]["standings"]
            got = award([row["rank"] for row in rows], points_for_size(len(rows)))
            for row, pts in zip(rows, got, strict=True):
                player = by_seat[row["seat"]]
                points[player["player"]] += pts
                human = not player["player"].startswith("bot:")
                missed[player["player"]] += human and player["status"] == "abandoned"
            seen.append(table["game"])
        for p in rnd["byes"]:
            points[p] += doc["bye_points"]
        out |= {p for p, n in missed.items() if n >= 2}
    assert len(seen) == len(set(seen)), "every game in one round only"
    return points, missed


def test_a_swiss_tournament_of_24_survives_a_killed_worker(clock_manhattan, workers, redis_client):
    base = clock_manhattan
    _, host = new_player(base, "Host")
    spec = {
        "name": "Live",
        "rounds": 3,
        "table_size": 4,
        "clock": {"turn_seconds": 2, "max_timeouts": 1},
        "options": {"takeover": "greedy"},  # (the default, strong, thinks 250 ms a move)
        "bots": ["random"] * BOTS,
    }
    r = requests.post(f"{base}/tournaments", json=spec, headers=host, timeout=10)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    humans = [new_player(base, f"Human {n}") for n in range(PLAYING + ABSENT)]
    for _, headers in humans:
        r = requests.post(f"{base}/tournaments/{tid}/players", headers=headers, timeout=10)
        assert r.status_code == 200, r.text
    absent = {pid for pid, _ in humans[PLAYING:]}
    stop = threading.Event()
    threads = [
        threading.Thread(target=scripted, args=(base, h, stop, n), daemon=True)
        for n, (_, h) in enumerate(humans[:PLAYING])
    ]
    for t in threads:
        t.start()
    first = workers.start(CLOCK_MIN_TURN_SECONDS="1")
    workers.start(CLOCK_MIN_TURN_SECONDS="1")
    try:
        assert requests.post(f"{base}/tournaments/{tid}/start", headers=host, timeout=10).ok
        wait_for(lambda: mid_round_one(base, tid, redis_client), 30, "round 1's games under way")
        first.kill()  # mid-round: its claims, leases and half-played moves left behind
        doc = wait_for(
            lambda: (d := tournament(base, tid))["status"] == "finished" and d, 120, "the end"
        )
    finally:
        stop.set()
    assert len(doc["entries"]) == BOTS + PLAYING + ABSENT == 24
    assert doc["round"] == 3 and [r["round"] for r in doc["history"]] == [1, 2, 3]
    assert all(r["state"] == "done" for r in doc["history"])
    points, missed = recount(doc, redis_client)
    assert points == {pid: e["points"] for pid, e in doc["entries"].items()}, "counted once"
    assert missed == {pid: e["missed"] for pid, e in doc["entries"].items()}
    for pid in absent:  # never played: two missed games, then withdrawn (not in round 3)
        assert doc["entries"][pid]["missed"] == 2 and doc["entries"][pid]["withdrawn"]
        assert len(doc["entries"][pid]["games"]) == 2
    for pid, _ in humans[:PLAYING]:  # they did play: not every seat of theirs abandoned
        assert missed[pid] < len(doc["entries"][pid]["games"]), pid
    pages: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {"limit": 7, **({"cursor": cursor} if cursor else {})}
        page = requests.get(f"{base}/tournaments/{tid}/standings", params=query, timeout=10)
        pages += page.json()["items"]
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    assert [row["place"] for row in pages] == list(range(1, 25))
    assert {row["player"]: row["points"] for row in pages} == points
    assert [row["points"] for row in pages] == sorted(points.values(), reverse=True)

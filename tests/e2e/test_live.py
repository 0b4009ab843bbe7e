"""End to end: the services under gunicorn (gevent worker) on the test Redis, played
through HTTP with random legal moves; every finished game replays from its log (seed +
moves) to the score the service reports."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
import requests

from services.manhattan import rules as manhattan_rules
from services.windcity import rules as windcity_rules


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(http: requests.Session, base: str, players: int, **options: Any):
    r = http.post(f"{base}/games", json={"players": players, **options})
    assert r.status_code == 201, r.text
    game_id, host = r.json()["id"], r.json()["host_token"]
    tokens = []
    for i in range(players):
        r = http.post(f"{base}/games/{game_id}/players", json={"name": f"bot {i}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = http.post(f"{base}/games/{game_id}/start", headers=bearer(host))
    assert r.status_code == 200, r.text
    return game_id, tokens, r.json()


def play_random(base: str, players: int, seed: int, **options: Any) -> dict[str, Any]:
    """A complete game with random legal moves; returns its log."""
    rng = random.Random(seed)
    http = requests.Session()
    game_id, tokens, game = new_game(http, base, players, **options)
    moves_made = 0
    while game["status"] == "running":
        seat = rng.choice(game["to_act"])
        r = http.get(f"{base}/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
        legal = r.json()["moves"]
        assert legal, f"seat {seat} is to act but has no legal move"
        r = http.post(
            f"{base}/games/{game_id}/moves", json=rng.choice(legal), headers=bearer(tokens[seat])
        )
        assert r.status_code == 200, r.text
        game = r.json()["game"]
        moves_made += 1
    assert game["status"] == "finished" and game["result"] is not None
    log = http.get(f"{base}/games/{game_id}/log").json()
    assert len(log["moves"]) == moves_made
    log["score"] = http.get(f"{base}/games/{game_id}/score").json()
    log["final"] = game
    return log


def replay(engine, log: dict[str, Any]) -> dict[str, Any]:
    options = dict(log["options"])
    state = engine.setup(options.pop("players"), options, log["seed"])
    for entry in log["moves"]:
        state, _ = engine.apply_move(state, entry["seat"], entry["move"])
    assert engine.is_over(state)
    return state


def check_replay(engine, log: dict[str, Any]) -> None:
    state = replay(engine, log)
    assert log["score"]["score"] == engine.score(state)
    assert log["score"]["result"] == engine.result(state) == log["final"]["result"]
    assert [e["type"] for e in log["events"]][-1] == "game_finished"
    assert log["events"][-1]["version"] == log["final"]["version"]


def test_manhattan_four_players_complete_game(live_manhattan):
    log = play_random(live_manhattan, 4, seed=1)
    check_replay(manhattan_rules.ENGINE, log)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_windcity_complete_games(live_windcity, players):
    # 2 and 5 players play the full default length; 3 and 4 a shorter game (max_turns=30)
    options = {} if players in (2, 5) else {"max_turns": 30}
    log = play_random(live_windcity, players, seed=players, **options)
    check_replay(windcity_rules.ENGINE, log)


def test_many_long_polls_wait_at_once_under_gevent(live_manhattan):
    """40 clients long-poll at once (2 gevent workers); one move wakes them all."""
    http = requests.Session()
    game_id, tokens, game = new_game(http, live_manhattan, 2, seed=4)
    version = game["version"]
    woken: list[float] = []
    lock = threading.Lock()

    def wait():
        r = requests.get(
            f"{live_manhattan}/games/{game_id}/events",
            params={"after": version, "wait": 10},
            timeout=20,
        )
        with lock:
            woken.append(time.perf_counter())
        assert [e["type"] for e in r.json()["events"]] == ["pieces_selected"]

    threads = [threading.Thread(target=wait) for _ in range(40)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    assert woken == []  # all are waiting
    seat = game["to_act"][0]
    legal = http.get(f"{live_manhattan}/games/{game_id}/legal-moves", headers=bearer(tokens[seat]))
    moved_at = time.perf_counter()
    r = http.post(
        f"{live_manhattan}/games/{game_id}/moves",
        json=legal.json()["moves"][0],
        headers=bearer(tokens[seat]),
    )
    assert r.status_code == 200
    for t in threads:
        t.join(15)
    assert len(woken) == 40
    assert max(woken) - moved_at < 1.0


def test_sse_under_gunicorn_delivers_moves_and_resumes(live_windcity):
    http = requests.Session()
    game_id, tokens, game = new_game(http, live_windcity, 2, seed=6)
    url = f"{live_windcity}/games/{game_id}/events"
    with requests.get(
        url, headers={"Accept": "text/event-stream"}, params={"after": 0}, stream=True, timeout=10
    ) as stream:
        lines = stream.iter_lines(decode_unicode=True)
        seen = []
        for line in lines:
            if line.startswith("id: "):
                seen.append(line[4:])
            if len(seen) == game["version"]:
                break
        seat = game["to_act"][0]
        move = {"type": "place_hurricane", "square": "C1"}
        r = http.post(f"{url[:-7]}/moves", json=move, headers=bearer(tokens[seat]))
        assert r.status_code == 200
        for line in lines:
            if line.startswith("id: "):
                seen.append(line[4:])
                break
    assert seen[-1] == f"{game['version'] + 1}-0"
    r = requests.get(
        url,
        headers={"Accept": "text/event-stream", "Last-Event-ID": seen[-2]},
        stream=True,
        timeout=10,
    )
    first = next(line for line in r.iter_lines(decode_unicode=True) if line.startswith("id: "))
    r.close()
    assert first == f"id: {seen[-1]}"

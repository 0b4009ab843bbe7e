"""The worker's proofs, end to end: a real ``python -m shared.worker`` process, real
gunicorn services and the session's real Redis (single or Cluster), deadlines of 1-2 s."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from functools import partial
from typing import Any

import pytest
import requests

from clients.cli.bots import play_seat, random_strategy
from clients.cli.client import client_for
from clients.cli.errors import ApiError
from tests.conftest import ROOT
from tests.worker.helpers import assert_replays, event_types, new_game, stored, wait_for


def moved_past(client: Any, gid: str, version: int) -> bool:
    return bool(client.view(gid)["version"] > version)


def finished(client: Any, gid: str) -> bool:
    return bool(client.view(gid)["status"] == "finished")


def _seat_events(client, gid: str, seat: int) -> list[str]:
    return [
        e["type"]
        for e in event_types(client, gid)
        if e["type"].startswith("seat_") and e["seat"] == seat
    ]


def test_a_seat_that_never_moves_times_out_at_each_deadline_then_is_abandoned(
    clock_manhattan, workers, redis_client
):
    clock = {"turn_seconds": 2, "max_timeouts": 2}
    gid, host, (ann, bob) = new_game("manhattan", clock_manhattan, ["ann", "bob"], [], clock=clock)
    workers.start()
    started = host.start(gid)
    assert all(p["deadline"] for p in started["players"] if p["seat"] in started["to_act"])
    began = time.monotonic()
    abandoned_after = None
    timeouts_seen = []
    while time.monotonic() - began < 40:
        view = ann.view(gid)
        bob_seat = view["players"][1]
        if bob_seat["timeouts"] not in timeouts_seen:
            timeouts_seen.append(bob_seat["timeouts"])
        if bob_seat["status"] == "abandoned" and abandoned_after is None:
            abandoned_after = time.monotonic() - began
        if view["status"] == "finished":
            break
        if 0 in view["to_act"]:
            ann.move(gid, ann.legal_moves(gid)[0])
        else:
            time.sleep(0.05)
    assert view["status"] == "finished"
    # bob missed two deadlines of 2 s each (one per turn of his), then a bot took over
    assert abandoned_after is not None and 4.0 <= abandoned_after < 4.0 + 4.0
    assert timeouts_seen[:3] == [0, 1, 2]
    assert _seat_events(ann, gid, 1) == ["seat_timed_out", "seat_timed_out", "seat_abandoned"]
    assert _seat_events(ann, gid, 0) == []  # ann always moved in time
    final = ann.view(gid)["players"]
    assert final[1] | {"deadline": None} == final[1]
    assert (final[1]["status"], final[1]["bot"], final[1]["timeouts"]) == ("abandoned", "strong", 2)
    doc, moves = assert_replays(redis_client, "manhattan", gid)
    assert {m["seat"] for m in moves} == {0, 1}


def test_a_human_move_racing_the_bot_for_the_same_turn_applies_exactly_once(
    clock_manhattan, workers, redis_client
):
    clock = {"turn_seconds": 1, "max_timeouts": 10}
    gid, host, players = new_game(
        "manhattan", clock_manhattan, ["ann", "bob"], [], clock=clock, seed=11
    )
    workers.start()
    host.start(gid)
    rng = random.Random(3)
    accepted = []
    refused = 0
    for _ in range(8):
        view = host.view(gid, spectator=True)
        seat = view["to_act"][0]
        player = players[seat]
        legal = player.legal_moves(gid)
        deadline = view["players"][seat]["deadline"]
        due = time.mktime(time.strptime(deadline[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
        due += float("0." + deadline[20:23]) + rng.uniform(-0.03, 0.03)
        time.sleep(max(0.0, due - time.time()))
        try:
            answer = player.move(gid, legal[0], if_match=view["version"])
            accepted.append((seat, answer["game"]["version"]))
        except ApiError as error:  # the bot's move landed first
            assert error.status in (409, 412), error
            refused += 1
        wait_for(partial(moved_past, host, gid, view["version"]), 5, "the turn")
    doc, moves = assert_replays(redis_client, "manhattan", gid)
    by_version = {m["version"]: m for m in moves}
    for seat, version in accepted:
        assert by_version[version]["seat"] == seat
    timed_out = [e for e in event_types(host, gid) if e["type"] == "seat_timed_out"]
    assert len(accepted) + len(timed_out) >= 8  # each turn: the human's or the bot's
    assert all(e["version"] not in {v for _, v in accepted} for e in timed_out)


def test_two_workers_running_at_once_never_move_twice(clock_manhattan, workers, redis_client):
    games = [
        new_game("manhattan", clock_manhattan, [], ["greedy", "random", "random", "random"])
        for _ in range(4)
    ]
    first, second = workers.start(), workers.start()
    for gid, host, _ in games:
        host.start(gid)
    for gid, host, _ in games:
        wait_for(partial(finished, host, gid), 60, "bots to finish")
    reports = [first.stop(), second.stop()]
    total = 0
    for gid, _, _ in games:
        _, moves = assert_replays(redis_client, "manhattan", gid)
        total += len(moves)
    assert sum(r["moves"] for r in reports) == total


def test_a_worker_killed_and_restarted_plays_every_move_that_came_due(
    clock_manhattan, workers, redis_client
):
    clock = {"turn_seconds": 1, "max_timeouts": 10}
    idle, host_idle, _ = new_game("manhattan", clock_manhattan, ["ann", "bob"], [], clock=clock)
    bots, host_bots, _ = new_game("manhattan", clock_manhattan, [], ["greedy", "random"])
    worker = workers.start()
    host_idle.start(idle)
    host_bots.start(bots)
    wait_for(lambda: host_bots.view(bots)["version"] > 10, 20, "bots to play")
    wait_for(
        lambda: (
            host_idle.view(idle)["players"][0]["timeouts"] > 0
            or host_idle.view(idle)["players"][1]["timeouts"] > 0
        ),
        10,
        "a timeout",
    )
    worker.kill()
    frozen = (host_idle.view(idle)["version"], host_bots.view(bots)["version"])
    time.sleep(2.5)  # at least two more deadlines pass and every bot move is due
    assert (host_idle.view(idle)["version"], host_bots.view(bots)["version"]) == frozen
    workers.start()
    # the due timeout is played at once (a claim the killed worker held expires in 1 s)
    took = wait_for(lambda: host_idle.view(idle)["version"] > frozen[0], 5, "the due timeout")
    assert took < 3
    wait_for(lambda: host_bots.view(bots)["status"] == "finished", 60, "the bots' game")
    assert_replays(redis_client, "manhattan", bots)
    assert_replays(redis_client, "manhattan", idle)


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_one_human_and_three_bots_play_to_the_end(game, request, workers, redis_client):
    url = request.getfixturevalue(f"clock_{game}")
    gid, host, (me,) = new_game(
        game, url, ["me"], ["greedy", "random", "greedy"], clock={"turn_seconds": 60}
    )
    workers.start()
    host.start(gid)
    final = play_seat(me, gid, random_strategy, rng=random.Random(1), poll_wait=2)
    assert final["status"] == "finished"
    statuses = [(p["status"], p["bot"]) for p in final["players"]]
    assert statuses == [("active", None), ("bot", "greedy"), ("bot", "random"), ("bot", "greedy")]
    assert len(final["result"]["standings"]) == 4
    _, moves = assert_replays(redis_client, game, gid)
    assert {m["seat"] for m in moves} == {0, 1, 2, 3}


def test_a_player_resigns_mid_game_and_the_game_goes_on(clock_manhattan, workers, redis_client):
    gid, host, (ann, bob) = new_game("manhattan", clock_manhattan, ["ann", "bob"], ["random"])
    workers.start()
    host.start(gid)
    done: dict[str, Any] = {}
    thread = threading.Thread(
        target=lambda: done.update(view=play_seat(bob, gid, random_strategy, poll_wait=2))
    )
    thread.start()
    for _ in range(2):  # ann makes two moves, then resigns
        ann.wait_for_turn(gid, timeout=20)
        ann.move(gid, ann.legal_moves(gid)[0])
    view = ann.resign(gid)
    assert view["players"][0]["status"] == "resigned" and view["players"][0]["bot"] == "strong"
    with pytest.raises(ApiError) as refused:
        ann.resign(gid)
    assert refused.value.status == 409
    thread.join(120)
    final = done["view"]
    assert final["status"] == "finished"
    last = final["result"]["standings"][-1]
    assert last["seat"] == 0 and last["resigned"] is True and last["rank"] == 3
    assert 0 not in final["result"]["winners"]
    assert [e["seat"] for e in event_types(ann, gid) if e["type"] == "seat_resigned"] == [0]
    doc, moves = assert_replays(redis_client, "manhattan", gid)
    assert any(m["seat"] == 0 and m["version"] > view["version"] for m in moves)
    assert stored(redis_client, "manhattan", gid)[0]["status"] == "finished"


def test_the_cli_plays_alone_against_server_bots(tmp_path, clock_manhattan, workers):
    """``boardgames manhattan new --bots 3`` seats you and three server bots and starts;
    ``boardgames manhattan bot`` then plays your seat to the end over HTTP."""
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(tmp_path / "home"),
        "MANHATTAN_URL": clock_manhattan,
        "PYTHONPATH": str(ROOT),
    }

    def cli(*args: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", "manhattan", *args, "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=90,
            cwd=ROOT,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    workers.start()
    created = cli("new", "--bots", "3", "--bot", "random", "--clock", "30")
    game = created["game"]
    assert game["status"] == "running" and game["options"]["clock"]["turn_seconds"] == 30
    assert [p["status"] for p in game["players"]] == ["active", "bot", "bot", "bot"]
    cli("bot", "--strategy", "random")
    final = client_for("manhattan", clock_manhattan).view(created["id"])
    assert final["status"] == "finished"


def test_the_worker_serves_its_own_metrics(clock_manhattan, workers):
    """With WORKER_METRICS_PORT the worker answers /metrics: its lag gauge is there and
    parses with prometheus-client's parser once it played a bot game's moves."""
    from prometheus_client.parser import text_string_to_metric_families

    from tests.conftest import free_port

    port = free_port()
    gid, host, _ = new_game("manhattan", clock_manhattan, [], ["random", "greedy"])
    workers.start(WORKER_METRICS_PORT=str(port))
    host.start(gid)
    done = lambda: host.view(gid, spectator=True)["status"] == "finished"  # noqa: E731
    wait_for(done, 60, "the bots to finish")
    text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    lag = families["boardgames_worker_lag_seconds"]
    assert [s.labels for s in lag.samples] == [{"job": "move"}]
    assert lag.samples[0].value >= 0
    assert "boardgames_webhook_deliveries" in families

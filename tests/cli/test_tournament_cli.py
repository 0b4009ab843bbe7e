"""``boardgames tournament list|create|join|start|standings|play`` against the live
services: a host creates a tournament with bot entries, another player joins, the host
starts it, and the standings list everyone; ``play`` follows a player through two rounds
(issue 43)."""

from __future__ import annotations

import json
import time

import requests


def test_create_join_start_and_standings(cli) -> None:
    cli("register", "Host", home="host")
    cli("register", "Ann", home="ann")
    made = cli(
        "tournament",
        "create",
        "manhattan",
        "--bots",
        "random,random,random",
        "--turn-seconds",
        "60",
        "--rounds",
        "2",
        "--json",
        home="host",
    )
    tid = json.loads(made.stdout)["id"]
    joined = cli("tournament", "join", "manhattan", tid, home="ann")
    assert "registered for" in joined.stdout
    listed = cli("tournament", "list", "manhattan", "--json", home="ann")
    assert tid in [t["id"] for t in json.loads(listed.stdout)["items"]]
    refused = cli("tournament", "start", "manhattan", tid, home="ann", check=False)
    assert refused.returncode == 1 and "not-host" in refused.stderr
    cli("tournament", "start", "manhattan", tid, home="host")
    table = cli("tournament", "standings", "manhattan", tid, home="ann")
    assert "Ann" in table.stdout and "Bot 1" in table.stdout and "Buchholz" in table.stdout
    rows = json.loads(cli("tournament", "standings", "manhattan", tid, "--json").stdout)
    assert len(rows["items"]) == 4
    # a weekly event: rounds at fixed times, a start time, a cap on players
    before = time.time()
    weekly = cli(
        "tournament",
        "create",
        "manhattan",
        "--round-minutes",
        "30",
        "--starts-in",
        "60",
        "--max-players",
        "40",
        "--json",
        home="host",
    )
    doc = json.loads(weekly.stdout)
    assert (doc["round_minutes"], doc["max_players"], doc["status"]) == (30, 40, "registering")
    assert before + 3600 <= doc["starts_at"] / 1000 <= time.time() + 3600


def test_play_follows_the_player_from_table_to_table(cli, workers, live_manhattan) -> None:
    """``tournament play``: Ann is not registered yet, so it registers her, checks her in
    (the check-in window is open), waits for the start (three seconds on), plays her
    table of round 1 (typing the menu's first move each turn), waits for round 2, plays
    that table too, and prints the final standings. The worker pairs and seats the
    rounds; three random bots fill the tables of two."""
    host = requests.post(f"{live_manhattan}/players", json={"name": "Host"}, timeout=10).json()
    spec = {
        "name": "Two rounds",
        "rounds": 2,
        "table_size": 2,
        "clock": {"turn_seconds": 60},
        "bots": ["random"] * 3,
        "starts_at": int(time.time() * 1000) + 3000,
        "checkin_seconds": 60,  # open already: a player who does not check in is dropped
    }
    made = requests.post(
        f"{live_manhattan}/tournaments",
        json=spec,
        headers={"Authorization": f"Bearer {host['key']}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    me = json.loads(cli("register", "Ann", "--json").stdout)
    played = cli(
        "tournament", "play", "manhattan", tid, "--poll", "0.3", stdin="1\n" * 5000, timeout=150
    )
    out = played.stdout
    assert "registered for Two rounds" in out and "checked in for Two rounds" in out
    assert "waiting for the start at" in out
    doc = requests.get(f"{live_manhattan}/tournaments/{tid}", timeout=10).json()
    assert doc["status"] == "finished" and [r["round"] for r in doc["history"]] == [1, 2]
    for rnd in doc["history"]:
        (mine,) = [t for t in rnd["tables"] if me["id"] in t["players"]]
        assert f"round {rnd['round']}: game {mine['game']} against" in out
        game = requests.get(f"{live_manhattan}/games/{mine['game']}", timeout=10).json()
        assert game["status"] == "finished"
    entry = doc["entries"][me["id"]]
    assert len(entry["games"]) == 2 and entry["missed"] == 0  # Ann played both herself
    assert "Two rounds is over" in out and "standings after round 2" in out
    assert "you finished in place" in out and f"with {entry['points']} points" in out

"""``boardgames <game> verify GAME``: the commitment check and the replay, on real logs of
both games; every kind of tampering is caught, and the command's exit codes."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from clients.cli.bots import run_demo_game
from clients.cli.client import client_for
from clients.cli.verify import verify
from shared.store import load_doc

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {"manhattan": {}, "windcity": {"max_turns": 10}}


def _play(client: Any, game: str, rng: random.Random, finish: bool = True, **options: Any) -> str:
    """A two-seat game through the app, random legal moves to the end (or 3 moves)."""
    created = client.post("/games", json={"players": 2, **OPTIONS[game], **options}).get_json()
    gid = created["id"]
    tokens = [
        client.post(f"/games/{gid}/players", json={"name": n}).get_json()["token"]
        for n in ("ann", "bob")
    ]
    client.post(f"/games/{gid}/start", headers={"Authorization": f"Bearer {created['host_token']}"})
    for n in range(100_000):
        game_view = client.get(f"/games/{gid}").get_json()
        if game_view["status"] != "running" or (not finish and n == 3):
            break
        seat = rng.choice(game_view["to_act"])
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        moves = client.get(f"/games/{gid}/legal-moves", headers=auth).get_json()["moves"]
        r = client.post(f"/games/{gid}/moves", json=rng.choice(moves), headers=auth)
        assert r.status_code == 200, r.get_json()
    if not finish:
        client.delete(f"/games/{gid}", headers={"Authorization": f"Bearer {created['host_token']}"})
    return gid


@pytest.fixture(scope="module")
def logs(redis_url: str) -> dict[str, Any]:
    """Real logs, played once per module: a finished game of each, a game cancelled
    mid-way, and a chosen-seed game."""
    from tests.conftest import APP_FACTORIES  # the same factories the app fixtures use

    out: dict[str, Any] = {}
    rng = random.Random(11)
    for game in ("manhattan", "windcity"):
        module, _, factory = APP_FACTORIES[game].partition(":")
        app = getattr(__import__(module, fromlist=[factory]), factory.split("(")[0])(
            {"REDIS_URL": redis_url}
        )
        client = app.test_client()
        out[game] = client.get(f"/games/{_play(client, game, rng)}/log").get_json()
        if game == "manhattan":
            cancelled = _play(client, game, rng, finish=False)
            out["cancelled"] = client.get(f"/games/{cancelled}/log").get_json()
            chosen = _play(client, game, rng, seed=1234)
            out["chosen"] = client.get(f"/games/{chosen}/log").get_json()
            kit = _play(client, game, rng, clock={"turn_seconds": 60}, takeover="greedy")
            out["kit options"] = client.get(f"/games/{kit}/log").get_json()
            running = client.post("/games", json={"players": 2}).get_json()["id"]
            out["open"] = client.get(f"/games/{running}/log").get_json()
    return out


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_a_finished_game_verifies(logs, game):
    log = logs[game]
    assert log["status"] == "finished" and len(log["moves"]) > 10
    report = verify(game, log)
    assert report.ok, report.checks
    assert [c["check"] for c in report.checks] == ["commitment", "replay"]
    assert "result match" in report.checks[1]["detail"]
    assert verify(game, log, noted=log["seed_commitment"].upper()).ok


def test_the_services_own_options_are_not_the_rules(logs):
    log = logs["kit options"]  # a clock and a take-over bot: options of the service
    assert log["options"]["clock"]["turn_seconds"] == 60
    assert log["options"]["takeover"] == "greedy"
    report = verify("manhattan", log)
    assert report.ok, report.checks


def test_a_game_cancelled_mid_way_verifies(logs):
    log = logs["cancelled"]
    assert log["status"] == "cancelled" and len(log["moves"]) == 3
    report = verify("manhattan", log)
    assert report.ok and "cancelled before the end" in report.checks[1]["detail"]


def _first_engine_event(log: dict) -> dict:
    kit = {"game_created", "player_joined", "game_started", "game_finished"}
    return next(e for e in log["events"] if e["type"] not in kit)


TAMPERINGS: dict[str, tuple[Callable[[dict], None], str]] = {
    "salt": (lambda log: log.update(salt="0" * 32), "not the published"),
    "seed": (lambda log: log.update(seed=log["seed"] + 1), "not the published"),
    "commitment": (lambda log: log.update(seed_commitment="ab" * 32), "not the published"),
    "no seed": (lambda log: log.pop("seed"), "does not reveal"),
    "a move swapped": (
        lambda log: log["moves"].__setitem__(slice(0, 2), log["moves"][1::-1]),
        "version",
    ),
    "a move dropped": (lambda log: log["moves"].pop(5), "version"),
    "an event changed": (
        lambda log: _first_engine_event(log).update(extra=1),
        "not what the move causes",
    ),
    "the result changed": (
        lambda log: log["events"][-1]["result"].update(winners=[9]),
        "result",
    ),
    "moves cut short": (lambda log: log["moves"].pop(), "from no logged move"),
    "the end cut off": (lambda log: _cut_end(log), "do not end it"),
}


def _cut_end(log: dict) -> None:
    """Drop the last move and everything logged at its version, as a clean early end."""
    last = log["moves"].pop()["version"]
    log["events"] = [e for e in log["events"] if e["version"] < last]
    log["events"].append({"type": "game_finished", "result": {}, "version": last})


@pytest.mark.parametrize("what", list(TAMPERINGS))
def test_tampering_is_caught(logs, what):
    log = copy.deepcopy(logs["manhattan"])
    tamper, says = TAMPERINGS[what]
    tamper(log)
    report = verify("manhattan", log)
    assert not report.ok
    assert says in report.failure(), report.checks


def test_the_noted_commitment_must_match(logs):
    report = verify("manhattan", logs["manhattan"], noted="cd" * 32)
    assert not report.ok and "you noted" in report.failure()


def test_a_chosen_seed_replays_but_does_not_verify(logs):
    report = verify("manhattan", logs["chosen"])
    assert not report.ok
    assert "chosen by the game's creator" in report.failure()
    assert report.checks[1]["ok"]  # the replay itself is fine


def test_a_game_not_over_does_not_verify(logs):
    report = verify("manhattan", logs["open"])
    assert not report.ok and "only once it is over" in report.failure()


# -- the command, against the live service ---------------------------------------------


def _cli(*args: str, url: str, home: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(home),
        "MANHATTAN_URL": url,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "200",
    }
    return subprocess.run(
        [sys.executable, "-m", "clients.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=90,
        cwd=ROOT,
    )


def test_verify_command_exit_codes(live_manhattan: str, redis_url: str, tmp_path: Path):
    view, _ = run_demo_game("manhattan", live_manhattan, None, ["random", "random"])
    gid = view["id"]
    ok = _cli("manhattan", "verify", gid, url=live_manhattan, home=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert f"game {gid} verified" in ok.stdout and ok.stderr == ""
    as_json = _cli("manhattan", "verify", "-g", gid, "--json", url=live_manhattan, home=tmp_path)
    assert json.loads(as_json.stdout)["verified"] is True and as_json.returncode == 0
    # the service (here: someone with Redis access) changes the salt after the fact
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    key = f"mh:{{{gid}}}:game"
    doc = load_doc(store.get(key))
    doc["salt"] = "f" * 32
    store.set(key, json.dumps(doc, separators=(",", ":")), keepttl=True)
    bad = _cli("manhattan", "verify", gid, url=live_manhattan, home=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and "not verified" in bad.stderr
    assert "Traceback" not in bad.stderr + bad.stdout
    # a game still open: one clear line, exit 1
    fresh = client_for("manhattan", live_manhattan).create(2)["id"]
    early = _cli("manhattan", "verify", fresh, url=live_manhattan, home=tmp_path)
    assert early.returncode == 1 and "only once it is over" in early.stderr
    assert early.stderr.count("\n") == 1

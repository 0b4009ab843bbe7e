"""The ``boardgames`` command as a subprocess against the live services."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clients.cli.client import ManhattanClient
from clients.cli.notation import format_move

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path, live_manhattan: str):
    """Run ``python -m clients.cli ARGS`` with a private BOARDGAMES_HOME."""
    home = tmp_path / "bghome"
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(home),
        "MANHATTAN_URL": live_manhattan,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "120",
    }

    def run(*args: str, input: str | None = None, check: bool = True, extra_env=None):
        proc = subprocess.run(
            [sys.executable, "-m", "clients.cli", *args],
            capture_output=True,
            text=True,
            env={**env, **(extra_env or {})},
            input=input,
            timeout=90,
            cwd=ROOT,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"{args} failed ({proc.returncode}): {proc.stderr}")
        return proc

    run.home = home  # type: ignore[attr-defined]
    return run


def _json(proc) -> dict:
    return json.loads(proc.stdout)


def test_new_join_start_move_to_the_end(cli, live_manhattan: str) -> None:
    created = _json(cli("manhattan", "new", "--players", "2", "--seed", "21", "--json"))
    gid = created["id"]
    tokens = json.loads((cli.home / "tokens.json").read_text())
    assert tokens["manhattan"][gid]["host_token"] == created["host_token"]
    assert stat.S_IMODE((cli.home / "tokens.json").stat().st_mode) == 0o600
    ann = _json(cli("manhattan", "join", "--name", "ann", "--json"))  # defaults to last game
    bob = _json(cli("manhattan", "join", gid, "--name", "bob", "--json"))
    assert (ann["seat"], bob["seat"], ann["id"]) == (0, 1, gid)
    started = _json(cli("manhattan", "start", "--json"))
    assert started["status"] == "running" and started["version"] >= 1
    spect = ManhattanClient(live_manhattan)
    seat_client = {
        0: ManhattanClient(live_manhattan, ann["token"]),
        1: ManhattanClient(live_manhattan, bob["token"]),
    }

    def cli_move(listing: bool = False) -> dict:
        """One move through the CLI: its own seat choice, short notation, --json."""
        view = spect.view(gid)
        seat = view["to_act"][0]
        if listing:
            listed = _json(cli("manhattan", "moves", "--json", "-g", gid))
            assert listed["seat"] == seat  # the CLI picked the seat whose turn it is
            move = listed["moves"][-1]
        else:
            move = seat_client[seat].legal_moves(gid)[-1]
        answer = _json(cli("manhattan", "move", *format_move("manhattan", move).split(), "--json"))
        assert answer["game"]["version"] == view["version"] + 1
        assert answer["events"][0]["seat"] == seat
        return answer

    answer = None
    for i in range(3):  # the selections and the first placements through the CLI
        answer = cli_move(listing=i < 2)
    # the middle of the game in-process (fast), the end through the CLI again
    while True:
        view = spect.view(gid)
        state = view["state"]
        left = sum(len(p["selected"]) for p in state["players"])
        if state["round"] == 4 and state["phase"] == "build" and left <= 3:
            break
        c = seat_client[view["to_act"][0]]
        c.move(gid, c.legal_moves(gid)[0])
    moves = 0
    while answer is None or answer["game"]["status"] != "finished":
        answer = cli_move()
        moves += 1
    assert moves >= 3
    assert answer["game"]["result"]["winners"]
    score = _json(cli("manhattan", "score", "--json"))
    assert score["status"] == "finished"
    assert score["score"]["totals"] == [
        r["total"] for r in sorted(answer["game"]["result"]["standings"], key=lambda r: r["seat"])
    ]
    log = _json(cli("manhattan", "log", "--json"))
    assert log["seed"] is not None and len(log["moves"]) == answer["game"]["version"] - 4
    shown = cli("manhattan", "show", "--seat", "0").stdout
    assert "winner:" in shown and "New York" in shown and "Cairo" in shown


def test_exit_codes_and_problem_output(cli) -> None:
    gid = _json(cli("manhattan", "new", "--players", "2", "--join", "ann", "--json"))["id"]
    cli("manhattan", "join", "--name", "bob")
    bad = cli("manhattan", "move", "7", "--json", check=False)
    assert bad.returncode == 2 and json.loads(bad.stderr)["error"] == "usage"
    early = cli("manhattan", "move", "select", "1", "1", "1", "1", "1", "1", "--json", check=False)
    assert early.returncode == 1
    problem = json.loads(early.stderr)
    assert problem["status"] == 409 and problem["code"]
    nf = cli("manhattan", "show", "-g", "nope", "--json", check=False)
    assert nf.returncode == 1 and json.loads(nf.stderr)["status"] == 404
    down = cli("manhattan", "show", "-g", gid, "--url", "http://127.0.0.1:9", check=False)
    assert down.returncode == 1 and down.stderr.count("\n") == 1
    assert down.stderr.startswith("error: cannot reach http://127.0.0.1:9: connection refused")
    nohost = cli("manhattan", "cancel", "-g", gid, "--token", "wrong", "--json", check=False)
    assert nohost.returncode == 1 and json.loads(nohost.stderr)["status"] == 403
    assert _json(cli("manhattan", "cancel", "--json"))["status"] == "cancelled"


def test_bot_and_watch_play_a_game_to_the_end(cli, live_manhattan: str) -> None:
    gid = _json(cli("manhattan", "new", "--players", "2", "--json"))["id"]
    t1 = _json(cli("manhattan", "join", "--name", "g", "--json"))["token"]
    t2 = _json(cli("manhattan", "join", "--name", "r", "--json"))["token"]
    cli("manhattan", "start")
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(cli.home),
        "MANHATTAN_URL": live_manhattan,
        "PYTHONPATH": str(ROOT),
    }
    cmd = [sys.executable, "-m", "clients.cli"]
    bots = [
        subprocess.Popen(
            [*cmd, "bot", "manhattan", "--game-id", gid, f"--seat-token={tok}", "--strategy", s,
             "--json"],
            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )
        for tok, s in ((t1, "greedy"), (t2, "random"))
    ]  # fmt: skip
    watch = subprocess.run(
        [*cmd, "watch", "manhattan", gid],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=90,
    )  # fmt: skip
    outs = [json.loads(b.communicate(timeout=90)[0]) for b in bots]
    assert all(b.returncode == 0 for b in bots)
    assert watch.returncode == 0, watch.stderr
    assert outs[0]["status"] == outs[1]["status"] == "finished"
    assert outs[0]["result"] == outs[1]["result"] and outs[0]["result"]["winners"]
    screen = watch.stdout
    assert "recent events" in screen and "game over; winner" in screen
    assert "status=finished" in screen and "Cairo" in screen


def test_play_interactively_against_a_bot(cli) -> None:
    proc = cli(
        "play", "manhattan", "--bots", "1", "--name", "me", "--strategy", "random",
        input="1\n" * 200,
    )  # fmt: skip
    out = proc.stdout
    assert "you against 1 random bot" in out
    assert out.count("your move") >= 28  # 4 selections + 24 placements
    assert "random-bot-1 built" in out  # the other player's moves were shown
    assert "winner:" in out and "total" in out


def test_demo_plays_both_games(cli, live_manhattan: str, live_windcity: str) -> None:
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(cli.home),
        "PYTHONPATH": str(ROOT),
        "MANHATTAN_URL": live_manhattan,
        "WINDCITY_URL": live_windcity,
        "COLUMNS": "120",
    }
    cmd = [sys.executable, "-m", "clients.cli", "demo"]
    runs = [  # the JSON and the human demo side by side
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, cwd=ROOT)
        for args in ([*cmd, "--json", "--seed", "5"], cmd)
    ]  # fmt: skip
    (as_json, err1), (human, err2) = (r.communicate(timeout=90) for r in runs)
    assert [r.returncode for r in runs] == [0, 0], err1 + err2
    out = json.loads(as_json)
    for game in ("manhattan", "windcity"):
        assert out[game]["status"] == "finished"
        assert len(out[game]["players"]) == 4
        assert out[game]["result"]["winners"]
    totals = out["manhattan"]["score"]["score"]["totals"]
    assert sorted(r["total"] for r in out["manhattan"]["result"]["standings"]) == sorted(totals)
    wc_totals = [r["total"] for r in out["windcity"]["score"]["score"]["seats"]]
    assert sorted(r["total"] for r in out["windcity"]["result"]["standings"]) == sorted(wc_totals)
    assert human.count("winner:") == 2
    assert "New York" in human and "Wind City" in human and "status=finished" in human

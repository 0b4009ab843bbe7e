"""What a new user tripped over in the CLI: game ids typed as positional arguments, menu
numbers out of range, field errors of a validation problem, an unreachable service, a
watch screen cut off at 80x24, unexplained labels, and errors that must be one line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests

from clients.cli import commands, render
from clients.cli.__main__ import build_parser, normalize_argv
from clients.cli.client import ManhattanClient
from clients.cli.errors import (
    TransportError,
    UnprocessableEntity,
    describe_problem,
    describe_transport,
)
from clients.cli.games import windcity as windcity_ui
from clients.cli.menu import pick
from clients.cli.notation import NotationError
from services.manhattan import rules as mh
from services.windcity import rules as wc
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
GID = "0123456789abcdef"


def parse(*argv: str):
    args = build_parser().parse_args(normalize_argv(list(argv)))
    commands.resolve_game_id(args)
    return args


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
@pytest.mark.parametrize(
    "command",
    ["start", "cancel", "show", "moves", "score", "log", "events", "play", "watch", "bot"],
)
def test_the_game_id_is_positional_everywhere(game: str, command: str) -> None:
    assert parse(game, command, GID).game_id == GID
    assert parse(game, command, "-g", GID).game_id == GID  # -g still works
    assert parse(game, command).game_id is None  # the last game used


def test_positional_game_id_in_join_move_and_game_first_forms() -> None:
    assert parse("manhattan", "join", GID, "--name", "ann").game_id == GID
    assert parse("play", "manhattan", GID).game_id == GID
    move = parse("manhattan", "move", GID, "3", "7", "2")
    assert (move.game_id, move.move) == (GID, ["3", "7", "2"])
    plain = parse("manhattan", "move", "3", "7", "2")
    assert (plain.game_id, plain.move) == (None, ["3", "7", "2"])
    with pytest.raises(commands.UsageError, match="two game ids"):
        parse("manhattan", "show", GID, "-g", "fedcba9876543210")


def _cli(*args: str, input_text: str | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clients.cli", *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["manhattan", "join"], 2, "--name"),
        (["manhattan", "frobnicate"], 2, "invalid choice"),
        (["manhattan", "show", GID, "-g", "fedcba9876543210"], 2, "two game ids"),
        (["manhattan", "new", "--url", "http://127.0.0.1:{port}"], 1, "connection refused"),
        (["manhattan", "show", GID, "--url", "http://127.0.0.1:{port}"], 1, "connection refused"),
        (["manhattan", "show", GID, "--url", "not a url"], 1, "error"),
    ],
)
def test_every_error_is_one_line_without_traceback(
    tmp_path: Path, argv: list[str], code: int, words: str
) -> None:
    port = str(free_port())
    proc = _cli(*(a.replace("{port}", port) for a in argv), BOARDGAMES_HOME=str(tmp_path))
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], lines
    assert "urllib3" not in lines[0] and "HTTPConnectionPool" not in lines[0]


def test_an_unreachable_service_is_described_in_words() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    client = ManhattanClient(url, max_retries=0)
    with pytest.raises(TransportError) as caught:
        client.list_games()
    assert str(caught.value) == f"cannot reach {url}: connection refused (is the service running?)"
    try:
        requests.get(url, timeout=1)
    except requests.ConnectionError as exc:
        assert describe_transport(url, exc).startswith(f"cannot reach {url}: connection refused")


def test_menu_numbers_outside_the_menu_are_refused() -> None:
    legal = [{"type": "discard", "lot": n} for n in (1, 2, 3)]
    assert pick(legal, "1") == legal[0]
    assert pick(legal, "3") == legal[2]
    for number in ("0", "4", "99", "00"):
        with pytest.raises(NotationError, match="pick 1 to 3"):
            pick(legal, number)


def test_validation_problems_show_their_field_errors() -> None:
    problem: dict[str, Any] = {
        "code": "validation-error",
        "detail": "The request is invalid.",
        "errors": {"json": {"pieces": ["Not a valid list."], "type": ["Unknown move type."]}},
    }
    exc = UnprocessableEntity(422, "validation-error", problem["detail"], problem=problem)
    line = describe_problem(exc)
    assert line.startswith("The request is invalid.")
    assert "json.pieces: Not a valid list." in line and "json.type: Unknown move type." in line
    assert "\n" not in line


def _play(engine, players: int, seed: int, moves: int):
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return state


def _view(game: str, engine, state, players: int) -> dict:
    return {
        "id": GID,
        "game": game,
        "status": "finished" if engine.is_over(state) else "running",
        "version": 123,
        "players": [{"seat": i, "name": f"player{i}"} for i in range(players)],
        "you": None,
        "to_act": engine.to_act(state),
        "state": engine.view(state, None),
        "result": engine.result(state),
    }


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("moves", [0, 25, 60, 1000])
def test_watch_fits_an_80x24_terminal(game: str, players: int, moves: int) -> None:
    engine = mh if game == "manhattan" else wc
    state = _play(engine, players, seed=players * 100 + moves, moves=moves)
    view = _view(game, engine, state, players)
    recent = [f"event number {i} happened to somebody" for i in range(12)]
    text = render.to_text(render.watch_screen(game, view, recent, 80, 24), width=80)
    lines = text.rstrip("\n").splitlines()
    assert len(lines) <= 23 and max(map(len, lines)) <= 80, text
    public = view["state"]
    if game == "manhattan":  # every building is on screen: its height and owner
        for city in public["cities"]:
            for lot in city["lots"]:
                if lot.get("pieces"):
                    assert f"{lot['height']}S{lot['owner']}" in text
    else:  # the hurricane and the houses are on screen in their rows (all of them, unless
        # the board had to be windowed around the hurricane, which says so)
        rows = {line.split()[0]: line for line in lines if line[:2].strip().isdigit()}
        for house in public.get("houses") or []:
            if house["square"][1:] not in rows:
                assert "not shown" in text, text
                continue
            row = rows[house["square"][1:]]
            col = windcity_ui.COLS.index(house["square"][0])
            assert row[3 + 3 * col : 6 + 3 * col].startswith(str(house["owner"])), text
        if public.get("hurricane"):
            assert "@" in rows[public["hurricane"][1:]]
    assert "event number 11" in text or moves == 1000  # the newest event, room permitting


def test_legend_explains_owner_labels_and_cards() -> None:
    mh_legend = render.legend("manhattan").plain
    assert "S0 = seat 0" in mh_legend and "CARD→LOT" in mh_legend and "3 7 2" in mh_legend
    wc_legend = render.legend("windcity").plain
    assert "Kauf" in wc_legend and "DIRsteps·cost" in wc_legend and "insured" in wc_legend


def test_windcity_play_narrates_ones_own_turn(tmp_path: Path, live_windcity: str) -> None:
    """Every plan of ours is followed by its reveal, also when the turn resolved later
    (after the other player insured), which play used to leave out as 'our own' event."""
    proc = _cli(
        "play", "windcity", "--bots", "1", "--name", "me", "--strategy", "random",
        "--seed", "11",
        BOARDGAMES_HOME=str(tmp_path),
        WINDCITY_URL=live_windcity,
        COLUMNS="120",
        input_text="1\n" * 60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    plans = out.count("me made a secret plan")
    assert plans >= 3 and "random-bot-1 insured" in out, out[-3000:]
    # the last plan may still be waiting for the bot when our input ran out
    assert out.count("me reveals card") >= plans - 1, out[-3000:]
    assert "Legend:" in out

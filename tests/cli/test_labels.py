"""What the CLI says, in words (issue 29, item 12): results and scores without raw keys,
Manhattan's tie-breakers named, Wind City's end said, sentences that agree with "you",
the land sections a refusal names shown with their rows, ``insure nothing`` in the
menu, one strategy flag, and a synopsis in docs/cli.md that lists every option."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clients.cli import render
from clients.cli.__main__ import build_parser, normalize_argv
from clients.cli.client import WindCityClient
from clients.cli.games import windcity as windcity_ui
from clients.cli.menu import Menu
from clients.cli.notation import format_move, parse_move
from services.manhattan import rules as mh
from services.windcity import rules as wc

ROOT = Path(__file__).resolve().parents[2]
RAW = re.compile(r"house_points|money_points|in_game|north_edge|last_player|max_turns|True|False")


def _finished(engine, players: int, seed: int, options: dict | None = None):
    state = engine.setup(players, options or {}, seed)
    rng = random.Random(seed)
    events = []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, evs = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
        events += evs
    return state, events


def _view(game: str, engine, state, names: list[str]) -> dict:
    return {
        "id": "0123456789abcdef",
        "game": game,
        "status": "finished",
        "version": 99,
        "players": [{"seat": i, "name": n} for i, n in enumerate(names)],
        "you": 0,
        "to_act": [],
        "state": engine.view(state, 0),
        "result": engine.result(state),
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_windcity_result_and_score_are_in_words(seed: int) -> None:
    state, _ = _finished(wc, 4, seed)
    view = _view("windcity", wc, state, ["you", "bob", "cy", "dee"])
    result = render.to_text(render.render_result(view), 120)
    score = render.to_text(render.render_score("windcity", {"score": wc.score(state)}, view), 120)
    for text in (result, score):
        assert not RAW.findall(text), text
    assert "house points" in result and "still in" in result
    assert "winner: " in result and "ranked by: still in the game" in result
    reason = view["result"]["reason"]
    said = {
        "north_edge": "the hurricane left the board at the north edge",
        "last_player": "only one player is left in the game",
        "max_turns": "safety stop",
    }[reason]
    assert said in result
    assert "houses (10 each)" in score and "still in the game" in score
    assert re.search(r"still in the game\s+(playing|out)", score), score


def test_manhattan_tie_breakers_are_named_and_promo_rows_only_with_promo_cards() -> None:
    state, _ = _finished(mh, 3, 4)
    view = _view("manhattan", mh, state, ["ann", "bob", "cy"])
    result = render.to_text(render.render_result(view), 120)
    assert "tie-break 1: tallest" in result and "tie-break 2: majorities" in result
    assert "ties broken by the height of the tallest building one owns" in result
    score = render.to_text(render.render_score("manhattan", {"score": mh.score(state)}, view), 120)
    assert "round 1: tallest building" in score and "round 4: city majorities" in score
    assert "promo" not in score  # promotion cards are off: no rows of zeros
    state, _ = _finished(mh, 3, 4, {"promo_cards": True})
    view = _view("manhattan", mh, state, ["ann", "bob", "cy"])
    score = render.to_text(render.render_score("manhattan", {"score": mh.score(state)}, view), 120)
    assert "round 1: promotion card " in score


@pytest.mark.parametrize(("game", "engine"), [("manhattan", mh), ("windcity", wc)])
def test_sentences_agree_with_you(game: str, engine) -> None:
    """`new --bots` names you "you": the lines read "you pay", "you reveal", "your house",
    never "you pays", "you reveals", "you's house"."""
    names = {0: "you", 1: "bob", 2: "cy"}
    lines = []
    for seed in (3, 8, 13):
        _, events = _finished(engine, 3, seed)
        extra = [
            {"type": t, "seat": 0, "name": "you"}
            for t in ("seat_timed_out", "seat_abandoned", "seat_resigned", "player_left")
        ]
        lines += [render.describe_event(game, e, names) for e in events + extra]
    text = "\n".join(lines)
    wrong = re.findall(r"\byou (?:pays|reveals|is|gets|takes|builds|sells|has)\b|\byou's\b", text)
    assert not wrong, wrong
    assert "=" not in text  # no event falls back to key=value
    assert "your time ran out: the server moved for you" in text
    if game == "windcity":
        assert re.search(r"\byou (pay|reveal|sell) ", text), text


def test_a_refusal_naming_a_land_section_gives_its_rows() -> None:
    detail = "you already have 4 houses in section L2"
    assert windcity_ui.problem_detail(detail) == (
        "you already have 4 houses in section L2 (rows 10–14)"
    )
    assert [windcity_ui.section_rows(s) for s in (1, 2, 3, 4)] == [
        (5, 9),
        (10, 14),
        (15, 19),
        (20, 24),
    ]


def test_the_board_labels_each_land_section() -> None:
    state = wc.setup(4, {}, 1)
    text = render.to_text(windcity_ui.board(wc.view(state, None)), 120)
    tagged = {m.group(1): m.group(2) for m in re.finditer(r" (\d+) L(\d)\s*│", text)}
    assert tagged == {"9": "1", "14": "2", "19": "3"}
    assert "sections (rows) L1 5–9, L2 10–14, L3 15–19: 4 houses each" in text


def test_insure_nothing_is_said_and_read() -> None:
    nothing = {"type": "insure", "squares": []}
    assert format_move("windcity", nothing) == "insure nothing"
    for text in ("insure nothing", "insure none", "insure"):
        assert parse_move("windcity", text) == nothing
    menu = Menu.of("windcity", [nothing, {"type": "insure", "squares": ["C5"]}])
    assert "1. insure nothing" in menu.lines(80)[1].plain


def test_one_strategy_flag_everywhere() -> None:
    """``--strategy`` on ``new`` as on ``play`` and ``bot``; ``--bot`` (its old name on
    ``new``) still works but is no longer shown."""

    def parse(*argv: str):
        return build_parser().parse_args(normalize_argv(list(argv)))

    for command in (["windcity", "new"], ["play", "windcity"], ["bot", "windcity"]):
        assert parse(*command, "--strategy", "random").strategy == "random"
        assert parse(*command).strategy == "greedy"
    assert parse("manhattan", "new", "--bot", "random").strategy == "random"
    usage = subprocess.run(
        [sys.executable, "-m", "clients.cli", "manhattan", "new", "--help"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout  # fmt: skip
    assert "--strategy" in usage and "--bot " not in usage and "--bot\n" not in usage


def _options(parser, game: str, command: str) -> set[str]:
    """The options a subcommand shows in its help (the common ones aside)."""
    sub = parser._subparsers._group_actions[0].choices[game]
    cmd = sub._subparsers._group_actions[0].choices[command]
    common = {"-h", "--help", "--json", "--url", "-g", "--game-id", "--seat", "--token"}
    common.add("--no-player")  # a common option too (docs/cli.md says so)
    return {
        opt
        for action in cmd._actions
        if action.help != "==SUPPRESS=="
        for opt in action.option_strings
        if opt.startswith("--") and opt not in common
    }


def test_the_synopsis_in_docs_lists_every_option() -> None:
    """docs/cli.md's synopsis of ``new`` lacked --bots, --bot, --clock and --option; now
    every option of every game command is in its synopsis entry (a ``boardgames`` line
    and the indented lines under it)."""
    doc = (ROOT / "docs" / "cli.md").read_text()
    block = doc.split("## The CLI", 1)[1].split("```", 2)[1]
    entries: list[str] = []
    for line in block.strip().splitlines():
        if line.startswith("boardgames"):
            entries.append(line)
        else:
            entries[-1] += " " + line
    parser = build_parser()
    for game in ("manhattan", "windcity"):
        for command in ("new", "list", "join", "show", "move", "events", "verify"):
            found = [
                e for e in entries if re.match(rf"boardgames ({game}|GAME)\s+\S*\b{command}\b", e)
            ]
            assert found, (game, command)
            missing = {o for o in _options(parser, game, command) if o not in " ".join(found)}
            assert not missing, (game, command, missing)
    for command in ("play", "watch", "bot"):
        found = [e for e in entries if e.startswith(f"boardgames {command} GAME")]
        missing = {o for o in _options(parser, "manhattan", command) if o not in " ".join(found)}
        assert not missing, (command, missing)


def test_a_quota_refusal_through_the_cli_names_the_rows(live_windcity: str, tmp_path: Path) -> None:
    """The live service refuses a seventh house in a section (quota-full) naming
    ``section L1``; ``boardgames windcity move`` says which rows that is."""
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(tmp_path),
        "WINDCITY_URL": live_windcity,
        "PYTHONPATH": str(ROOT),
    }

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "clients.cli", "windcity", *args],
            capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
        )  # fmt: skip

    gid = json.loads(cli("new", "--players", "2", "--join", "me", "--json").stdout)["id"]
    other = WindCityClient(live_windcity)
    other.join(gid, "bob")
    cli("start")
    me = WindCityClient(live_windcity, json.loads((tmp_path / "tokens.json").read_text())[
        "windcity"][gid]["seats"]["0"]["token"])  # fmt: skip
    for _ in range(60):  # our houses in section 1 (rows 5-9) until it is full
        view = me.view(gid)
        seat = view["to_act"][0]
        c = me if seat == 0 else other
        legal = [m for m in c.legal_moves(gid) if m.get("square")]
        if seat == 0 and view["state"]["phase"] == "houses":
            mine = [h for h in view["state"]["houses"] if h["owner"] == 0]
            if sum(5 <= int(h["square"][1:]) <= 9 for h in mine) == view["state"]["quota"]:
                break
            legal = [m for m in legal if 5 <= int(m["square"][1:]) <= 9] or legal
        c.move(gid, legal[0])
    else:
        pytest.fail("section 1 never filled")
    free = next(
        f"{col}{row}"
        for row in range(6, 10)
        for col in "ABCDEFGHIJKL"
        if f"{col}{row}" not in {h["square"] for h in view["state"]["houses"]}
    )
    refused = cli("move", free)
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.startswith("error: ") and "(quota-full)" in refused.stderr
    assert "section L1 (rows 5–9)" in (refused.stderr), refused.stderr

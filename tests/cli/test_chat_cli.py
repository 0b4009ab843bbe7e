"""The table chat in the CLI (issue 41) against the live services: ``say`` (text and
canned phrases by code), ``chat`` (the history, in the CLI's language), ``phrases``,
``mute``; ``play`` shows the messages that arrive while it waits and sends them from its
prompt; ``watch`` shows them among the events, a watcher's own ``say`` included. A
message's words are printed as they are: no rich markup, no terminal control
characters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from clients.cli.__main__ import main
from clients.cli.chat import clean, line
from clients.cli.client import ManhattanClient

ROOT = Path(__file__).resolve().parents[2]


def phrase(base: str, code: str, language: str) -> str:
    answer = requests.get(f"{base}/chat/phrases", headers={"Accept-Language": language}, timeout=5)
    return next(p["text"] for p in answer.json()["phrases"] if p["code"] == code)


def _table(cli) -> str:
    """Ann (seat 0, the host) and Bob (seat 1) at a started 2-player Manhattan game."""
    gid = json.loads(cli("manhattan", "new", "--players", "2", "--join", "ann", "--json").stdout)[
        "id"
    ]
    cli("manhattan", "join", gid, "--name", "bob", "--json", home="bob")
    cli("manhattan", "start", gid)
    return gid


def _watch(base: str, gid: str, home: Path) -> subprocess.Popen[str]:
    """``boardgames watch`` of ``gid`` in a process of its own, as the player of ``home``."""
    env = {
        **os.environ,
        "MANHATTAN_URL": base,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "120",
        "LANG": "C",
        "BOARDGAMES_HOME": str(home),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "watch", "manhattan", gid, "--wait", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_say_chat_phrases_and_mute(cli, live_manhattan: str) -> None:
    gid = _table(cli)
    markup = "hello <b>bob</b> [bold]not bold[/bold] [link=https://x.example]x[/link]"
    said = cli("manhattan", "say", gid, markup)
    assert f"0:ann: {markup}" in said.stdout  # printed as it is, not as rich markup
    escape = cli("manhattan", "say", gid, "\x1b[31mred", check=False)
    assert escape.returncode == 1 and "validation-error" in escape.stderr  # refused
    german = phrase(live_manhattan, "gg", "de")
    bob = cli("manhattan", "say", "--phrase", "gg", "-g", gid, "--lang", "de", home="bob")
    assert f"1:bob: {german}" in bob.stdout
    japanese = phrase(live_manhattan, "gg", "ja")
    history = cli("manhattan", "chat", gid, "--lang", "ja").stdout
    assert f"1:bob: {japanese}" in history and "0:ann: hello" in history
    messages = json.loads(cli("manhattan", "chat", gid, "--json").stdout)["messages"]
    assert [(m["seat"], m["text"], m["phrase"]) for m in messages] == [
        (0, markup, None),
        (1, None, "gg"),
    ]
    codes = json.loads(cli("manhattan", "phrases", "--json").stdout)["phrases"]
    assert {"gg", "your_turn", "thanks", "sorry_must_go", "well_played"} <= {
        p["code"] for p in codes
    }
    cli("manhattan", "mute", "1", "-g", gid)
    cli("manhattan", "say", "-g", gid, "still", "here", home="bob")
    mine = json.loads(cli("manhattan", "chat", gid, "--json").stdout)["messages"]
    assert [m["seat"] for m in mine] == [0]
    cli("manhattan", "mute", "1", "--undo", "-g", gid)
    again = json.loads(cli("manhattan", "chat", gid, "--json").stdout)["messages"]
    assert [m.get("text") for m in again if m["seat"] == 1][-1] == "still here"


def test_block_and_report(cli, tmp_path: Path, live_manhattan: str) -> None:
    ann = json.loads(cli("register", "ann", "--json").stdout)
    bob = json.loads(cli("register", "bob", "--json", home="bob").stdout)
    gid = _table(cli)
    said = json.loads(cli("manhattan", "say", "-g", gid, "buy gold", "--json", home="bob").stdout)
    report = cli("manhattan", "report", said["id"], "--reason", "spam", "-g", gid, "--json")
    assert json.loads(report.stdout)["kind"] == "message"
    player = cli("manhattan", "report", "--player", bob["id"], "--reason", "cheating", "--json")
    assert json.loads(player.stdout)["kind"] == "player"
    assert "blocked" in cli("manhattan", "block", bob["id"]).stdout
    self_block = cli("manhattan", "block", ann["id"], "--json", check=False)
    assert self_block.returncode == 1 and json.loads(self_block.stderr)["status"] == 422
    path = tmp_path / "ann.json"
    cli("export", "--output", str(path))
    mine = json.loads(path.read_text())["services"]["manhattan"]["moderation"]
    assert [b["player"] for b in mine["blocks"]] == [bob["id"]]
    assert sorted((r["kind"], r["reason"]) for r in mine["reports"]) == [
        ("message", "spam"),
        ("player", "cheating"),
    ]
    assert "unblocked" in cli("manhattan", "block", bob["id"], "--undo").stdout
    nobody = cli("manhattan", "block", ann["id"], home="cy", check=False)
    assert nobody.returncode == 2 and "register" in nobody.stderr


def test_refusals_are_one_line_with_their_code(cli, live_manhattan: str) -> None:
    gid = _table(cli)
    long = cli("manhattan", "say", "-g", gid, "x" * 501, check=False)
    assert long.returncode == 1 and long.stderr.count("\n") == 1, long.stderr
    unknown = cli("manhattan", "say", "--phrase", "nope", "-g", gid, "--json", check=False)
    assert unknown.returncode == 1 and json.loads(unknown.stderr)["status"] == 422
    empty = cli("manhattan", "say", "-g", gid, check=False)
    assert empty.returncode == 2
    bad = cli("manhattan", "mute", "bob", "-g", gid, check=False)
    assert bad.returncode == 2


def test_play_shows_messages_while_waiting_and_says_from_its_prompt(
    live_manhattan: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    host = ManhattanClient(live_manhattan)
    gid = host.create(2, seed=41)["id"]
    seats = {}
    for name in ("ann", "bob"):
        c = ManhattanClient(live_manhattan)
        c.join(gid, name)
        seats[c.seat] = c
    host.start(gid)
    first = host.view(gid, spectator=True)["to_act"][0]
    me, other = seats[1 - first], seats[first]
    monkeypatch.setenv("BOARDGAMES_HOME", str(tmp_path))
    monkeypatch.setenv("MANHATTAN_URL", live_manhattan)
    from clients.cli.tokens_store import TokenStore

    TokenStore().add_seat("manhattan", gid, me.seat, me.token, "me", live_manhattan)

    def other_plays() -> None:
        time.sleep(1.0)  # play is waiting by now
        other.say(gid, text="take your time [red]friend[/red]")
        time.sleep(0.5)
        other.move(gid, other.legal_moves(gid)[0])

    threading.Thread(target=other_plays, daemon=True).start()
    typed = iter(["say thanks, you too", "say --phrase gg", "phrases"])
    before_turn: list[str] = []

    def answer(prompt: str) -> str:
        if not before_turn:
            before_turn.append(capsys.readouterr().out)  # what play printed before our turn
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", answer)
    assert main(["manhattan", "play", gid, "--full"]) == 0
    out = capsys.readouterr().out
    theirs = f"{other.seat}:{'ann' if other.seat == 0 else 'bob'}"
    assert f"{theirs}: take your time [red]friend[/red]" in before_turn[0], before_turn[0][-2000:]
    said = [(m["seat"], m["text"], m["phrase"]) for m in me.chat_all(gid, me.token)]
    assert said[-2:] == [(me.seat, "thanks, you too", None), (me.seat, None, "gg")]
    assert "Good game" in out and "your_turn" in out  # the phrase sent, then the list


def test_watch_shows_the_messages_among_the_events(
    cli, live_manhattan: str, tmp_path: Path
) -> None:
    gid = _table(cli)
    watch = _watch(live_manhattan, gid, tmp_path / "watcher")  # no seat of its own
    try:
        time.sleep(2.0)
        cli("manhattan", "say", "-g", gid, "watch this", home="bob")
        time.sleep(1.0)
        cli("manhattan", "cancel", gid)
        out, err = watch.communicate(timeout=60)
    finally:
        watch.kill()
    assert watch.returncode == 0, err
    assert "1:bob: watch this" in out, out[-2000:]


def test_a_watcher_says_a_phrase_by_name_and_watch_shows_it(
    cli, live_manhattan: str, tmp_path: Path
) -> None:
    """A player without a seat watching a table where spectators talk sends ``say
    --phrase`` (the spectators' channel, with its player key); ``watch`` shows it among
    the events, and the seats do not read it while the game runs."""
    made = cli("manhattan", "new", "--players", "2", "--join", "ann", "--json", "--option",
               "spectator_chat=true")  # fmt: skip
    gid = json.loads(made.stdout)["id"]
    cli("manhattan", "join", gid, "--name", "bob", "--json", home="bob")
    cli("manhattan", "start", gid)
    cli("register", "cy", "--json", home="cy")
    watch = _watch(live_manhattan, gid, tmp_path / "cy")
    try:
        time.sleep(2.0)
        said = cli("manhattan", "say", "-g", gid, "--phrase", "good_luck", home="cy")
        good_luck = phrase(live_manhattan, "good_luck", "en")
        assert f"cy (spectator): {good_luck}" in said.stdout, said.stdout
        seat = json.loads(cli("manhattan", "chat", gid, "--json", home="bob").stdout)
        assert seat["messages"] == []  # no ghosting through the spectators' channel
        time.sleep(1.0)
        cli("manhattan", "cancel", gid)
        out, err = watch.communicate(timeout=60)
    finally:
        watch.kill()
    assert watch.returncode == 0, err
    assert f"cy (spectator): {good_luck}" in out, out[-2000:]


def test_watch_takes_a_watch_link(live_manhattan: str, tmp_path: Path) -> None:
    """A private table is watched by link only: ``watch LINK`` reads it with the link's
    code (and shows its chat); without the code the service refuses."""
    host = ManhattanClient(live_manhattan)
    made = host.create(2, seed=47, visibility="unlisted")
    gid, link = made["id"], live_manhattan + made["watch_link"]
    seats = []
    for name in ("ann", "bob"):
        c = ManhattanClient(live_manhattan)
        c.join(gid, name, invite=made["invite_code"])
        seats.append(c)
    host.start(gid)
    env = {
        **os.environ,
        "MANHATTAN_URL": live_manhattan,
        "PYTHONPATH": str(ROOT),
        "LANG": "C",
        "BOARDGAMES_HOME": str(tmp_path),
    }
    command = [sys.executable, "-m", "clients.cli", "watch", "manhattan"]
    refused = subprocess.run(
        [*command, gid, "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert refused.returncode == 1 and "watch-link-required" in refused.stderr
    watch = subprocess.Popen(
        [*command, link, "--json", "--wait", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        time.sleep(2.0)
        seats[1].say(gid, text="psst")
        time.sleep(1.0)
        host.cancel(gid)
        out, err = watch.communicate(timeout=60)
    finally:
        watch.kill()
    assert watch.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    said = [e["message"]["text"] for e in events if e.get("type") == "chat"]
    assert said == ["psst"] and events[-1]["status"] == "cancelled"
    history = subprocess.run(
        [sys.executable, "-m", "clients.cli", "manhattan", "chat", link, "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert [m["text"] for m in json.loads(history.stdout)["messages"]] == ["psst"]


def test_a_message_line_keeps_the_words_and_drops_control_characters() -> None:
    assert clean("a\x1b[2Jb\u202ec\nd\u200de") == "a [2Jb c / d\u200de"
    message = {"seat": None, "name": "cy", "text": "hi", "at": None}
    assert line(message) == "cy (spectator): hi"
    gone = {"seat": 1, "name": "bob", "deleted": True, "text": None, "phrase": None}
    assert line(gone) == "1:bob: (message removed by a moderator)"

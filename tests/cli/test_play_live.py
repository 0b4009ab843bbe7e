"""``play`` against the live services while the game moves under it (issue 29, items 10
and 11): the insurance market where every other seat answers at the same moment as you,
a whole Wind City game against three server bots played through ``play`` at 80x24, and
``play`` in a real 80x24 terminal (tmux)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from clients.cli.__main__ import main
from clients.cli.bots import play_seat, random_strategy
from clients.cli.client import WindCityClient

ROOT = Path(__file__).resolve().parents[2]


def _to_a_shared_market(url: str) -> tuple[str, WindCityClient, dict[int, WindCityClient]]:
    """A 3-player Wind City game played (first legal move each) until seat 0 and another
    seat both have to answer an insurance market. Returns (id, seat 0, the others); the
    host is the first of the others' ``host_token``."""
    host = WindCityClient(url)
    gid = host.create(3, seed=29)["id"]
    seats = {}
    for name in ("me", "bob", "cy"):
        c = WindCityClient(url)
        c.join(gid, name)
        seats[c.seat] = c
    host.start(gid)
    for _ in range(400):
        view = host.view(gid, spectator=True)
        to_act = view["to_act"]
        if view["state"]["phase"] == "insure" and 0 in to_act and len(to_act) > 1:
            seats[1].host_token = host.host_token
            return gid, seats[0], {s: c for s, c in seats.items() if s != 0}
        seat = next(s for s in to_act if s != 0) if to_act != [0] else 0
        c = seats[seat]
        c.move(gid, c.legal_moves(gid)[0])
    raise AssertionError("no insurance market with two seats to answer")


def test_an_insurance_answer_goes_through_while_the_others_answer(
    live_windcity: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Item 10: between the menu and the answer, another seat insures (the version moves
    on). ``play`` used to send the old version again and again (version-mismatch for
    every retry); now it reads the game again, says what happened and sends the answer
    at the new version."""
    gid, me, others = _to_a_shared_market(live_windcity)
    monkeypatch.setenv("BOARDGAMES_HOME", str(tmp_path))
    monkeypatch.setenv("WINDCITY_URL", live_windcity)
    from clients.cli.tokens_store import TokenStore

    TokenStore().add_seat("windcity", gid, 0, me.token, "me", live_windcity)
    start = me.view(gid)["version"]
    prompts = []

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 2:
            raise EOFError
        if len(prompts) == 1:
            view = me.view(gid, spectator=True)
            for seat, c in others.items():  # the others answer while we read the menu
                if seat in view["to_act"]:
                    c.move(gid, {"type": "insure", "squares": []})
            for c in others.values():  # then play on, so the game comes back to us
                threading.Thread(
                    target=play_seat, args=(c, gid, random_strategy), daemon=True
                ).start()
        return "1"

    monkeypatch.setattr("builtins.input", typed)
    try:
        assert main(["windcity", "play", gid, "--full"]) == 0
    finally:
        others[1].cancel(gid)  # the bot threads end with the game
    out = capsys.readouterr().out
    events = me.log(gid)["events"]
    ours = [e for e in events if e["version"] > start and e.get("seat") == 0]
    assert ours and ours[0]["type"] == "insured", out[-3000:]  # our answer was taken
    assert "version-mismatch" not in out
    assert "while you chose:" in out and "insured nothing" in out
    assert "your options are the same: insure nothing sent again" in out


class Typist:
    """A player at a pipe: answers each prompt of ``play`` with ``answer`` after ``delay``
    seconds (as a person would, so the bots move while the menu is read)."""

    PROMPT = "your move ("

    def __init__(self, proc: subprocess.Popen, answer: str = "1", delay: float = 0.15) -> None:
        self.proc, self.answer, self.delay = proc, answer, delay
        self.out = ""
        self.prompts = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 65536):
            with self.lock:
                self.out += chunk.decode("utf-8", "replace")

    def play(self, deadline: float) -> None:
        assert self.proc.stdin is not None
        while self.proc.poll() is None and time.monotonic() < deadline:
            with self.lock:
                waiting = self.out.count(self.PROMPT) > self.prompts and self.out.endswith(": ")
            if not waiting:
                time.sleep(0.02)
                continue
            time.sleep(self.delay)
            self.prompts += 1
            if self.out.count("version-mismatch") > 5:  # locked out (the old behaviour)
                break
            try:
                self.proc.stdin.write(self.answer + "\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                break
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        time.sleep(0.2)  # the reader's last chunk


def _screens(out: str, head: str) -> list[list[str]]:
    """Each compact screen of ``play``'s output: from its header line to the prompt."""
    screens, current = [], None
    for line in out.split("\n"):
        if line.startswith(head):
            current = [line]
        elif current is not None:
            if Typist.PROMPT in line:
                screens.append(current)
                current = None
            else:
                current.append(line)
    return screens


@pytest.mark.slow
def test_windcity_against_three_server_bots_through_play_to_the_end(
    live_windcity: str, workers, tmp_path: Path
) -> None:
    """The walk-through of item 10, to the end of the game: ``new --bots 3`` then ``play``
    at 80x24 (``--compact``), a player answering every prompt after a short pause, three
    greedy server bots answering every insurance market at the same time. The game
    finishes; no answer is ever refused for a stale version; every screen fits 80x24."""
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(tmp_path),
        "WINDCITY_URL": live_windcity,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "80",
        "LINES": "24",
    }
    cli = [sys.executable, "-m", "clients.cli"]
    made = subprocess.run(
        [*cli, "windcity", "new", "--bots", "3", "--seed", "7"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    found = re.search(r"game ([0-9a-f]{16})", made.stdout)
    assert found, made.stdout
    gid = found.group(1)
    proc = subprocess.Popen(
        [*cli, "windcity", "play", "--compact"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    typist = Typist(proc)
    typist.play(deadline=time.monotonic() + 400)
    out = typist.out
    assert proc.returncode == 0, (proc.stderr.read() if proc.stderr else "") + out[-3000:]
    assert "version-mismatch" not in out, out[-3000:]
    final = WindCityClient(live_windcity).view(gid)
    assert final["status"] == "finished", out[-3000:]
    assert "winner: " in out and "Result" in out
    assert typist.prompts >= 20  # houses, plans and insurance answers: all through play
    assert out.count(" insured ") >= 3 and "you insured" in out
    screens = _screens(out, f"Wind City {gid} v")
    assert len(screens) >= typist.prompts // 2
    for screen in screens:
        assert len(screen) <= 23, "\n".join(screen)  # the prompt takes the 24th line
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)


TMUX = f"bgtest{os.getpid()}"


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", TMUX, *args], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_play_in_a_real_80x24_terminal(live_manhattan: str, workers, tmp_path: Path) -> None:
    """Item 11 in a real terminal (tmux, 80x24): ``play`` picks the compact screen by
    itself; the header, all six cities, the hand, the menu and the prompt are on screen
    together; the menu pages; a move that is not on the page shown is taken in notation,
    and a move by its number."""
    env = f"BOARDGAMES_HOME={tmp_path} MANHATTAN_URL={live_manhattan} PYTHONPATH={ROOT}"
    cli = f"{sys.executable} -m clients.cli"
    script = tmp_path / "run.sh"
    script.write_text(
        f"cd {ROOT} && unset LINES COLUMNS && export {env} TERM=xterm-256color && "
        f"{cli} manhattan new --bots 3 --seed 3 >/dev/null && {cli} manhattan play; "
        "echo play-exit=$?; sleep 30\n"
    )
    _tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", f"bash {script}")

    def whole(lines: list[str]) -> bool:
        """The whole screen is in the pane: its header line up to the prompt."""
        return lines[-1].startswith("your move") and any(
            line.startswith("Manhattan ") for line in lines
        )

    def screen(
        until: str, timeout: float = 30, history: bool = False, drawn: bool = False
    ) -> list[str]:
        """The visible pane (or its scrollback too) once ``until`` shows on it (and, with
        ``drawn``, the whole screen is drawn down to its prompt: not caught mid-redraw)."""
        deadline = time.monotonic() + timeout
        back = ["-S", "-100"] if history else []
        while True:
            lines = _tmux("capture-pane", "-p", *back, "-t", "play").rstrip("\n").split("\n")
            shown = any(until in line for line in lines) and (not drawn or whole(lines))
            if shown or time.monotonic() > deadline:
                return lines
            time.sleep(0.2)

    def keys(text: str) -> None:
        _tmux("send-keys", "-t", "play", "-l", text)
        _tmux("send-keys", "-t", "play", "Enter")

    try:
        first = screen("your move", drawn=True)
        text = "\n".join(first)
        assert whole(first), text
        for city in ("1 New York", "2 Sydney", "3 Frankfurt", "4 Hong Kong", "6 Cairo"):
            assert city in text, text
        assert "Your hand" in text and "select 1 1 1 1 1 1" in text
        assert "page 1/" in text and all(len(line) <= 80 for line in first)
        keys("n")
        second = "\n".join(screen("page 2/", drawn=True))
        assert "page 2/" in second and whole(second.splitlines()), second
        chosen = re.findall(r"\d+\. (select [1-4 ]+?)(?=  |$)", second, re.M)[-1]
        keys("p")  # back to page 1, where that move is not shown
        assert chosen not in "\n".join(screen("page 1/", drawn=True))
        keys(chosen)  # a move from another page, typed in notation
        assert f"you selected {chosen[7:]}" in "\n".join(screen("you selected", 30, history=True))
        build = "\n".join(screen("phase build", 60))
        assert "phase build" in build and whole(build.splitlines()), build
        number, city, lot, floors = re.findall(r"(\d+)\. (\d) (\d) (\d)\b", build)[-1]
        keys(number)  # a move by its number
        after = "\n".join(screen("you built", 30, history=True))
        assert f"you built {floors} floor" in after and f"city {city} lot {lot}" in after, after
        screen("your move", 60)
        keys("q")
        assert "play-exit=0" in "\n".join(screen("play-exit=", 15))
    finally:
        subprocess.run(["tmux", "-L", TMUX, "kill-server"], capture_output=True)

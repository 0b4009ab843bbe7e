"""The CLI in the user's language (issue 34): ``--lang``, else ``LC_ALL``, ``LC_MESSAGES``,
``LANG``; English, Japanese and German. Every text the code marks has a translation in
every catalog with the same ``{fields}``; boards, legends, results, menus and refusals
come out translated in the game's own words (the browser client's); English is as it
was; JSON output and problem codes never change with the language."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from clients.cli import __main__ as cli_main
from clients.cli import catalogs, i18n, players, ratings, render, verify
from clients.cli.client import GameClient
from clients.cli.i18n import _

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------------- catalogs


def test_every_catalog_has_every_text_of_the_code() -> None:
    """``scripts/i18n.py check`` for the CLI: the .pot is the code's, no language lacks a
    msgid, leaves one empty or fuzzy, or changes its fields."""
    assert catalogs.problems() == []


def test_fields_match_and_the_game_words_are_the_browsers() -> None:
    pot = catalogs.template_catalog()
    assert len(pot) > 150
    for language in i18n.LANGUAGES[1:]:
        catalog = catalogs.read(i18n.catalog_path(language), language)
        for message in catalog:
            if not message.id:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            strings = [message.string] if isinstance(message.string, str) else message.string
            fields = set().union(*map(catalogs.fields_of, ids))
            for string in strings:
                assert catalogs.fields_of(string) == fields, (language, message.id)
    web = {lang: (ROOT / f"clients/web/i18n/{lang}.json").read_text() for lang in ("ja", "de")}
    for ja, de in (
        ("ハリケーン", "Hurrikan"),
        ("二世帯住宅", "Doppelhaus"),
        ("測候所", "Wetterwarte"),
    ):
        assert ja in web["ja"] and de in web["de"]
        i18n.set_language("ja")
        assert ja in _(render.game_module("windcity").LEGEND)
        i18n.set_language("de")
        assert de in _(render.game_module("windcity").LEGEND)


# ----------------------------------------------------------------------------- choosing


@pytest.mark.parametrize(
    ("flag", "environ", "language"),
    [
        (None, {}, "en"),
        (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
        (None, {"LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LANG": "de_AT@euro"}, "de"),
        (None, {"LANG": "C"}, "en"),
        (None, {"LANG": "POSIX"}, "en"),
        (None, {"LANG": "C.UTF-8"}, "en"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),  # a language the CLI does not speak
        (None, {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
        (None, {"LANG": "de_DE", "LC_MESSAGES": "ja_JP", "LC_ALL": "C"}, "en"),
        (None, {"LANG": "ja_JP", "LC_ALL": "de_DE.UTF-8"}, "de"),
        (None, {"LANG": "ja_JP", "LC_ALL": ""}, "ja"),  # set but empty: not set
        ("de", {"LC_ALL": "ja_JP.UTF-8"}, "de"),  # --lang first
        ("ja-JP", {}, "ja"),
        ("en", {"LANG": "de_DE.UTF-8"}, "en"),
        ("xx", {"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_language_chosen(flag: str | None, environ: dict[str, str], language: str) -> None:
    assert i18n.choose(flag, environ) == language


@pytest.mark.parametrize(
    ("argv", "rest", "flag"),
    [
        (["manhattan", "show"], ["manhattan", "show"], None),
        (["--lang", "ja", "manhattan", "show"], ["manhattan", "show"], "ja"),
        (["manhattan", "show", "--lang=de", "-g", "x"], ["manhattan", "show", "-g", "x"], "de"),
        (
            ["manhattan", "move", "--", "--lang", "ja"],
            ["manhattan", "move", "--", "--lang", "ja"],
            None,
        ),
    ],
)
def test_lang_anywhere_on_the_command_line(argv: list[str], rest: list[str], flag: str) -> None:
    assert cli_main.split_lang(argv) == (rest, flag)


def test_the_services_are_asked_in_the_same_language(monkeypatch, capsys) -> None:
    """``main`` sets the language of the output and of ``Accept-Language``; ``--json``
    output stays English whatever the environment says."""
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    move = ["manhattan", "move", "-g", "0123456789abcdef", "--token", "t", "select", "x"]
    assert cli_main.main(move) == 2
    assert "数字が必要です" in capsys.readouterr().err
    assert GameClient.language == "ja"
    assert GameClient("http://x")._headers("t")["Accept-Language"] == "ja"
    assert cli_main.main(["--lang", "de", *move]) == 2
    assert "Zahlen erwartet" in capsys.readouterr().err
    assert cli_main.main([*move, "--json"]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert problem == {"error": "usage", "detail": "select: expected numbers, got 'x'"}
    assert GameClient.language == "en"


# ----------------------------------------------------------------------------- commands


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "error: no --game-id given and no game remembered"),
        ("ja", "エラー: --game-id の指定がなく"),
        ("de", "Fehler: kein --game-id angegeben"),
    ],
)
def test_usage_errors_of_the_commands(language: str, words: str, tmp_path, monkeypatch, capsys):
    """The commands' own refusals (no game remembered, no player, two game ids) are in
    the language; with ``--json`` the same refusal is English, for scripts."""
    monkeypatch.setenv("BOARDGAMES_HOME", str(tmp_path))
    assert cli_main.main(["--lang", language, "manhattan", "start"]) == 2
    assert capsys.readouterr().err.startswith(words)
    assert cli_main.main(["--lang", language, "windcity", "quick"]) == 2
    quick = capsys.readouterr().err
    assert "boardgames register NAME" in quick and (language == "en") == ("quick needs" in quick)
    two = ["manhattan", "show", "0123456789abcdef", "-g", "fedcba9876543210"]
    assert cli_main.main(["--lang", language, *two]) == 2
    assert "0123456789abcdef" in capsys.readouterr().err
    assert cli_main.main(["--lang", language, "manhattan", "start", "--json"]) == 2
    problem = json.loads(capsys.readouterr().err)
    assert problem["detail"].startswith("no --game-id given")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ("yours, due in 1h30m", "won (shared)", "rank 2 of 3", "1 rated game")),
        (
            "ja",
            (
                "あなたの番 残り1時間30分",
                "勝利(同点)",
                "3 人中 2 位",
                "レーティング対象 1 ゲーム",
            ),
        ),
        (
            "de",
            (
                "du, noch 1 Std. 30 Min.",
                "gewonnen (geteilt)",
                "Platz 2 von 3",
                "1 gewertete Partie",
            ),
        ),
    ],
)
def test_players_and_ratings_in_each_language(language: str, expected: tuple[str, ...]) -> None:
    i18n.set_language(language)
    due, shared, rank, rated = expected
    now = datetime(2030, 1, 1, tzinfo=UTC)
    game = {"my_turn": True, "deadline": (now + timedelta(hours=1, minutes=30)).isoformat()}
    assert players.turn_cell(game, now).plain == due
    result = {"winners": [0, 1], "standings": []}
    assert players.result_cell({"seat": 0, "result": result}) == shared
    standings = [{"seat": s, "rank": s + 1} for s in range(3)]
    assert (
        players.result_cell({"seat": 1, "result": {"winners": [0], "standings": standings}}) == rank
    )
    rating = {"games": 1, "rating": 1136, "games_to_rank": 2, "win_share": 1.0}
    line = ratings.rating_line("manhattan", rating).plain
    assert rated in line and "1136" in line and "2" in line.split(rated)[1]
    assert "1000" in ratings.rating_line("windcity", None).plain


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "the game is running: its seed is revealed only once it is over"),
        ("ja", "ゲームは running です"),
        ("de", "die Partie ist running"),
    ],
)
def test_verify_says_why_in_each_language(language: str, words: str) -> None:
    i18n.set_language(language)
    report = verify.verify("manhattan", {"id": "g", "status": "running"})
    assert not report.ok and report.checks[0]["check"] == "over"  # the key stays
    assert words in str(report.failure())


# ----------------------------------------------------------------------------- live


def test_the_real_cli_in_german_and_japanese(tmp_path: Path, live_manhattan: str) -> None:
    """``boardgames`` as a subprocess against the service: the board in the environment's
    language, a refusal in the service's words for that language (``Accept-Language``),
    the same refusal with ``--json`` unchanged (English, the same code)."""
    env = {
        **os.environ,
        "BOARDGAMES_HOME": str(tmp_path / "home"),
        "MANHATTAN_URL": live_manhattan,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "120",
    }
    env.pop("LC_ALL", None)

    def run(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "clients.cli", *args],
            capture_output=True,
            text=True,
            env={**env, "LANG": lang},
            timeout=90,
            cwd=ROOT,
        )

    created = json.loads(
        run("manhattan", "new", "--players", "2", "--json", lang="ja_JP.UTF-8").stdout
    )
    gid = created["id"]
    made = run("manhattan", "new", "--players", "2", lang="de_DE.UTF-8")
    assert made.returncode == 0 and "Manhattan-Partie" in made.stdout and "erstellt" in made.stdout
    helped = run("manhattan", "join", "--help", lang="ja_JP.UTF-8").stdout
    assert helped.startswith("使い方: ") and "非公開ゲームの招待コード" in helped
    shown = run("manhattan", "show", gid, "--spectator", lang="ja_JP.UTF-8")
    assert shown.returncode == 0 and "(未開始)" in shown.stdout and "凡例" in shown.stdout
    refused = run("manhattan", "start", gid, "--token", "nope", lang="de_DE.UTF-8")
    assert refused.returncode == 1
    assert "invalid-token" in refused.stderr and "gilt nicht" in refused.stderr
    as_json = run("manhattan", "start", gid, "--token", "nope", "--json", lang="de_DE.UTF-8")
    problem = json.loads(as_json.stderr)
    assert problem["code"] == "invalid-token"
    assert problem["detail"] == "This token is not valid for this game."

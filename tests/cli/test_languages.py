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
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from clients.cli import __main__ as cli_main
from clients.cli import catalogs, i18n, players, ratings, render, verify
from clients.cli.client import GameClient
from clients.cli.i18n import _, ngettext, person
from clients.cli.menu import Menu
from clients.cli.notation import NotationError, parse_move

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Each test leaves the process speaking English, as the other tests expect."""
    yield
    i18n.set_language("en")
    GameClient.language = "en"


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


# ----------------------------------------------------------------------------- rendering


def _manhattan_view() -> dict:
    lots = [{"lot": n, "pieces": []} for n in range(1, 10)]
    lots[6] = {"lot": 7, "owner": 1, "height": 3, "pieces": [{"seat": 1, "floors": 3}]}
    state = {
        "round": 2,
        "rounds": 4,
        "phase": "build",
        "start_player": 0,
        "deck_size": 20,
        "current_player": 1,
        "cities": [{"city": c, "name": "City", "lots": lots} for c in range(1, 7)],
        "players": [
            {"seat": s, "side": "S", "stock": {"1": 3}, "selected": [1], "hand_size": 4}
            for s in (0, 1)
        ],
        "hand": [{"card": 2, "lot": 2}],
    }
    result = {
        "winners": [1],
        "standings": [
            {"seat": 1, "rank": 1, "total": 12, "tallest": 3, "majorities": 2},
            {"seat": 0, "rank": 2, "total": 9, "tallest": 2, "majorities": 1},
        ],
    }
    players = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}]
    return {"id": "g1", "game": "manhattan", "status": "finished", "version": 9, "you": 0} | {
        "players": players,
        "to_act": [1],
        "state": state,
        "result": result,
    }


def _windcity_view() -> dict:
    state = {
        "turn": 3,
        "max_turns": 60,
        "phase": "plan",
        "hurricane": "C4",
        "deck_size": 30,
        "north_edge": 14,
        "land_sections": 2,
        "quota": 6,
        "active": 0,
        "houses": [{"square": "C6", "owner": 0}, {"square": "D5", "owner": 1, "beach": True}],
        "observatories": [{"square": "E7", "marker": True}],
        "players": [
            {"seat": s, "money": 40, "houses_on_board": 6, "stock": 6, "in_game": True}
            for s in (0, 1)
        ],
        "you": {"card": {"number": 7, "actions": [{"kind": "kauf", "cost": 4}]}},
    }
    result = {
        "reason": "north_edge",
        "winners": [0],
        "standings": [
            {"seat": 0, "rank": 1, "total": 90, "house_points": 60, "money": 30, "in_game": True},
            {"seat": 1, "rank": 2, "total": 0, "house_points": 0, "money": 0, "in_game": False},
        ],
    }
    players = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}]
    return {"id": "g2", "game": "windcity", "status": "finished", "version": 40, "you": 0} | {
        "players": players,
        "to_act": [0],
        "state": state,
        "result": result,
    }


EXPECTED = {
    # language: (manhattan view, windcity view, manhattan legend, windcity legend)
    "en": (
        ("round 2/4", "Players", "Your hand", "Result", "winner: bob", "tie-break 1: tallest"),
        ("turn 3/60", "@ hurricane", "money", "still in", "north edge", "Your card 7"),
        ("Legend: lots are numbered",),
        ("Legend: @ hurricane",),
    ),
    "ja": (
        ("ラウンド 2/4", "プレイヤー", "手札", "最終得点", "勝者: bob", "同点時 1: 最高層"),
        ("手番 3/60", "@ ハリケーン", "お金", "参加中", "北の端", "あなたのカード #7", "脱落"),
        ("凡例: エリアの番号は", "ストック"),
        ("凡例: @ ハリケーン", "二世帯住宅", "測候所", "陸地セクション(Land)"),
    ),
    "de": (
        ("Runde 2/4", "Spieler", "Handkarten", "Endstand", "Sieger: bob", "Gleichstand 1"),
        ("Zug 3/60", "@ Hurrikan", "Geld", "noch dabei", "Nordrand", "Deine Karte 7", "aus"),
        ("Legende: die Bauplätze", "Vorrat"),
        ("Legende: @ Hurrikan", "Doppelhaus", "Wetterwarte", "Land-Abschnitts"),
    ),
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_board_legend_and_result_in_each_language(language: str) -> None:
    i18n.set_language(language)
    mh, wc, mh_legend, wc_legend = EXPECTED[language]
    for game, view, words in (
        ("manhattan", _manhattan_view(), mh),
        ("windcity", _windcity_view(), wc),
    ):
        text = render.to_text(render.render_view(game, view), 160)
        for word in words:
            assert word in text, (language, game, word)
    assert all(w in render.legend("manhattan").plain for w in mh_legend)
    assert all(w in render.legend("windcity").plain for w in wc_legend)
    # the notation on the board never changes: lot 7 built by seat 1, three floors high
    assert "7 h3 S1" in render.to_text(render.render_view("manhattan", _manhattan_view()), 160)


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "bob built 2 floors in city 3 lot 7 → height 5 (takes it over)"),
        ("ja", "bob が都市 3 のエリア7 に2階を建てました → 高さ 5階(所有権を奪う)"),
        ("de", "bob hat 2 Stockwerke in Stadt 3 auf Bauplatz 7 gebaut → Höhe 5 (übernimmt es)"),
    ],
)
def test_an_event_line(language: str, line: str) -> None:
    i18n.set_language(language)
    event = {
        "type": "piece_placed",
        "seat": 1,
        "city": 3,
        "lot": 7,
        "floors": 2,
        "height": 5,
        "owner": 1,
        "previous_owner": 0,
    }
    assert render.describe_event("manhattan", event, {0: "ann", 1: "bob"}) == line


def test_the_second_person() -> None:
    """``you`` (the default name against bots) gets its own sentence, in every language."""
    pays, you_pay = i18n.N_("{who} pays {to} {amount} ({why})"), "you pay {to} {amount} ({why})"
    words = {"to": "ann", "amount": 3, "why": "x"}
    assert person("bob", pays, you_pay, **words) == "bob pays ann 3 (x)"
    assert person("you", pays, you_pay, **words) == "you pay ann 3 (x)"
    assert person("You", pays, you_pay, **words) == "You pay ann 3 (x)"
    i18n.set_language("de")
    assert person("you", pays, you_pay, **words) == "du zahlst ann 3 (x)"
    event = {"type": "bankrupt", "seat": 0}
    assert (
        render.describe_event("windcity", event, {0: "you"}) == "du bist pleite und aus dem Spiel"
    )
    assert ngettext("{n} floor", "{n} floors", 1) == "1 Stockwerk"
    assert ngettext("{n} floor", "{n} floors", 3) == "3 Stockwerke"
    i18n.set_language("ja")
    assert ngettext("{n} floor", "{n} floors", 3) == "3階"


def test_menu_and_refusals_in_japanese_fit_their_width() -> None:
    """A Japanese character takes two columns: titles are cut by width, not characters."""
    i18n.set_language("ja")
    moves = [
        {"type": "place", "city": c, "lot": lot, "floors": 1} for c in (1, 2) for lot in (1, 2)
    ]
    menu = Menu.of("manhattan", moves)
    lines = menu.lines(30, max_rows=1)
    assert lines[0].plain.startswith("4 手") and all(line.cell_len <= 30 for line in lines)
    with pytest.raises(NotationError, match="Wind City の手ではありません"):
        parse_move("windcity", "fly away")
    with pytest.raises(NotationError, match="1〜4"):
        menu.pick("9")
    detail = "you already have 6 houses in section L2"
    assert render.game_module("windcity").problem_detail(detail).endswith("L2(10〜14列)")
    i18n.set_language("de")
    refused = "du hast schon 6 Häuser in Sektion L2"
    assert render.game_module("windcity").problem_detail(refused).endswith("(Reihen 10–14)")


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
                "あなたの番、残り 1時間30分",
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
    rating = {"games": 1, "ordinal": 3.4, "mu": 27.6, "sigma": 8.1, "win_share": 1.0}
    assert rated in ratings.rating_line("manhattan", rating).plain


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
    assert made.returncode == 0 and "manhattan-Partie" in made.stdout and "erstellt" in made.stdout
    shown = run("manhattan", "show", gid, "--spectator", lang="ja_JP.UTF-8")
    assert shown.returncode == 0 and "(未開始)" in shown.stdout and "凡例" in shown.stdout
    refused = run("manhattan", "start", gid, "--token", "nope", lang="de_DE.UTF-8")
    assert refused.returncode == 1
    assert "invalid-token" in refused.stderr and "gilt nicht" in refused.stderr
    as_json = run("manhattan", "start", gid, "--token", "nope", "--json", lang="de_DE.UTF-8")
    problem = json.loads(as_json.stderr)
    assert problem["code"] == "invalid-token"
    assert problem["detail"] == "This token is not valid for this game."

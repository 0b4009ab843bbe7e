"""Every word a person reads in the CLI is in their language (issue 39): ``--help`` of
every command and subcommand, argparse's own words, statuses, phases, bot levels, game
and city names and dates; at 80 columns in Japanese nothing that matters is cut (wide
characters take two columns); the bot levels offered; and a game every human resigned
ends with nobody named winner."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta

import pytest
from rich.cells import cell_len

from clients.cli import i18n, players, render, words
from clients.cli.__main__ import build_parser, normalize_argv
from clients.cli.i18n import _
from clients.cli.style import to_text

ENGLISH_WORDS = re.compile(r"\b(the|and|your|game|games|seat|show|usage|options|with)\b")


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and every subparser under it."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += _parsers(sub)
    return found


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    """Every help text and description under ``parser``, as a person reads them."""
    texts = []
    for p in _parsers(parser):
        texts += [p.description or ""]
        for action in p._actions:
            if action.help and action.help != argparse.SUPPRESS:
                texts.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                texts += [a.help for a in action._choices_actions if a.help]
    return [t for t in texts if t]


@pytest.mark.parametrize("language", ["ja", "de"])
def test_every_help_text_is_translated(language: str) -> None:
    i18n.speak_argparse()
    i18n.set_language("en")
    english = _helps(build_parser())
    i18n.set_language(language)
    translated = _helps(build_parser())
    assert len(translated) == len(english) > 150
    same = [e for e, t in zip(english, translated, strict=True) if e == t]
    assert same == []
    if language == "ja":  # no English sentence is left in a Japanese help text
        assert [t for t in translated if ENGLISH_WORDS.search(t)] == []


@pytest.mark.parametrize(
    ("language", "heading", "option_help"),
    [
        ("ja", "使い方: ", "このヘルプを表示して終了します"),
        ("de", "Aufruf: ", "diese Hilfe zeigen"),
    ],
)
def test_help_pages_and_usage_errors_in_the_language(
    language: str, heading: str, option_help: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # every page fits 80 columns, wide characters too
    i18n.set_language(language)
    i18n.speak_argparse()
    try:
        parser = build_parser()
        for p in _parsers(parser):
            page = p.format_help()
            assert page.startswith(heading), page
            assert option_help in page and "show this help" not in page
            assert "positional arguments" not in page and "\noptions:" not in page
            assert max(cell_len(line) for line in page.splitlines()) <= 80, page
        assert [w for w in i18n.ARGPARSE if _(w) == w] == []
    finally:
        i18n.set_language("en")
        i18n.speak_argparse()


def test_bot_levels_everywhere_a_bot_is_seated() -> None:
    def parse(*argv: str) -> argparse.Namespace:
        return build_parser().parse_args(normalize_argv(list(argv)))

    for level in ("random", "greedy", "medium", "strong"):
        assert parse("manhattan", "new", "--bots", "3", "--strategy", level).strategy == level
        assert parse("play", "windcity", "--bots", "1", "--strategy", level).strategy == level
    new_page = next(p for p in _parsers(build_parser()) if p.prog.endswith("manhattan new"))
    new = " ".join(new_page.format_help().split())
    assert "strong: looks furthest ahead" in new and "greedy: the move that scores best" in new
    i18n.set_language("ja")
    assert (words.level("strong"), words.level("greedy")) == ("上級", "貪欲")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", ("進行中", "カード選択", "ニューヨーク", "マンハッタン", "上級")),
        ("de", ("läuft", "Karten wählen", "Kairo", "Manhattan", "stark")),
    ],
)
def test_the_services_values_in_words(language: str, expected: tuple[str, ...]) -> None:
    i18n.set_language(language)
    city = "New York" if language == "ja" else "Cairo"
    got = (words.status("running"), words.phase("select"), words.city(city))
    assert got + (words.game("manhattan"), words.level("strong")) == expected
    assert words.status("paused") == "paused"  # a value this client does not know: as is


def test_dates_in_the_users_locale() -> None:
    stamp = "2026-03-04T05:06:07+00:00"
    local = datetime.fromisoformat(stamp).astimezone()
    i18n.set_language("ja")
    assert words.when(stamp, date_only=True) == f"{local.year}/{local.month:02d}/{local.day:02d}"
    i18n.set_language("de")
    assert words.when(stamp, date_only=True) == f"{local.day:02d}.{local.month:02d}.{local.year}"
    assert words.when("not a time") == "not a time" and words.when(None) == ""


def _my_games(now: datetime) -> list[dict]:
    return [
        {
            "game": "manhattan",
            "id": "0123456789abcdef",
            "status": "running",
            "seat": 0,
            "my_turn": True,
            "deadline": (now + timedelta(hours=3)).isoformat(),
            "players": [{"name": "アン"}, {"name": "strong-bot", "bot": True}, {"name": "ボブ"}],
            "updated_at": now.isoformat(),
        },
        {
            "game": "windcity",
            "id": "fedcba9876543210",
            "status": "finished",
            "seat": 1,
            "result": {
                "winners": [0],
                "standings": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}],
            },
            "players": [{"name": "アン"}, {"name": "ボブ"}],
            "updated_at": (now - timedelta(days=3)).isoformat(),
        },
    ]


def test_japanese_games_at_80_columns_cut_no_id_and_no_turn_marker() -> None:
    i18n.set_language("ja")
    now = datetime.now(UTC)
    text = to_text(players.games_table(_my_games(now), now), 80)
    lines = text.rstrip("\n").splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert "…" not in text
    for gid in ("0123456789abcdef", "fedcba9876543210"):
        assert any(gid in line for line in lines), text  # whole, on one line
    assert any("あなたの番" in line for line in lines), text
    assert "進行中" in text and "マンハッタン" in text and "running" not in text


def _resigned_view() -> dict:
    standings = [
        {"seat": 0, "rank": 1, "total": 12, "tallest": 3, "majorities": 1, "resigned": True},
        {"seat": 1, "rank": 1, "total": 7, "tallest": 2, "majorities": 0, "resigned": True},
    ]
    return {
        "id": "g1",
        "game": "manhattan",
        "status": "finished",
        "version": 9,
        "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
        "result": {"winners": [0, 1], "standings": standings},
    }


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_when_every_human_resigned_nobody_is_called_winner(language: str) -> None:
    """The services rank every resigned seat last, so when all resigned they all share
    rank 1 and are all in ``winners``: the CLI says that nobody won."""
    i18n.set_language(language)
    view = _resigned_view()
    table = to_text(render.render_result(view), 80)
    assert _("nobody won: every player resigned") in table
    assert _("winner: {winners}", winners="ann, bob") not in table
    assert table.count(_(" (resigned)").strip()) == 2
    event = {"type": "game_over", "result": view["result"]}
    line = render.describe_event("manhattan", event, {0: "ann", 1: "bob"})
    assert "ann" not in line and _("nobody won: every player resigned") in line
    entry = {"seat": 1, "result": view["result"]}
    assert players.result_cell(entry) == _("resigned")


def test_japanese_result_table_at_80_columns_keeps_each_row_on_one_line() -> None:
    i18n.set_language("ja")
    view = _resigned_view()
    view["result"] = {
        "winners": [0],
        "standings": [
            {"seat": s, "rank": s + 1, "total": 40 - s, "tallest": 4, "majorities": 2}
            for s in range(4)
        ],
        "ratings": [
            {"seat": s, "before": {"rating": 1060}, "after": {"rating": 1130}} for s in range(4)
        ],
    }
    view["players"] = [{"seat": s, "name": f"プレイヤー{s}"} for s in range(4)]
    text = to_text(render.render_result(view), 80)
    lines = text.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    for s in range(4):
        row = [line for line in lines if f"{s}:プレイヤー{s}" in line]
        assert len(row) == 1 and f"{40 - s}" in row[0] and "→" in row[0], text

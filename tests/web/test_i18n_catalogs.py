"""The browser client's catalogs (``clients/web/i18n/{en,ja,de}.json``), without a
browser: every language has every key of every other, no value is empty, a message
keeps its fields (``{name}``, ``{n, plural, ...}``) in every language and its braces
balance, every key the code names literally exists, and "How to play" has its four
parts (setup, a turn, scoring, the end) for each game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from shared.games.seats import BOTS

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
LANGUAGES = ("en", "ja", "de")
GAMES = ("manhattan", "windcity")


def closing(text: str, start: int) -> int:
    depth = 0
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            return at
    raise ValueError(f"unbalanced: {text!r}")


def fields(text: str) -> tuple[set[str], set[str]]:
    """(every field, the plain ones) of a message, as clients/web/js/i18n.js reads it:
    ``{name}`` is plain; ``{name, plural|select, case {message} ...}`` chooses."""
    every: set[str] = set()
    plain: set[str] = set()
    at = 0
    while (start := text.find("{", at)) >= 0:
        end = closing(text, start)
        name, *rest = text[start + 1 : end].split(",", 2)
        every.add(name.strip())
        if not rest:
            plain.add(name.strip())
        else:
            cases = rest[-1]
            at_case = 0
            while (open_ := cases.find("{", at_case)) >= 0:
                close = closing(cases, open_)
                inner_every, inner_plain = fields(cases[open_ + 1 : close])
                every |= inner_every
                plain |= inner_plain
                at_case = close + 1
        at = end + 1
    return every, plain


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def catalog(language: str) -> dict[str, Any]:
    return flatten(json.loads((WEB / "i18n" / f"{language}.json").read_text("utf-8")))


CATALOGS = {language: catalog(language) for language in LANGUAGES}


def balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_catalog_has_the_same_keys(language: str) -> None:
    english, other = set(CATALOGS["en"]), set(CATALOGS[language])
    assert sorted(english - other) == [], f"missing from {language}.json"
    assert sorted(other - english) == [], f"in {language}.json but not in en.json"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_value_is_empty_and_every_message_is_well_formed(language: str) -> None:
    for key, value in CATALOGS[language].items():
        assert isinstance(value, str) and value.strip(), f"{language}: {key} is empty"
        assert balanced(value), f"{language}: {key} has unbalanced braces"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_a_message_keeps_its_fields_in_every_language(language: str) -> None:
    for key, english in CATALOGS["en"].items():
        translated = CATALOGS[language][key]
        (english_every, english_plain), (every, _) = fields(english), fields(translated)
        assert every <= english_every, f"{language}: {key} uses a field English does not give"
        # A plain field ({name}) says something the translation must say too; a field
        # only choosing a wording ({count, plural, ...}) may go where the language needs none.
        assert english_plain <= every, f"{language}: {key} drops a field"


def test_every_key_the_code_names_is_in_the_catalogs() -> None:
    code = "\n".join(p.read_text("utf-8") for p in sorted((WEB / "js").glob("*.js")))
    named = set(re.findall(r"\btn?\(\"([a-z0-9_.-]+)\"", code))
    named |= set(re.findall(r"label: \"([a-z0-9_.-]+)\"", code))
    named |= set(re.findall(r"\[\"[a-z_]+\", \"((?:lobby|game)\.[a-z0-9_.-]+)\"\]", code))
    named |= set(re.findall(r"data-i18n=\"([a-z0-9_.-]+)\"", (WEB / "index.html").read_text()))
    assert len(named) > 250
    assert sorted(named - set(CATALOGS["en"])) == []


@pytest.mark.parametrize("game", GAMES)
def test_how_to_play_has_setup_a_turn_scoring_and_the_end(game: str) -> None:
    for part in ("intro.p1", "setup.title", "turn.title", "scoring.title", "end.title"):
        assert f"howto.{game}.{part}" in CATALOGS["en"]
    body = [k for k in CATALOGS["en"] if k.startswith(f"howto.{game}.")]
    assert len(body) >= 12


def test_game_terms_follow_the_rule_texts() -> None:
    """Japanese takes the seeds' words; Wind City keeps its German names (Kauf, Meer,
    Land) in German and, as the seed does, in Japanese."""
    ja, de = CATALOGS["ja"], CATALOGS["de"]
    assert ja["manhattan.score.tallest"] == "最高層ビルディング"
    assert ja["manhattan.score.majority"] == "都市ボーナス"
    assert ja["manhattan.promo.big_business"] == "大きなビジネス"
    assert "二世帯住宅" in ja["windcity.score.duplex"]
    assert "Meer" in ja["windcity.terrain.sea"] and "Land" in ja["windcity.terrain.land"]
    assert ja["windcity.kauf"] == de["windcity.kauf"] == "Kauf"
    assert de["windcity.terrain.sea"] == "Meer" and de["windcity.terrain.land"].startswith("Land")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bot_level_has_its_words(language: str) -> None:
    """The host's bot menu names each level the API offers (``seats.BOTS``) in words."""
    words = [CATALOGS[language].get(f"game.seat.bot_level.{level}") for level in BOTS]
    assert None not in words and len(set(words)) == len(BOTS), words

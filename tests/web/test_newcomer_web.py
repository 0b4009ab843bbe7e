"""What a new player trips on first, in Japanese and German, at 390×844 and 1280×800:

- the first screens (the lobby without a player, "How to play" opened from the lobby)
  show no stray ``null``;
- Japanese is drawn with a CJK font, not as boxes (``fonts-noto-cjk``, installed with
  Chromium by ``scripts/need_chromium.sh``);
- a phone's header and status bar leave the board high on the first screen;
- the host's bot menu offers every level the API has, each in words that say what it is;
- the score tables never break a word inside (Strandhä-user, ビーチハウ-ス);
- the lobby lists a game once: "My games" and the games kept in this browser share none.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.games.seats import BOTS
from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import LONG_NAMES, ApiGame, assert_fits, get, post, to_act
from tests.web.test_i18n_catalogs import CATALOGS

LANGUAGES = {"ja": "ja-JP", "de": "de-DE"}
SIZES = {"phone": PHONE, "laptop": DESKTOP}
# The board's first row of squares or lots on a phone: 310 px (German) and 271 px
# (Japanese) below the top before the header was made compact.
BOARD_TOP_MAX = 200

# Text nodes reading "null" or "undefined" (a missing value put into the page).
STRAY = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    if (/\\b(null|undefined|NaN)\\b/.test(node.textContent)) out.push(node.textContent.trim());
  }
  return out;
}"""

# Two different kana drawn with the page's font: the same pixels (and the width of the
# missing-glyph box) when no font has them.
GLYPHS = """() => {
  const font = getComputedStyle(document.body).fontFamily;
  const draw = (text) => {
    const canvas = document.createElement("canvas");
    canvas.width = 64; canvas.height = 64;
    const g = canvas.getContext("2d");
    g.font = `48px ${font}`;
    g.fillText(text, 4, 52);
    const pixels = Array.from(g.getImageData(0, 0, 64, 64).data).join();
    return { pixels, width: g.measureText(text).width };
  };
  const a = draw("あ"), i = draw("い"), box = draw("\\u{10FFFD}");
  return { same: a.pixels === i.pixels, kana: a.width, box: box.width };
}"""

# Label cells of the score table whose words are split over two lines. Words are the
# language's own (Intl.Segmenter), and in Japanese every run of katakana (a loanword,
# ビーチハウス) counts as one word too.
BROKEN_WORDS = """(selector) => {
  const segmenter = new Intl.Segmenter(document.documentElement.lang, { granularity: "word" });
  const lines = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
    return new Set(boxes.map((r) => Math.round(r.top))).size;
  };
  const broken = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
      const words = [...segmenter.segment(node.data)].filter((s) => s.isWordLike)
        .map((s) => [s.index, s.segment]);
      for (const m of node.data.matchAll(/[\\u30a0-\\u30ff]+/g)) words.push([m.index, m[0]]);
      for (const [at, word] of words) if (lines(node, at, at + word.length) > 1) broken.push(word);
    }
  }
  return broken;
}"""
LABELS = (
    "#scores tbody th, #scores tbody td:not(.num), #scores tfoot th,"
    " #scores thead th:not(.seat-col)"
)


def in_each_language(open_page, base: str) -> Iterator[tuple[str, Any]]:
    """A phone-sized page in each language, with the lobby opened (its own context)."""
    for language, locale in LANGUAGES.items():
        page = open_page(viewport=PHONE, locale=locale)
        page.goto(f"{base}/play")
        page.wait_for_selector("#create")
        assert page.evaluate("document.documentElement.lang") == language
        yield language, page


def test_first_screens_japanese_glyphs_and_the_phone_header(
    live_windcity: str, open_page, screenshots_dir: Path
) -> None:
    base = live_windcity
    game = ApiGame.create("windcity", base, ["Ann", "Bob"], seed=4, max_turns=10)
    game.play_until(to_act(0, "houses"))
    for language, page in in_each_language(open_page, base):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"{base}/play")  # without a player: the form to make one
            page.wait_for_selector("#player-form")
            assert page.evaluate(STRAY) == [], (language, size, "lobby")
            assert_fits(page)
            page.screenshot(path=str(screenshots_dir / f"first-lobby-{language}-{size}.png"))
            page.click("#howto-link")
            page.wait_for_selector("#howto-end")
            assert page.evaluate(STRAY) == [], (language, size, "how to play")
            assert_fits(page)
        glyphs = page.evaluate(GLYPHS)
        assert not glyphs["same"], glyphs  # あ and い are two boxes without a CJK font
        assert glyphs["kana"] != glyphs["box"] and glyphs["kana"] >= 40, glyphs

        # A turn on a phone: the header and the status bar take little of the screen.
        page.set_viewport_size(PHONE)
        game.open_as(page, 0)
        page.wait_for_selector("#board button")
        top = page.evaluate("document.querySelector('#board button').getBoundingClientRect().top")
        assert top <= BOARD_TOP_MAX, (language, top)
        assert page.evaluate(STRAY) == []
        assert_fits(page)
        page.screenshot(path=str(screenshots_dir / f"first-turn-{language}-phone.png"))


def test_the_bot_menu_offers_every_level_in_words(live_manhattan: str, open_page) -> None:
    base = live_manhattan
    for language, page in in_each_language(open_page, base):
        created = post(base, "/games", {"players": 3})
        page.evaluate(
            "([key, record]) => localStorage.setItem(key, JSON.stringify(record))",
            [f"boardgames:manhattan:{created['id']}", {"host": created["host_token"]}],
        )
        for viewport in SIZES.values():
            page.set_viewport_size(viewport)
            page.goto(f"{base}/play?game={created['id']}")
            page.wait_for_selector("#bot-kind")
            options = page.eval_on_selector_all(
                "#bot-kind option", "os => os.map(o => [o.value, o.textContent])"
            )
            words = CATALOGS[language]
            assert options == [[lv, words[f"game.seat.bot_level.{lv}"]] for lv in BOTS]
            assert len({text for _, text in options}) == len(BOTS)
            # Greedy is not called strong: only the strong level says it.
            strong = {"ja": "上級", "de": "Stark"}[language]
            assert [value for value, text in options if strong in text] == ["strong"]
            assert_fits(page)
        page.select_option("#bot-kind", "strong")
        page.click("#add-bot")
        page.wait_for_selector(".players [data-seat-status=bot]")
        players = get(base, f"/games/{created['id']}")["players"]
        assert [(p["status"], p["bot"]) for p in players] == [("bot", "strong")]
        assert page.errors == []


@pytest.mark.parametrize("game", ["windcity", "manhattan"])
def test_score_tables_break_no_word(
    request: pytest.FixtureRequest, open_page, game: str, screenshots_dir: Path
) -> None:
    base = request.getfixturevalue(f"live_{game}")
    if game == "windcity":  # five players: the narrowest columns
        made = ApiGame.create(game, base, ["Ann", *LONG_NAMES], seed=4, max_turns=10)
        made.play_until(lambda v: v["state"]["turn"] >= 2 and to_act(0)(v))
    else:
        made = ApiGame.create(game, base, ["Ann", *LONG_NAMES[:3]], seed=4, promo_cards=True)
        made.play_until(lambda v: v["state"]["round"] >= 3)
    for language, locale in LANGUAGES.items():
        page = open_page(locale=locale)
        made.open_as(page, 0)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.wait_for_selector("#scores td")
            labels = page.eval_on_selector_all(LABELS, "cells => cells.map(c => c.textContent)")
            assert len(labels) >= 6, labels
            assert page.evaluate(BROKEN_WORDS, LABELS) == [], (language, size)
            assert_fits(page)
            page.locator("#scores").screenshot(
                path=str(screenshots_dir / f"scores-{game}-{language}-{size}.png")
            )


def test_the_lobby_lists_a_game_once(live_windcity: str, open_page) -> None:
    base = live_windcity
    for language, page in in_each_language(open_page, base):
        page.fill("#player-name", "Ann")
        page.click("#create-player")
        page.wait_for_selector("#my-games-panel")
        # A game made in the lobby as the player (kept in this browser and in "My
        # games"), and one only hosted here (kept in this browser only).
        made = []
        for name in ("Ann", ""):
            page.goto(f"{base}/play")
            page.fill("#opt-max_turns", "10")
            page.fill("#host-name", name)
            page.click("#create-game")
            page.wait_for_selector("#start-game")
            made.append(page.url.split("game=")[1].split("&")[0])
        played, hosted = made
        for viewport in SIZES.values():
            page.set_viewport_size(viewport)
            page.goto(f"{base}/play")
            page.wait_for_selector(f"#my-games li[data-id='{played}']")
            mine = page.eval_on_selector_all(
                "#my-games-panel .game-id, section[aria-labelledby=mine] .game-id",
                "ids => ids.map(e => e.textContent)",
            )
            assert mine.count(played) == 1 and mine.count(hosted) == 1, (language, mine)
            others = page.locator("#mine").text_content()
            assert others == CATALOGS[language]["lobby.browser.others"]
            assert page.evaluate(STRAY) == []
            assert_fits(page)
        assert page.errors == []

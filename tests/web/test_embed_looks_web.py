"""An embedded seat's looks (issue 44), for real, in a host page of an allowed origin
(tests/web/embedhost.py): the link's theme on the page's elements, the players told
apart by colour and letter whatever the theme, nothing wider than a 320 px column or a
1280 px panel, ja and de from the link, the frame sized by the page's height messages,
and the host's set_theme and set_language."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.web.embedhost import Platform, embed_frame, platform

__all__ = ["platform"]  # (the fixture, for this module's tests)

THEME = {"accent": "#123456", "panel": "rgb(250, 250, 240)", "radius": "3px", "font": "serif"}
# the elements past the right edge of the frame (clipped by overflow-x: hidden, or not)
WIDE = """w => [...document.querySelectorAll('body *')]
  .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 0.5)
  .slice(0, 5).map(e => `${e.tagName}#${e.id}.${e.className}`)"""
STYLE = "([s, p]) => [...document.querySelectorAll(s)].map(e => getComputedStyle(e)[p])"
PLAYERS = """[...document.querySelectorAll('[aria-labelledby=players-title] .tag')]
  .map(e => [e.className, e.querySelector('.letter').textContent,
    getComputedStyle(e.querySelector('.letter')).backgroundColor])"""

# every property the page's styles are given from now on
SPY_SET_PROPERTY = """() => { window.propertiesSet = [];
  const set = CSSStyleDeclaration.prototype.setProperty;
  CSSStyleDeclaration.prototype.setProperty = function (name, ...rest) {
    propertiesSet.push(String(name)); return set.call(this, name, ...rest); }; }"""
# the host's set_theme with names of Object.prototype's
NOT_A_THEME = """origin => window.dispatchEvent(new MessageEvent("message", {origin,
    source: window.parent, data: {source: "boardgames", type: "set_theme",
    theme: {toString: "red", constructor: "red", valueOf: "red"}}}))"""


@pytest.mark.parametrize(
    ("width", "language", "word"), [(320, "ja", "あなた"), (1280, "de", "Spieler")]
)
def test_theme_size_and_language(
    platform: Platform, open_page: Callable, width: int, language: str, word: str
) -> None:
    game_id, who, _ = platform.seated_game()
    url = platform.link(game_id, who, language=language, theme=THEME)
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(platform.allowed.url(url))
    frame = embed_frame(page)
    frame.wait_for_selector("[aria-labelledby=players-title] .tag")
    # the link's theme, on the page's elements
    assert set(frame.evaluate(STYLE, [".panel", "backgroundColor"])) == {"rgb(250, 250, 240)"}
    assert set(frame.evaluate(STYLE, [".panel", "borderRadius"])) == {"3px"}
    assert frame.evaluate(STYLE, ["body", "fontFamily"]) == ["serif"]
    assert frame.evaluate(STYLE, ["#status.mine", "borderLeftColor"]) == ["rgb(18, 52, 86)"]
    # the players: a letter and a colour each, the theme's accent neither
    players = frame.evaluate(PLAYERS)
    assert [(c.split()[-1], letter) for c, letter, _ in players] == [("p0", "A"), ("p1", "B")]
    colours = {colour for _, _, colour in players}
    assert len(colours) == 2 and "rgb(18, 52, 86)" not in colours, players
    # the language of the link
    assert frame.evaluate("document.documentElement.lang") == language
    assert word in frame.inner_text("body")
    # nothing wider than the frame: no sideways scrolling, no element past its edge
    sizes = frame.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1] == width, sizes
    assert frame.evaluate(WIDE, width) == []
    # the frame took the height the page reported
    page.wait_for_function(
        """() => { const heights = got.filter(m => m.type === 'height');
        return heights.length && Math.abs(document.querySelector('iframe')
          .getBoundingClientRect().height - heights[heights.length - 1].height) < 2; }"""
    )
    # the host's commands
    page.evaluate("seat.setTheme({bg: 'rgb(250, 240, 230)', accent: 'rgb(0, 100, 0)'})")
    frame.wait_for_function(
        "() => getComputedStyle(document.body).backgroundColor === 'rgb(250, 240, 230)'"
    )
    assert frame.evaluate(STYLE, ["#status.mine", "borderLeftColor"]) == ["rgb(0, 100, 0)"]
    assert {c for _, _, c in frame.evaluate(PLAYERS)} == colours
    # names every object answers to are no theme's: no property set for them
    frame.evaluate(SPY_SET_PROPERTY)
    frame.evaluate(NOT_A_THEME, platform.allowed.origin)
    assert frame.evaluate("window.propertiesSet") == [], "a theme of Object's names"
    page.evaluate("seat.setLanguage('toString')")  # no language: ignored
    page.evaluate("seat.setLanguage('en')")
    frame.wait_for_function("() => document.documentElement.lang === 'en'")
    assert "Players" in frame.inner_text("body")
    assert page.errors == []  # no CSP refusal either (an inline style or script)

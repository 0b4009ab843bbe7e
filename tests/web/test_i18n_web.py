"""The browser client in English, Japanese and German.

- Every string on a page comes from a catalog: the pages are shown with a pseudo-locale
  (``en.json`` served with every message wrapped in ⟦…⟧), and every text node, label,
  title and placeholder is then catalog text or data (player and tournament names, game
  ids, dates, squares, numbers, symbols); the tournaments' list and a tournament's page
  included.
- Each game in each language, at 390×844 and 1280×800 (the lobby, "How to play", a turn
  and a finished game with its result and step-through): nothing wider than the screen
  (German is long) and, in Japanese and German, no English word of the English catalog
  that the language's own catalog does not use (Kauf, Lobby...).
- The language follows the browser's preferences, the switch keeps the choice, and API
  calls send ``Accept-Language``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Page, Route

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import ApiGame, assert_fits, caught_up, get, post, to_act
from tests.web.test_i18n_catalogs import CATALOGS

I18N = Path(__file__).resolve().parents[2] / "clients" / "web" / "i18n"
LANGUAGES = {"en": "en-US", "ja": "ja-JP", "de": "de-DE"}
SIZES = {"phone": PHONE, "laptop": DESKTOP}
NAMES = ["Ann", "Bob"]
WORD = re.compile(r"[A-Za-z]{3,}")

# Every visible string of the page: text nodes, and the words of labels, titles and
# placeholders (the language switch names each language in itself: not translated).
TEXTS = """() => {
  const out = [];
  const skip = (el) => !el || el.closest("script, style, noscript, #language");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const text = node.textContent.trim();
    if (text && !skip(node.parentElement)) out.push(text);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (skip(el)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = (el.getAttribute(name) || "").trim();
      if (value) out.push(value);
    }
  }
  out.push(document.title);
  return out;
}"""


def catalog(language: str) -> dict[str, Any]:
    return json.loads((I18N / f"{language}.json").read_text("utf-8"))


def words(language: str) -> set[str]:
    return {w.lower() for v in CATALOGS[language].values() for w in WORD.findall(v)}


ENGLISH = words("en")


def wrapped(tree: dict[str, Any]) -> dict[str, Any]:
    """Every message as ⟦message⟧ (a field's value stays inside: it is the message's)."""
    return {k: wrapped(v) if isinstance(v, dict) else f"⟦{v}⟧" for k, v in tree.items()}


def pseudo(page: Page) -> None:
    """Serve the pseudo-locale in place of English (the page is in English)."""
    body = json.dumps(wrapped(catalog("en")), ensure_ascii=False)

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=body)

    page.route("**/play/i18n/*.json", answer)


def outside_catalog(texts: list[str], data: list[str]) -> list[str]:
    """The parts of ``texts`` that are neither in a ⟦message⟧ nor data."""
    bad = []
    for text in texts:
        rest = text
        while True:  # messages nest (a hint inside "Your turn: …"): innermost first
            shorter = re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
            if shorter == rest:
                break
            rest = shorter
        for datum in sorted(data, key=len, reverse=True):
            rest = rest.replace(datum, " ")
        # What is left may be numbers, squares (C7), seat letters and symbols only.
        if re.search(r"[A-Za-z]{2,}|[^\x00-\x7f±×→−·…✓★◎–—]", rest):
            bad.append(text)
    return bad


def untranslated(texts: list[str], language: str, data: list[str]) -> list[str]:
    """English catalog words on a page in ``language`` that its own catalog does not use."""
    own = words(language) | {w.lower() for d in data for w in WORD.findall(d)}
    return [
        text
        for text in texts
        if any(w.lower() in ENGLISH and w.lower() not in own for w in WORD.findall(text))
    ]


def script_errors(page: Page) -> list[str]:
    """The page's errors, but the browser's own favicon.ico miss on /play/config.json
    (where ``open_as`` stores the seat)."""
    errors: list[str] = getattr(page, "errors", [])
    return [e for e in errors if "Failed to load resource" not in e]


def listed_names(base: str) -> list[str]:
    """The names of the players the lobby lists (other tests' games too: bots are named
    "Greedy bot 1"), data in every language."""
    names = []
    for status in ("open", "running"):
        for game in get(base, f"/games?status={status}&limit=20")["games"]:
            names += [p["name"] for p in game["players"]]
    return names


def tournament_names(base: str) -> list[str]:
    """The names of the tournaments the list shows (other tests' too), and the bot
    entries' ("Bot 1"): data in every language."""
    items = get(base, "/tournaments?limit=100")["items"]
    return [t["name"] for t in items] + [f"Bot {n}" for n in range(1, 65)]


def phrase_texts(base: str, language: str = "en") -> list[str]:
    """The table chat's canned phrases as the service says them (data: the API's words,
    GET /chat/phrases, not the page's catalog)."""
    answer = requests.get(f"{base}/chat/phrases", headers={"Accept-Language": language}, timeout=5)
    return [p["text"] for p in answer.json()["phrases"]]


def player(base: str, name: str) -> dict:
    return post(base, "/players", {"name": name})


def with_player(page: Page, base: str, record: dict) -> None:
    page.goto(f"{base}/play/config.json")
    page.evaluate(
        "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
        {"id": record["id"], "name": record["name"], "key": record["key"]},
    )


def running(game: str, base: str) -> ApiGame:
    made = ApiGame.create(
        game, base, NAMES, seed=7, **({"max_turns": 10} if game == "windcity" else {})
    )
    made.play_until(to_act(0, "build" if game == "manhattan" else "plan"))
    return made


def finished(game: str, base: str) -> ApiGame:
    made = ApiGame.create(
        game, base, NAMES, seed=8, **({"max_turns": 10} if game == "windcity" else {})
    )
    made.finish()
    return made


def pages(game: str, base: str) -> tuple[list[tuple[str, Callable[[Page], None]]], list[str]]:
    """(name, show it in a page) for each page a player of ``game`` sees, and the ids of
    the games shown (data: a hex id may spell "add")."""
    now, over = running(game, base), finished(game, base)

    def lobby(page: Page) -> None:
        page.goto(f"{base}/play")
        page.wait_for_selector("#create")

    def howto(page: Page) -> None:
        page.goto(f"{base}/play?howto=1&back={now.id}")
        page.wait_for_selector("#howto-end")

    def turn(page: Page) -> None:
        now.open_as(page, 0)
        page.wait_for_selector("#controls button")

    def result(page: Page) -> None:
        over.open_as(page, 0)
        page.wait_for_selector("#result")
        page.click("#replay-open")
        page.click(".stepper button[data-key=first]")
        page.click(".stepper button[data-key=next]")

    return [("lobby", lobby), ("howto", howto), ("turn", turn), ("result", result)], [
        now.id,
        over.id,
    ]


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_every_string_on_every_page_comes_from_a_catalog(
    request: pytest.FixtureRequest, open_page, game: str
) -> None:
    base = request.getfixturevalue(f"live_{game}")
    ann = player(base, "Ann")
    shown, shown_ids = pages(game, base)
    now = running(game, base)

    def visit(path: str, selector: str) -> Callable[[Page], None]:
        def show(page: Page) -> None:
            page.goto(f"{base}{path}")
            page.wait_for_selector(selector)

        return show

    def spectator(page: Page) -> None:
        now.open_as(page, None)
        page.wait_for_selector("#log li")

    # a tournament Ann hosts and is registered for (its page: her part and the host's)
    spec = {"name": "Cup", "clock": {"turn_seconds": 60}, "bots": ["random"]}
    cup = post(base, "/tournaments", spec, token=ann["key"])
    post(base, f"/tournaments/{cup['id']}/players", {}, token=ann["key"])
    extra = [
        ("leaderboard", visit("/play?leaderboard=1", "#leaderboard")),
        ("profile", visit(f"/play?player={ann['id']}", "#profile")),
        ("spectator", spectator),
        ("tournaments", visit("/play?tournaments=1", "#tournament-list li")),
        ("tournament", visit(f"/play?tournament={cup['id']}", "#standings-rows tr")),
    ]
    for name, show in [*shown, *extra]:
        page = open_page(locale="en-US")
        pseudo(page)
        with_player(page, base, ann)
        show(page)
        ids = page.evaluate(  # (and dates, in the page's language)
            "() => [...document.querySelectorAll('.game-id, time')].map(e => e.textContent)"
        )
        texts = page.evaluate(TEXTS)
        assert any("⟦" in t for t in texts), f"{name}: the pseudo-locale was not used"
        data = [*NAMES, *listed_names(base), ann["id"], *ids, *shown_ids, now.id, base]
        data += phrase_texts(base) + tournament_names(base)
        assert outside_catalog(texts, data) == [], f"{game} {name}"
        assert script_errors(page) == [], page.errors


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_each_game_in_each_language_fits_and_is_translated(
    request: pytest.FixtureRequest, open_page, game: str, size: str, screenshots_dir: Path
) -> None:
    base = request.getfixturevalue(f"live_{game}")
    shown, shown_ids = pages(game, base)
    for language, locale in LANGUAGES.items():
        for name, show in shown:
            page = open_page(viewport=SIZES[size], locale=locale)
            missing: list[str] = []
            page.on("response", lambda r, m=missing: m.append(r.url) if r.status == 404 else None)
            show(page)
            assert page.evaluate("document.documentElement.lang") == language
            assert_fits(page)
            if language != "en":
                ids = page.evaluate(
                    "() => [...document.querySelectorAll('.game-id')].map(e => e.textContent)"
                )
                texts = page.evaluate(TEXTS)
                data = [*NAMES, *listed_names(base), *ids, *shown_ids]
                data += phrase_texts(base, language)
                assert untranslated(texts, language, data) == [], f"{game} {name} in {language}"
            assert missing == [] and script_errors(page) == [], (name, language, page.errors)
            if name == "turn":
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(screenshots_dir / f"i18n-{game}-{language}-{size}.png"))


def test_the_switch_keeps_the_language_and_api_calls_ask_for_it(
    live_windcity: str, open_page
) -> None:
    game = ApiGame.create("windcity", live_windcity, NAMES, seed=3, max_turns=10)
    page = open_page(locale="de-DE")
    asked: list[str] = []
    page.on(
        "request",
        lambda r: (
            asked.append(r.headers.get("accept-language", ""))
            if "/games/" in r.url and r.resource_type == "fetch"
            else None
        ),
    )
    game.open_as(page, 0)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Spieler" in page.locator("#players-title").text_content()
    assert asked and all(a == "de" for a in asked), asked
    page.select_option("#lang", "ja")  # reloads the page in Japanese
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    caught_up(page, game)
    assert page.locator("#players-title").text_content() == "プレイヤー"
    page.goto(f"{live_windcity}/play?howto=1")  # kept for every page of this browser
    page.wait_for_selector("#howto-end")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "Kauf" in page.locator("#howto").text_content()
    # A refusal in the page's language: the catalog's message for the problem's code.
    page.evaluate("localStorage.setItem('boardgames:lang', 'de')")
    game.open_as(page, 0)
    game.play_until(to_act(0, "houses"))
    caught_up(page, game)
    page.locator("#board button[data-square='A2']").dispatch_event("click")  # the sea
    page.wait_for_function("() => document.getElementById('alert').textContent !== ''")
    refusal = page.locator("#alert").text_content()
    assert untranslated([refusal], "de", NAMES) == [], refusal


def test_a_name_every_object_answers_to_is_no_language(live_manhattan: str, open_page) -> None:
    """ "toString" kept as the language (or asked for) is none of ours: the page is in the
    browser's language, not broken by a catalog that does not exist."""
    page = open_page(locale="de-DE")
    page.goto(f"{live_manhattan}/play")
    page.evaluate("localStorage.setItem('boardgames:lang', 'toString')")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_selector("#main h1, #main h2")
    loaded = page.evaluate("import('/play/js/i18n.js').then(m => m.loadLanguage('constructor'))")
    assert loaded == "en" and page.evaluate("document.documentElement.lang") == "en"
    assert page.errors == []

"""How a game ends and what a rating is, for a new player, in Japanese and German at
390×844 and 1280×800:

- every person resigned: nobody is named a winner, and each resigned seat says so where
  a rank would be (the API lists them all as winners at rank 1: ``rank_resigned_last``);
- a private table's rematch tells the host its seats are kept for the last game's
  players, not about an invite link it does not show;
- the leaderboard and a profile explain the rating in words (everyone starts at 1000,
  which games count), say how many rated games a player needs to show (the
  leaderboard's ``min_games``), and what the player still needs (``games_to_rank``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Route

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import ApiGame, assert_fits, caught_up, get, post
from tests.web.test_i18n_catalogs import CATALOGS
from tests.web.test_ratings_web import new_player, rated_game

LANGUAGES = ("ja", "de")
SIZES = {"phone": PHONE, "laptop": DESKTOP}
FINISH_SECONDS = 60
# The page's whole text: the body's words and the document title.
TEXT = "() => document.body.innerText"


def each_view(page: Any, reload: Any) -> Iterator[tuple[str, str]]:
    """Show the page in each language and size: ``reload(page)`` brings it back."""
    for language in LANGUAGES:
        page.evaluate("l => localStorage.setItem('boardgames:lang', l)", language)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            reload(page)
            assert page.evaluate("document.documentElement.lang") == language
            yield language, size


def head(message: str) -> str:
    """A message's words before its first field."""
    return message.split("{")[0]


def test_when_everyone_resigns_nobody_wins(
    live_windcity: str, open_page, workers, screenshots_dir: Path
) -> None:
    base = live_windcity
    game = ApiGame.create("windcity", base, ["Ann", "Bob"], seed=6, max_turns=10, takeover="random")
    game.play_until(lambda v: v["state"]["turn"] >= 8)
    for token in game.tokens.values():
        post(base, f"/games/{game.id}/resign", {}, token=token)
    workers.start()
    deadline = time.monotonic() + FINISH_SECONDS
    while game.view()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    result = game.view()["result"]
    assert all(row["resigned"] for row in result["standings"])

    page = open_page()
    game.open_as(page, 0)

    def again(p: Any) -> None:
        p.reload()
        caught_up(p, game)
        p.wait_for_selector("#result")

    for language, size in each_view(page, again):
        words = CATALOGS[language]
        assert page.locator("#turn").text_content() == words["game.turn.over_resigned"]
        ranks = page.eval_on_selector_all(
            "#result tbody tr td:first-child",
            "cells => cells.map(c => [c.dataset.rank, c.textContent])",
        )
        assert ranks == [["resigned", words["game.result.resigned"]]] * 2, ranks
        assert head(words["game.turn.over"]) not in page.evaluate(TEXT)
        assert_fits(page)
        page.screenshot(path=str(screenshots_dir / f"resigned-{language}-{size}.png"))


def test_a_private_rematch_tells_the_host_its_seats_are_held(
    live_windcity: str, open_page, screenshots_dir: Path
) -> None:
    base = live_windcity
    created = post(base, "/games", {"players": 2, "max_turns": 10, "visibility": "unlisted"})
    tokens = {}
    for name in ("Ann", "Bob"):
        body = {"name": name, "invite": created["invite_code"]}
        joined = post(base, f"/games/{created['id']}/players", body)
        tokens[joined["seat"]] = joined["token"]
    game = ApiGame("windcity", base, created["id"], created["host_token"], tokens)
    post(base, f"/games/{game.id}/start", {}, token=game.host)
    game.finish()

    page = open_page()
    game.open_as(page, 0)
    page.click("#play-again")
    page.wait_for_url(lambda url: game.id not in url)
    page.wait_for_function("() => /^[0-9]$/.test(document.body.dataset.seat || '')")
    next_id = page.url.split("game=")[1].split("&")[0]
    record = page.evaluate(f"JSON.parse(localStorage.getItem('boardgames:windcity:{next_id}'))")
    assert get(base, f"/games/{next_id}", record["token"])["visibility"] == "unlisted"

    def again(p: Any) -> None:
        p.reload()
        p.wait_for_selector("#held-note")

    for language, size in each_view(page, again):
        words = CATALOGS[language]
        text = page.evaluate(TEXT)
        assert page.locator("#held-note").text_content() == words["game.seat.held_note"]
        assert page.locator("#private-note, #join-link").count() == 0
        invite = {"ja": "招待", "de": "Einladung"}[language]
        assert invite not in text and "invite" not in text, text
        assert head(words["game.turn.waiting_when_full"]) in text
        assert_fits(page)
        page.screenshot(path=str(screenshots_dir / f"rematch-private-{language}-{size}.png"))


def test_the_leaderboard_explains_the_rating_and_the_games_it_needs(
    live_windcity: str, open_page, screenshots_dir: Path
) -> None:
    base = live_windcity
    least = get(base, "/leaderboards/windcity")["min_games"]
    assert least == 1  # the session's LEADERBOARD_MIN_GAMES (LIVE_ENV)
    ann, bob = new_player(base, "Ann"), new_player(base, "Bob")
    page = open_page()
    page.goto(f"{base}/play")
    page.evaluate(
        "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
        {k: ann[k] for k in ("id", "name", "key")},
    )

    # An empty board on a service that needs 3 rated games: why it is empty, and what
    # Ann (never rated) still needs, both from the leaderboard's answer.
    def nobody(route: Route) -> None:
        page_answer = route.fetch().json()
        route.fulfill(json={**page_answer, "entries": [], "next_cursor": None, "min_games": 3})

    def leaderboard(url: str) -> bool:
        return "/leaderboards/windcity" in url

    page.route(leaderboard, nobody)

    def board(p: Any) -> None:
        p.goto(f"{base}/play?leaderboard=1")
        p.wait_for_selector("body[data-view=leaderboard]")

    for language, size in each_view(page, board):
        words = CATALOGS[language]
        note = page.locator("#board-note").text_content()
        assert note.startswith(head(words["board.nobody"])) and "3" in note, note
        assert page.locator("#board-rule").is_hidden()
        progress = page.locator("#board-progress").text_content()
        assert progress.startswith(head(words["board.progress"])) and "3" in progress, progress
        for key, where in (("board.about", "#rating-about"), ("board.rated", "#rating-rated")):
            assert page.locator(where).text_content() == words[key]
        assert "1000" in words["board.about"]
        text = page.evaluate(TEXT)
        assert "sigma" not in text and "±" not in text
        assert_fits(page)
        page.screenshot(path=str(screenshots_dir / f"board-empty-{language}-{size}.png"))

    # After a rated game: the board shows the rule, Ann needs nothing more, and her
    # profile explains the rating the same way.
    page.unroute(leaderboard)
    rated_game("windcity", base, [ann, bob], seed=5, max_turns=10).finish()
    shown = get(base, f"/players/{ann['id']}")["ratings"]["windcity"]
    assert shown["games_to_rank"] == 0
    for language, size in each_view(page, board):
        rule = page.locator("#board-rule")
        assert rule.is_visible() and f"{least} " in rule.text_content()
        assert page.locator("#board-progress").text_content() == ""
        page.goto(f"{base}/play?player={ann['id']}")
        page.wait_for_selector("#profile-ratings")
        words = CATALOGS[language]
        assert page.locator("#rating-about").text_content() == words["board.about"]
        cell = page.locator("#profile-ratings tr[data-game=windcity] td.rating")
        assert cell.text_content() == str(shown["rating"])
        assert page.locator("#profile-to-rank").count() == 0
        text = page.evaluate(TEXT)
        assert "sigma" not in text and "±" not in text
        assert_fits(page)
        page.screenshot(path=str(screenshots_dir / f"profile-{language}-{size}.png"))

    # A profile that still needs games says how many, in words.
    def needs_two(route: Route) -> None:
        answer = route.fetch().json()
        answer["ratings"]["windcity"]["games_to_rank"] = 2
        route.fulfill(json=answer)

    def profile(p: Any) -> None:
        p.goto(f"{base}/play?player={ann['id']}")
        p.wait_for_selector("#profile-to-rank")

    page.route(f"**/players/{ann['id']}", needs_two)
    for language, _size in each_view(page, profile):
        line = page.locator("#profile-to-rank li[data-game=windcity]").text_content()
        words = CATALOGS[language]
        title = words["games.windcity"]
        assert line.startswith(f"{title}: ") and "2" in line, line
        assert_fits(page)
    assert page.errors == []

"""Ratings in the browser: the rating change of each player at the end of a rated game
(from ``result.ratings``), the leaderboard reachable from the lobby, and a player's
profile opened from a name on it.

The games are played through the API by players (their keys bind the seats, so the
games are rated); the session's services count a player after one rated game
(``LIVE_ENV`` in tests/conftest.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import ApiGame, assert_fits, caught_up, get, post
from tests.web.test_manhattan_web import serious


def new_player(base: str, name: str) -> dict:
    """``POST /players``: ``{"id", "name", "key", ...}``."""
    return post(base, "/players", {"name": name})


def rated_game(game: str, base: str, players: list[dict], seed: int, **options) -> ApiGame:
    """A started game whose seats are bound to ``players`` (joined with their keys)."""
    created = post(base, "/games", {"players": len(players), "seed": seed, **options})
    tokens = {}
    for player in players:
        joined = post(base, f"/games/{created['id']}/players", {}, token=player["key"])
        tokens[joined["seat"]] = joined["token"]
    made = ApiGame(game, base, created["id"], created["host_token"], tokens)
    post(base, f"/games/{made.id}/start", {}, token=made.host)
    return made


def as_player(page: Page, base: str, player: dict) -> None:
    """This browser acts as ``player`` (as the lobby's form leaves it)."""
    page.goto(f"{base}/play")
    page.wait_for_selector("#create")
    record = {k: player[k] for k in ("id", "name", "key")}
    page.evaluate("r => localStorage.setItem('boardgames:player', JSON.stringify(r))", record)


def board_row(page: Page, player_id: str) -> None:
    """Wait for ``player_id``'s row on the leaderboard page, asking for more pages."""
    page.wait_for_selector("body[data-view=leaderboard]")
    row = f"#board-rows tr[data-player='{player_id}']"
    while page.locator(row).count() == 0:
        assert page.locator("#board-more").is_visible(), "the player is not on the leaderboard"
        count = page.locator("#board-rows tr").count()
        page.click("#board-more")
        page.wait_for_function(
            "n => document.querySelectorAll('#board-rows tr').length > n", arg=count
        )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_rating_change_leaderboard_and_profile(
    live_windcity: str, open_page, size: str, screenshots_dir: Path
) -> None:
    base = live_windcity
    viewport = PHONE if size == "phone" else DESKTOP
    tag = random.Random().randrange(10**6)
    ann = new_player(base, f"Ann_{tag}_with_a_long_name_xx"[:32])
    bob = new_player(base, f"Bob {tag}")
    game = rated_game("windcity", base, [ann, bob], seed=5, max_turns=10)
    game.finish()
    result = game.view()["result"]
    ratings = {r["seat"]: r for r in result["ratings"]}
    assert {r["player"] for r in ratings.values()} == {ann["id"], bob["id"]}

    # The end of the game: each player's change beside their name, before/after too.
    page = open_page(viewport=viewport)
    as_player(page, base, ann)
    page.goto(f"{base}/play?game={game.id}")
    caught_up(page, game)
    page.wait_for_selector("#result td.rating-change")
    for seat, entry in ratings.items():
        cell = page.locator(f"#result td.rating-change[data-seat='{seat}']")
        before, after = entry["before"]["rating"], entry["after"]["rating"]
        delta = after - before
        sign = "+" if delta >= 0 else "−"
        assert cell.locator(".delta").text_content() == f"{sign}{abs(delta)}"
        assert cell.locator(".spread").text_content() == f"{before} → {after}"
        title = cell.get_attribute("title") or ""
        assert f"Before: {before} (skill estimate {entry['before']['mu']:.1f} ± " in title
    assert {r["before"]["rating"] for r in ratings.values()} == {1000}  # new players
    winner = min(ratings.values(), key=lambda r: r["rank"])
    assert winner["after"]["rating"] > winner["before"]["rating"]
    hint = page.locator("#result p.hint").text_content()
    assert "everyone starts at 1000" in hint
    assert_fits(page)
    page.screenshot(path=str(screenshots_dir / f"ratings-result-{size}.png"), full_page=True)

    # The lobby's link to the leaderboard: both players, the winner above the loser.
    page.goto(f"{base}/play")
    page.click("#leaderboard-link")
    page.wait_for_url("**/play?leaderboard=1")
    board_row(page, ann["id"])
    board_row(page, bob["id"])
    order = page.eval_on_selector_all("#board-rows tr", "rows => rows.map(r => r.dataset.player)")
    loser = bob if winner["player"] == ann["id"] else ann
    assert order.index(winner["player"]) < order.index(loser["id"])
    entries = get(base, "/leaderboards/windcity?limit=100")["entries"]
    listed = {e["player"]["id"]: e for e in entries}
    mine = page.locator(f"#board-rows tr[data-player='{ann['id']}']")
    assert "(you)" in mine.text_content() and "mine" in (mine.get_attribute("class") or "")
    assert mine.locator("td.rating").text_content() == str(listed[ann["id"]]["rating"])
    assert page.locator("#rating-about").text_content().count("1000") == 1
    assert_fits(page)
    page.screenshot(path=str(screenshots_dir / f"ratings-leaderboard-{size}.png"), full_page=True)

    # A name opens that player's profile (GET /players/{id}).
    page.click(f"#board-rows tr[data-player='{bob['id']}'] a")
    page.wait_for_selector("body[data-view=profile] #profile-ratings")
    assert page.locator("#profile-name").text_content() == bob["name"]
    profile = get(base, f"/players/{bob['id']}")["ratings"]["windcity"]
    row = page.locator("#profile-ratings tr[data-game=windcity]")
    assert row.locator("td.rating").text_content() == str(profile["rating"])
    assert "± " in (row.locator("td.rating").get_attribute("title") or "")
    assert row.locator("td").nth(2).text_content() == str(profile["games"]) == "1"
    assert_fits(page)
    assert serious(page) == []
    assert page.errors == []


def test_a_profile_of_nobody_says_so(live_manhattan: str, open_page) -> None:
    page = open_page(viewport=PHONE)
    page.goto(f"{live_manhattan}/play?player=0123456789abcdef")
    page.wait_for_selector("body[data-view=profile]")
    assert page.locator("h1").text_content() == "Player not found"
    page.errors.clear()  # the 404 answer is logged by the browser itself
    assert_fits(page)

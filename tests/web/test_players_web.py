"""Players in the browser: a player made in the lobby (its key kept in localStorage),
"My games" with a your-turn badge, a private table joined through its invite link, play
again after a finished game, and a quick match seating two browsers at one table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import ApiGame, assert_fits, caught_up, get, post, to_act
from tests.web.test_manhattan_web import serious


def make_player(page: Page, base: str, name: str) -> dict:
    """Create a player in the lobby's form; the record the page keeps (id, name, key)."""
    page.goto(f"{base}/play")
    page.fill("#player-name", name)
    page.click("#create-player")
    page.wait_for_selector("#quick")
    player = page.evaluate("JSON.parse(localStorage.getItem('boardgames:player'))")
    assert player["name"] == name and player["key"].startswith("bgp_")
    return player


def game_id_of(page: Page) -> str:
    return page.url.split("game=")[1].split("&")[0]


def open_seat(page: Page, game: ApiGame, seat: int) -> None:
    """``game.open_as`` from the lobby (not config.json: no favicon.ico asked for there,
    so the page's console stays clean)."""
    page.goto(f"{game.base}/play")
    page.wait_for_selector("#create")
    record = {"seat": seat, "token": game.tokens[seat], "name": f"seat {seat}"}
    page.evaluate(
        "([key, record]) => localStorage.setItem(key, JSON.stringify(record))",
        [f"boardgames:{game.game}:{game.id}", record],
    )
    page.goto(f"{game.base}/play?game={game.id}")
    caught_up(page, game)


def seated(page: Page) -> None:
    page.wait_for_function("() => /^[0-9]$/.test(document.body.dataset.seat || '')")


def test_my_games_shows_whose_turn_it_is(
    live_manhattan: str, open_page, screenshots_dir: Path
) -> None:
    base = live_manhattan
    page = open_page(viewport=PHONE)
    ann = make_player(page, base, "Ann")
    assert page.locator("#my-games-panel").text_content().count("None yet") == 1

    # A running game where Ann is to act, then an open one (newer: it has no badge).
    created = post(base, "/games", {"players": 2, "seed": 3})
    mine = post(base, f"/games/{created['id']}/players", {}, token=ann["key"])
    bob = post(base, f"/games/{created['id']}/players", {"name": "Bob"})
    running = ApiGame(
        "manhattan",
        base,
        created["id"],
        created["host_token"],
        {mine["seat"]: mine["token"], bob["seat"]: bob["token"]},
    )
    post(base, f"/games/{running.id}/start", {}, token=running.host)
    running.play_until(to_act(mine["seat"]))
    waiting = post(base, "/games", {"players": 3})
    post(base, f"/games/{waiting['id']}/players", {}, token=ann["key"])

    page.reload()
    page.wait_for_selector("#my-games li")
    listed = get(base, "/players/me/games", ann["key"])["games"]
    rows = page.locator("#my-games li")
    assert [rows.nth(i).get_attribute("data-id") for i in range(rows.count())] == [
        g["id"] for g in listed
    ]
    assert [g["id"] for g in listed] == [waiting["id"], running.id]  # newest first
    badge = page.locator(f"#my-games li[data-id='{running.id}'] .turn-badge")
    assert badge.text_content() == "Your turn"
    assert page.locator(f"#my-games li[data-id='{waiting['id']}'] .turn-badge").count() == 0
    assert "waiting for players" in rows.nth(0).text_content()
    assert_fits(page)
    page.screenshot(path=str(screenshots_dir / "lobby-player-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert_fits(page)
    assert serious(page) == []
    page.screenshot(path=str(screenshots_dir / "lobby-player-desktop.png"), full_page=True)

    # Its link opens the game as Ann's seat: the player key acts for it (no seat token
    # was kept in this browser for a game joined elsewhere).
    page.click(f"#my-games li[data-id='{running.id}'] a")
    page.wait_for_function("() => document.body.dataset.myTurn === 'true'")
    assert page.evaluate("document.body.dataset.seat") == str(mine["seat"])
    assert page.errors == []


@pytest.mark.parametrize("when_full", [False, True])
def test_a_private_tables_invite_link_lets_a_friend_join(
    live_windcity: str, open_page, when_full: bool
) -> None:
    base = live_windcity
    host, friend, stranger = open_page(), open_page(viewport=PHONE), open_page()
    host.goto(f"{base}/play")
    host.select_option("#opt-players", "2")
    host.fill("#opt-max_turns", "10")
    host.select_option("#opt-visibility", "unlisted")
    host.set_checked("#opt-start", when_full)
    host.fill("#host-name", "Ann")
    host.click("#create-game")
    host.wait_for_selector("#join-link")
    seated(host)
    game_id = game_id_of(host)
    link = host.locator("#join-link").input_value()
    assert link.startswith(f"{base}/play?game={game_id}&invite=")
    assert "Private table" in host.locator("label[for=join-link]").text_content()
    listed = requests.get(f"{base}/games?status=open&limit=100", timeout=5).json()["games"]
    assert game_id not in [g["id"] for g in listed]

    # Without a code the table is not even shown (an unlisted table is watched by link
    # only: issue 41), and the page says why.
    stranger.goto(f"{base}/play?game={game_id}")
    stranger.wait_for_selector("#main .problem")
    assert "watch link" in stranger.locator("#main .problem").text_content()
    assert stranger.locator("#join").count() == 0

    friend.goto(link)
    friend.wait_for_selector("body[data-status=open]")
    friend.fill("#join-name", "Bob")
    friend.click("#join button[type=submit]")
    seated(friend)
    assert friend.evaluate("document.body.dataset.seat") == "1"
    if not when_full:
        host.click("#start-game")
    for page in (host, friend):
        page.wait_for_selector("body[data-status=running]")
    view = get(base, f"/games/{game_id}?{link.split('&', 1)[1]}")  # with its invite code
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
    assert view["visibility"] == "unlisted"
    assert host.errors == [] and friend.errors == []


def test_play_again_takes_both_players_to_the_next_game(live_manhattan: str, open_page) -> None:
    base = live_manhattan
    game = ApiGame.create("manhattan", base, ["Ann", "Bob"], seed=2)
    ann, bob = open_page(), open_page(viewport=PHONE)
    open_seat(ann, game, 0)
    open_seat(bob, game, 1)
    game.finish()
    for page in (ann, bob):
        caught_up(page, game)
        page.wait_for_selector("#play-again")
    assert_fits(bob)

    ann.click("#play-again")
    ann.wait_for_url(lambda url: game.id not in url)
    next_id = game_id_of(ann)
    seated(ann)
    assert ann.evaluate("document.body.dataset.status") == "open"
    assert get(base, f"/games/{game.id}")["next_game"] == next_id

    # Bob's page learns of it by itself and takes the seat held for him.
    bob.wait_for_selector("#next-game")
    bob.click("#next-game")
    bob.wait_for_url(f"**/play?game={next_id}")
    seated(bob)
    for page in (ann, bob):
        page.wait_for_selector("body[data-status=running]")  # started when full
    view = get(base, f"/games/{next_id}")
    assert [(p["seat"], p["name"]) for p in view["players"]] == [(0, "Ann"), (1, "Bob")]
    assert ann.evaluate("document.body.dataset.seat") == "0"
    assert bob.evaluate("document.body.dataset.seat") == "1"
    for page in (ann, bob):
        assert page.errors == []


def test_quick_match_seats_two_browsers_at_one_table(live_manhattan: str, open_page) -> None:
    base = live_manhattan
    # A clock nobody else asks for: a pool of its own (other tests may leave tables).
    seconds = random.Random().randrange(1000, 1_000_000)
    pages = [open_page(), open_page(viewport=PHONE)]
    ids = []
    for page, name in zip(pages, ["Ann", "Bob"], strict=True):
        make_player(page, base, name)
        page.select_option("#quick-players", "2")
        page.check("#quick-clock")
        page.fill("#quick-seconds", str(seconds))
        page.click("#quick-match")
        page.wait_for_url("**/play?game=*")
        seated(page)
        ids.append(game_id_of(page))
    assert ids[0] == ids[1]
    for page in pages:
        page.wait_for_selector("body[data-status=running]")
    view = get(base, f"/games/{ids[0]}")
    assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
    assert view["options"]["clock"]["turn_seconds"] == seconds
    assert [p.evaluate("document.body.dataset.seat") for p in pages] == ["0", "1"]
    for page in pages:
        assert page.errors == []

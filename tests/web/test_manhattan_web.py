"""A complete 2-player Manhattan game played in Chromium through the browser client: two
players in their own browser contexts and a spectator, all live by SSE."""

from __future__ import annotations

from pathlib import Path

import requests
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.ui import (
    MOVE_DONE,
    api_version,
    click_and_wait,
    create_game,
    flag,
    join,
    start,
    whose_turn,
)


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page."""
    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


def play_one(page: Page) -> None:
    """One move, by clicking the first legal choice the page offers."""
    if flag(page, "phase") == "select":
        while page.is_disabled("#confirm-pieces"):
            page.click("#select button[data-size][data-legal=true] >> nth=0")
        click_and_wait(page, "#confirm-pieces")
    elif page.locator("#board button[data-legal=true]").count():
        page.click("#board button[data-legal=true] >> nth=0")
        click_and_wait(page, "#pieces button[data-legal=true] >> nth=0")
    elif page.locator("#hand button[data-legal=true]").count():
        click_and_wait(page, "#hand button[data-legal=true] >> nth=0")
    else:
        click_and_wait(page, "#pieces button[data-legal=true] >> nth=0")


def test_lobby_is_accessible(live_manhattan: str, open_page) -> None:
    page = open_page()
    page.goto(f"{live_manhattan}/play")
    page.wait_for_selector("#create")
    assert serious(page) == []
    assert page.errors == []


def test_complete_game_two_players_and_a_spectator(
    live_manhattan: str, open_page, screenshots_dir: Path
) -> None:
    base = live_manhattan
    ann, bob, watcher = open_page(), open_page(), open_page()
    game_id = create_game(ann, base, "Ann", seed=11)
    join(bob, base, game_id, "Bob")
    watcher.goto(f"{base}/play?game={game_id}&watch=1")
    watcher.wait_for_selector("body[data-status=open]")
    watcher.evaluate("window.notReloaded = true")
    start(ann)
    players = [ann, bob]
    moves = 0
    checked_illegal = reloaded = shot = False
    while (page := whose_turn(players)) is not None:
        building = flag(page, "phase") == "build"
        if building and not checked_illegal and page.locator("#board [data-legal=false]").count():
            # A click on an illegal lot changes nothing and says why.
            before = api_version(base, game_id)
            page.click("#board button[data-legal=false] >> nth=0", force=True)
            assert page.locator("#alert").text_content().strip() != ""
            assert api_version(base, game_id) == before
            assert flag(page, "myTurn") == "true"
            checked_illegal = True
        if building and moves >= 20 and not reloaded:
            # A reload mid-game resumes the seat from localStorage.
            seat = flag(page, "seat")
            page.reload()
            page.wait_for_function("() => document.body.dataset.myTurn === 'true'")
            assert flag(page, "seat") == seat
            reloaded = True
        if building and moves >= 30 and not shot:
            # Keyboard alone: Enter on a legal lot moves the focus to a legal piece.
            page.focus("#board button[data-legal=true] >> nth=0")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => document.activeElement.closest('#pieces') !== null"
                " && document.activeElement.dataset.legal === 'true'"
            )
            assert serious(page) == []
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots_dir / "manhattan-desktop.png"))
            page.set_viewport_size(PHONE)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots_dir / "manhattan-phone.png"))
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.set_viewport_size(DESKTOP)
            page.focus("#pieces button[data-legal=true] >> nth=0")
            before = int(flag(page, "version"))
            page.keyboard.press("Enter")  # ... and Enter there builds
            page.wait_for_function(MOVE_DONE, arg=before)
            shot = True
            moves += 1
            continue
        play_one(page)
        moves += 1
    assert checked_illegal and reloaded and shot
    # 8 selections and 48 placements, plus any discards or forfeits.
    assert moves >= 56

    score = requests.get(f"{base}/games/{game_id}/score", timeout=5).json()
    assert score["status"] == "finished"
    for page in (ann, bob, watcher):
        page.wait_for_selector("#result")
        for standing in score["result"]["standings"]:
            assert page.locator("#result td.num").nth(standing["rank"] - 1).is_visible()
        totals = page.locator("#result td.num").all_text_contents()
        assert sorted(map(int, totals), reverse=True) == [
            s["total"] for s in score["result"]["standings"]
        ]
    # The spectator followed live, without a reload, to the very end.
    assert watcher.evaluate("window.notReloaded") is True
    assert int(flag(watcher, "version")) == api_version(base, game_id)
    assert watcher.locator("#board .lot.owned").count() > 0

    # Step through the finished game: the first step shows an empty board.
    ann.click("#replay-open")
    ann.click(".stepper button[data-key=first]")
    assert ann.locator("#board .lot.owned").count() == 0
    ann.click(".stepper button[data-key=last]")
    assert ann.locator("#board .lot.owned").count() > 0
    for page in (ann, bob, watcher):
        assert page.errors == []

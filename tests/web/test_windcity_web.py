"""A complete 2-player Wind City game played in Chromium through the browser client: the
setup by clicking legal squares, then plans built from the card (a Kauf with its target,
renewals) and insurance answers, with a spectator following live."""

from __future__ import annotations

from pathlib import Path

import requests
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.test_manhattan_web import serious
from tests.web.ui import api_version, click_and_wait, create_game, flag, join, start, whose_turn

REFUSED = "the server responded with a status of 409"


def play_one(page: Page, seen: dict[str, bool]) -> None:
    """One move, by clicking what the page offers (a Kauf and a renewal when possible)."""
    phase = flag(page, "phase")
    if phase in {"hurricane", "houses"}:
        click_and_wait(page, "#board button[data-legal=true] >> nth=0")
    elif phase == "plan":
        page.click("#plan button[data-kind=move] >> nth=0")
        if not seen["kauf"] and page.locator("#plan button[data-kind=kauf]").count():
            page.click("#plan button[data-kind=kauf]")
            if page.locator("#kauf-target option").count() > 1:
                page.select_option("#kauf-target", index=1)
                seen["kauf"] = True
            else:
                page.click("#plan button[data-kind=kauf]")
        renew = page.locator("#plan input[type=checkbox]")
        if renew.count():
            renew.first.check()
            seen["renew"] = True
        click_and_wait(page, "#make-plan")
    else:
        boxes = page.locator("#insure-panel input[type=checkbox]")
        if boxes.count():
            boxes.first.check()
            seen["insure"] = True
        click_and_wait(page, "#insure")


def test_complete_game_two_players_and_a_spectator(
    live_windcity: str, open_page, screenshots_dir: Path
) -> None:
    base = live_windcity
    ann, bob, watcher = open_page(), open_page(), open_page()
    game_id = create_game(ann, base, "Ann", seed=3, max_turns=12)
    join(bob, base, game_id, "Bob")
    watcher.goto(f"{base}/play?game={game_id}&watch=1")
    watcher.wait_for_selector("body[data-status=open]")
    watcher.evaluate("window.notReloaded = true")
    start(ann)
    players = [ann, bob]
    seen = {"kauf": False, "renew": False, "insure": False}
    moves = 0
    checked_illegal = reloaded = shot = False
    while (page := whose_turn(players)) is not None:
        phase = flag(page, "phase")
        if phase == "houses" and moves >= 4 and not checked_illegal:
            # The sea takes no house: the server's reason is shown and nothing changes.
            before = api_version(base, game_id)
            page.click("#board button[data-square=A2]", force=True)
            page.wait_for_function(
                "() => document.getElementById('alert').textContent !== ''"
                " && document.body.dataset.busy === 'false'"
            )
            assert "sea" in page.locator("#alert").text_content()
            assert api_version(base, game_id) == before
            assert flag(page, "myTurn") == "true"
            errors: list[str] = page.errors  # type: ignore[attr-defined]
            assert all(REFUSED in e for e in errors)  # the refused POST, nothing else
            errors.clear()
            checked_illegal = True
        if phase == "plan" and not reloaded:
            seat = flag(page, "seat")
            page.reload()
            page.wait_for_function("() => document.body.dataset.myTurn === 'true'")
            assert flag(page, "seat") == seat
            reloaded = True
        elif phase == "plan" and page.locator("#last-turn").count() and not shot:
            page.click("#plan button[data-kind=move] >> nth=0")  # the planned path shows
            assert page.locator("#board .planned").count() > 0
            assert serious(page) == []
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots_dir / "windcity-desktop.png"))
            page.set_viewport_size(PHONE)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshots_dir / "windcity-phone.png"))
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.set_viewport_size(DESKTOP)
            page.click("#plan button[data-kind=move] >> nth=0")
            shot = True
        play_one(page, seen)
        moves += 1
    assert checked_illegal and reloaded and shot
    assert seen["kauf"], "no Kauf was planned through the builder"
    assert moves > 25  # hurricane + 24 houses + turns

    score = requests.get(f"{base}/games/{game_id}/score", timeout=5).json()
    assert score["status"] == "finished"
    expected = [s["total"] for s in score["result"]["standings"]]
    for page in (ann, bob, watcher):
        page.wait_for_selector("#result")
        totals = page.locator("#result td.num").all_text_contents()
        assert list(map(int, totals)) == expected
    assert watcher.evaluate("window.notReloaded") is True
    assert int(flag(watcher, "version")) == api_version(base, game_id)
    assert watcher.locator("#board .sq.house").count() > 0

    ann.click("#replay-open")
    ann.click(".stepper button[data-key=first]")
    assert ann.locator("#board .sq.house").count() == 0
    ann.click(".stepper button[data-key=last]")
    final_houses = requests.get(f"{base}/games/{game_id}", timeout=5).json()["state"]["houses"]
    assert ann.locator("#board .sq.house").count() == len(final_houses)
    for page in (ann, bob, watcher):
        assert page.errors == []

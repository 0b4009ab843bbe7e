"""The page on a phone (390×844) and a laptop (1280×800), for both games, with the
longest names a seat may have: nothing wider than the screen, and the controls of a
move (or of the step-through of a finished game) within one screen of the board; on
the laptop, the board and those controls share the first screen. Manhattan's lots are
big enough to touch, and each building says who holds how many of its floors."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import (
    LONG_NAMES,
    ApiGame,
    assert_fits,
    assert_near_board,
    caught_up,
    to_act,
)

SIZES = {"phone": PHONE, "laptop": DESKTOP}
LETTERS = "ABCDE"


def shoot(page: Page, where: Path, name: str) -> None:
    """The first screen, as a player sees it (for a person to look at)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(where / f"{name}.png"))


def check_replay(page: Page) -> None:
    """A finished game: the step-through starts by the board and its buttons stay there."""
    page.wait_for_selector("#result")
    assert_fits(page)
    assert_near_board(page, "#replay-open")
    page.click("#replay-open")
    page.wait_for_selector(".stepper")
    assert_near_board(page, ".stepper button, .stepper input")
    page.click(".stepper button[data-key=first]")
    page.click(".stepper button[data-key=next]")
    assert "1 of" in page.locator(".stepper label").text_content()
    assert_fits(page)


@pytest.mark.parametrize("size", SIZES)
def test_manhattan_fits_with_its_controls_by_the_board(
    live_manhattan: str, open_page, size: str, screenshots_dir: Path
) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", *LONG_NAMES[:3]], seed=11)
    sides = {p["seat"]: p["side"] for p in game.view()["state"]["players"]}
    page = open_page(viewport=SIZES[size])
    game.play_until(to_act(0, "select"))
    game.open_as(page, 0)
    assert_fits(page)
    assert_near_board(page, "#controls button")

    # Building in round 2: the hand, the pieces and round 1's scores.
    game.play_until(lambda v: v["state"]["round"] >= 2 and to_act(0, "build")(v))
    caught_up(page, game)
    page.wait_for_selector("#scores td")
    assert_fits(page)
    assert_near_board(page, "#controls button")
    page.click("#board button[data-legal=true] >> nth=0")  # a lot, then its pieces
    page.wait_for_selector("#pieces button[data-legal=true]")
    assert_fits(page)
    assert_near_board(page, "#controls button")
    shoot(page, screenshots_dir, f"layout-manhattan-{size}-build")

    # A player on the west or east side sees the board turned (three rows of cities).
    turned = next(s for s, side in sides.items() if side in "WE")
    other = open_page(viewport=SIZES[size])
    game.play_until(to_act(turned, "build"))
    game.open_as(other, turned)
    assert other.locator("#board.turned").count() == 1
    assert_fits(other)
    assert_near_board(other, "#controls button")
    shoot(other, screenshots_dir, f"layout-manhattan-{size}-turned")

    game.finish()
    caught_up(page, game)
    check_replay(page)
    shoot(page, screenshots_dir, f"layout-manhattan-{size}-replay")


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("size", SIZES)
def test_windcity_fits_with_its_controls_by_the_board(
    live_windcity: str, open_page, size: str, players: int, screenshots_dir: Path
) -> None:
    names = ["Ann", *LONG_NAMES[: players - 1]]
    game = ApiGame.create("windcity", live_windcity, names, seed=4, max_turns=10)
    page = open_page(viewport=SIZES[size])
    game.play_until(to_act(0, "houses"))
    game.open_as(page, 0)
    assert_fits(page)
    assert_near_board(page, "#controls")

    # Planning a turn, with the last one's account and the scores beside the board.
    game.play_until(lambda v: v["state"]["turn"] >= 2 and to_act(0, "plan")(v))
    caught_up(page, game)
    page.wait_for_selector("#scores td")
    page.click("#plan button[data-kind=move] >> nth=0")
    if page.locator("#plan button[data-kind=kauf]").count():
        page.click("#plan button[data-kind=kauf]")
    assert_fits(page)
    assert_near_board(page, "#plan button, #plan input, #plan select")
    shoot(page, screenshots_dir, f"layout-windcity-{size}-{players}-plan")

    # Answering another player's insurance market.
    game.play_until(to_act(0, "insure"))
    caught_up(page, game)
    assert_fits(page)
    assert_near_board(page, "#insure-panel button, #insure-panel input")
    shoot(page, screenshots_dir, f"layout-windcity-{size}-{players}-insure")

    game.finish()
    caught_up(page, game)
    check_replay(page)
    shoot(page, screenshots_dir, f"layout-windcity-{size}-{players}-replay")


def test_manhattan_lots_are_big_enough_to_touch_on_a_phone(live_manhattan: str, open_page) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=3)
    page = open_page(viewport=PHONE)
    game.open_as(page, 0)
    sizes = page.evaluate(
        """[...document.querySelectorAll('#board .lot')].map(e => {
        const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })"""
    )
    assert len(sizes) == 54 and min(sizes) >= 44, min(sizes)
    assert_fits(page)


def takeover(view: dict, moves: list[dict]) -> dict | None:
    """A placement on a building another player owns, when there is one."""
    lots = view["state"]["cities"]
    for move in moves:
        if move["type"] == "place":
            owner = lots[move["city"] - 1]["lots"][move["lot"] - 1]["owner"]
            if owner is not None and owner != view["you"]:
                return move
    return None


def shared_lot(view: dict) -> tuple[int, int] | None:
    """(city, lot) of a building holding pieces of two players or more."""
    for number, city in enumerate(view["state"]["cities"], 1):
        for lot in city["lots"]:
            if len({p["seat"] for p in lot["pieces"]}) >= 2:
                return number, lot["lot"]
    return None


@pytest.mark.parametrize("size", SIZES)
def test_manhattan_shows_each_players_floors_in_a_building(
    live_manhattan: str, open_page, size: str, screenshots_dir: Path
) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=5)
    view = game.play_until(lambda v: shared_lot(v) is not None, choose=takeover)
    city, lot = shared_lot(view)
    here = view["state"]["cities"][city - 1]["lots"][lot - 1]
    held: dict[int, int] = {}
    for piece in here["pieces"]:
        held[piece["seat"]] = held.get(piece["seat"], 0) + piece["floors"]
    page = open_page(viewport=SIZES[size])
    game.open_as(page, None)
    button = page.locator(f"#board button[data-city='{city}'][data-lot='{lot}']")
    label = button.get_attribute("aria-label") or ""
    names = {p["seat"]: p["name"] for p in view["players"]}
    for seat, floors in held.items():
        # Readable on the lot (not a 3 px outline) and in its accessible name.
        chip = button.locator(f".floors [data-seat='{seat}']")
        assert chip.text_content() == f"{LETTERS[seat]}{floors}"
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 9 and box["width"] >= 12
        assert f"{names[seat]} {floors} floor" in label
    assert_fits(page)
    button.screenshot(path=str(screenshots_dir / f"layout-manhattan-{size}-shared-lot.png"))

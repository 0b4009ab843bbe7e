"""Driving the browser client like a player: only clicks on what the page offers."""

from __future__ import annotations

import time
from typing import Any

import requests
from playwright.sync_api import Page

MOVE_DONE = (
    """v => Number(document.body.dataset.version) > v && document.body.dataset.busy === 'false'"""
)


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def flag(page: Page, name: str) -> str:
    return page.evaluate(f"document.body.dataset.{name} || ''")


def create_game(page: Page, base: str, name: str, seed: int, **fields: Any) -> str:
    """Create a 2-player game in the lobby's form (joining as ``name``); its id."""
    page.goto(f"{base}/play")
    page.select_option("#opt-players", "2")
    for field, value in fields.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{field}", value)
        else:
            page.fill(f"#opt-{field}", str(value))
    page.fill("#host-name", name)
    page.click("#create summary")
    page.fill("#opt-seed", str(seed))
    page.click("#create-game")
    page.wait_for_selector("#start-game")
    return page.url.split("game=")[1].split("&")[0]


def join(page: Page, base: str, game_id: str, name: str) -> None:
    """Open the join link and take a seat."""
    page.goto(f"{base}/play?game={game_id}")
    page.wait_for_selector("body[data-status=open]")  # the page's script is in charge
    page.fill("#join-name", name)
    page.click("#join button[type=submit]")
    page.wait_for_function("() => document.body.dataset.seat !== ''")


def start(host: Page) -> None:
    host.click("#start-game")
    host.wait_for_selector("body[data-status=running]")


def whose_turn(pages: list[Page], timeout: float = 15) -> Page | None:
    """The page whose player may move now (None once the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            status = flag(page, "status")
            if status == "finished":
                return None
            if flag(page, "myTurn") == "true":
                return page
        time.sleep(0.02)
    raise AssertionError("nobody got the turn")


def click_and_wait(page: Page, selector: str) -> None:
    """Click the control that sends a move and wait for the new version."""
    before = version(page)
    page.click(selector)
    page.wait_for_function(MOVE_DONE, arg=before)


def api_version(base: str, game_id: str) -> int:
    return requests.get(f"{base}/games/{game_id}", timeout=5).json()["version"]

"""The tournaments' pages (issue 43) against live gunicorn and a real worker: the list
reached from the lobby, a tournament's page where the browser's player registers and,
as its host, starts it; the worker seats the first round and the page shows "your
table" (a link to the player's own game), the round's other games to watch and the
standings, on a 320 px wide screen. And the page in German, with no English left in
its labels."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import requests
from playwright.sync_api import Page, expect

from tests.web.drive import assert_fits, post

NARROW = {"width": 320, "height": 640}


def new_player(base: str, name: str) -> dict:
    return post(base, "/players", {"name": name})


def as_player(page: Page, player: dict) -> None:
    """The browser's player, as the lobby keeps it (its key in localStorage), set before
    each page of the context loads."""
    record = json.dumps({"id": player["id"], "name": player["name"], "key": player["key"]})
    page.context.add_init_script(f"localStorage.setItem('boardgames:player', {json.dumps(record)})")


def tournament(base: str, tid: str) -> dict:
    return requests.get(f"{base}/tournaments/{tid}", timeout=10).json()


def test_register_start_and_your_table(
    live_manhattan: str, open_page, workers, screenshots_dir: Path
) -> None:
    base = live_manhattan
    host = new_player(base, "Hana")
    spec = {
        "name": f"Friday Swiss {time.monotonic_ns()}",
        "rounds": 2,
        "table_size": 2,
        "clock": {"turn_seconds": 60},
        "bots": ["random"] * 3,
    }
    tid = post(base, "/tournaments", spec, token=host["key"])["id"]
    workers.start()
    page = open_page(viewport=NARROW)
    as_player(page, host)
    page.goto(f"{base}/play")
    page.click("#tournaments-link")
    row = page.locator(f'#tournament-list li[data-id="{tid}"]')
    expect(row).to_contain_text("Swiss, 2 rounds")
    expect(row).to_contain_text("registration open")
    expect(row).to_contain_text("3 players")  # the bots, so far
    listed = requests.get(f"{base}/tournaments?limit=20", timeout=10).json()
    more = page.locator("#tournaments-more")  # the list's next page, when there is one
    expect(more).to_be_visible() if listed["next_cursor"] else expect(more).to_be_hidden()
    assert_fits(page)
    row.locator("a").click()
    expect(page.locator("#tournament-name")).to_have_text(spec["name"])
    expect(page.locator("#tournament-settings")).to_contain_text("2 players: 6, 0")
    expect(page.locator("#standings-rows tr")).to_have_count(3)
    page.click("#register")
    expect(page.locator("#registered")).to_be_visible()
    expect(page.locator("#standings-rows tr")).to_have_count(4)  # standings follow the page
    assert host["id"] in tournament(base, tid)["entries"]
    page.click("#host-start")
    # the worker pairs round 1 and seats it; the page follows by itself
    link = page.locator("#your-table")
    expect(link).to_be_visible(timeout=20_000)
    expect(page.locator("#tournament-status")).to_have_text("round 1 of 2")
    doc = tournament(base, tid)
    (mine,) = [t for t in doc["history"][0]["tables"] if host["id"] in t["players"]]
    assert link.get_attribute("href") == f"/play?game={mine['game']}"
    (other,) = [t for t in doc["history"][0]["tables"] if host["id"] not in t["players"]]
    watch = page.locator(f'#round-games li[data-game="{other["game"]}"] a')
    assert watch.get_attribute("href") == f"/play?game={other['game']}&watch=1"
    rows = page.locator("#standings-rows tr")
    expect(rows).to_have_count(4)
    expect(page.locator(f'#standings-rows tr[data-player="{host["id"]}"]')).to_contain_text("Hana")
    expect(page.locator("#standings thead")).to_contain_text("Buchholz")
    assert_fits(page)
    page.screenshot(path=str(screenshots_dir / "tournament-320.png"), full_page=True)
    link.click()  # the player's own game, played with the player's key
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    expect(page.locator("main")).to_contain_text("Hana")
    assert page.errors == []


def test_the_page_in_german(live_manhattan: str, open_page) -> None:
    base = live_manhattan
    host = new_player(base, "Host")
    spec = {
        "name": "Sonntagsturnier",
        "format": "arena",
        "minutes": 20,
        "clock": {"turn_seconds": 30, "max_timeouts": 2},
        "starts_at": int(time.time() * 1000) + 3_600_000,
        "checkin_seconds": 600,
        "bots": ["greedy"],
    }
    tid = post(base, "/tournaments", spec, token=host["key"])["id"]
    page = open_page(locale="de-DE")
    as_player(page, new_player(base, "Jonas"))
    page.goto(f"{base}/play?tournament={tid}")
    expect(page.locator("#tournament-name")).to_have_text("Sonntagsturnier")
    countdown = re.compile(r"^Beginnt in (1:00:00|59:\d\d)$")  # an hour from now
    expect(page.locator("#tournament-countdown")).to_have_text(countdown)
    expect(page.locator("#tournament-status")).to_have_text("Anmeldung offen")
    expect(page.locator("#register")).to_have_text("Anmelden")
    expect(page.locator("#tournament-settings")).to_contain_text("Arena, 20 Minuten")
    expect(page.locator("#tournament-settings")).to_contain_text("30 Sekunden pro Zug")
    expect(page.locator("#standings-rows tr")).to_have_count(1)
    text = page.locator("main").inner_text()
    for english in (
        "Register",
        "Standings",
        "Settings",
        "Starts in",
        "Points",
        "Players",
        "Games",
        "Format",
        "Clock",
        "Check-in",
        "minutes",
        "registration",
        "You",
    ):
        assert english not in text, english
    for german in ("Tabelle", "Einstellungen", "Punkte pro Platz", "Freilose", "Einchecken"):
        assert german in text, german
    page.click("#register")
    expect(page.locator("#registered")).to_have_text("Du bist angemeldet.")
    expect(page.locator("#tournament-you")).to_contain_text("Das Einchecken beginnt")
    page.click("#tournaments-link")
    expect(page.locator(f'#tournament-list li[data-id="{tid}"]')).to_contain_text("2 Spieler")
    assert page.errors == []

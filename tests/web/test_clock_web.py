"""Turn clocks, bot seats and resigning in the browser: a Manhattan game created in the
lobby with a clock, a greedy bot seated by the host, the human's moves by clicks and the
bot's by a real worker process; the countdown stays in view at 390 px."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import requests

from tests.web.conftest import PHONE
from tests.web.test_manhattan_web import play_one
from tests.web.ui import create_game, flag, start, whose_turn

HUMAN_MOVES = 4


def test_bot_seat_clock_and_resign(live_manhattan: str, open_page, workers) -> None:
    base = live_manhattan
    ann = open_page(viewport=PHONE)
    game_id = create_game(ann, base, "Ann", seed=7, clock=True, turn_seconds=600)
    ann.select_option("#bot-kind", "greedy")
    ann.click("#add-bot")
    ann.wait_for_selector(".players [data-seat-status=bot]")
    assert ann.locator("#add-bot").count() == 0  # the game is full now
    start(ann)
    workers.start()

    view = requests.get(f"{base}/games/{game_id}", timeout=5).json()
    assert view["options"]["clock"]["turn_seconds"] == 600
    assert [p["status"] for p in view["players"]] == ["active", "bot"]
    assert ann.locator("#clock-rule").is_visible()

    bot_moved = False
    for _ in range(HUMAN_MOVES):
        assert whose_turn([ann], timeout=20) is ann
        # Ann's countdown: the deadline the server set, shown next to whose turn it is.
        clock = ann.locator("#clock")
        assert clock.is_visible()
        assert re.fullmatch(r"(9|10):\d\d left", clock.text_content().strip())
        mine = requests.get(f"{base}/games/{game_id}", timeout=5).json()["players"][0]
        assert clock.get_attribute("data-deadline") == (
            datetime.fromisoformat(mine["deadline"])
            .astimezone(UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z")
        )
        play_one(ann)
        log = requests.get(f"{base}/games/{game_id}/log", timeout=5).json()
        bot_moved = bot_moved or any(
            e.get("seat") == 1 and e["type"] != "player_joined" for e in log["events"]
        )

    # The worker played the bot's turns in between (the human never moved for it).
    assert whose_turn([ann], timeout=20) is ann
    log = requests.get(f"{base}/games/{game_id}/log", timeout=5).json()
    assert bot_moved or any(
        e.get("seat") == 1 and e["type"] != "player_joined" for e in log["events"]
    )

    # In view at 390 px even scrolled to the bottom (the status bar is sticky), no overflow.
    ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = ann.locator("#clock").bounding_box()
    assert box is not None and box["y"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Resign by keyboard, with a confirm step that can be backed out of.
    ann.focus("#resign-open")
    ann.keyboard.press("Enter")
    ann.wait_for_function("() => document.activeElement.id === 'resign-confirm'")
    ann.click("#resign-cancel")
    assert (
        requests.get(f"{base}/games/{game_id}", timeout=5).json()["players"][0]["status"]
        == "active"
    )
    ann.click("#resign-open")
    ann.keyboard.press("Enter")
    ann.wait_for_selector("#seat-status")
    assert "resigned" in ann.locator("#seat-status").text_content()
    ann.wait_for_selector(".players [data-seat-status=resigned]")
    assert (
        requests.get(f"{base}/games/{game_id}", timeout=5).json()["players"][0]["status"]
        == "resigned"
    )
    assert flag(ann, "myTurn") == "false"
    assert ann.errors == []  # type: ignore[attr-defined]

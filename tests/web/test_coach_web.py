"""Hints and the analysis after the game in the browser (issue 42): the Hint button shows
the bot's move for the seat and counts down; a finished game's page draws every seat's
chances as an inline SVG chart with the biggest drops (Manhattan, live gunicorn)."""

from __future__ import annotations

import threading

from shared.ops.config import load_settings
from shared.worker.analysing import Analyst
from shared.worker.loop import build_games
from tests.web.drive import ApiGame, to_act

SETTINGS = {"ANALYSIS_LEASE_SECONDS": 30.0, "WORKER_ANALYSIS_PROCESSES": 0}


def test_hint_button_and_analysis_chart(open_page, live_manhattan, redis_url):
    settings = load_settings({"REDIS_URL": redis_url, "WORKER_GAMES": "manhattan"})
    [kit] = build_games(settings)  # the service's Redis: a worker's view of it
    game = ApiGame.create(
        "manhattan", live_manhattan, ["Ann", "Bob"], seed=21, hints=1, rated=False
    )
    game.play_until(to_act(0))
    page = open_page()
    where: list = []
    page.on("console", lambda m: where.append(m.location) if m.type == "error" else None)
    game.open_as(page, 0)
    page.click("#hint-ask")
    page.wait_for_selector("#hint-move")
    assert "The bot would play:" in page.inner_text("#hint-move")
    assert game.view()["hints"]["used"] == [1, 0]
    # the hint_used event (a new version) reaches the page and the hint stays shown
    page.wait_for_function(f"document.body.dataset.version === '{game.view()['version']}'")
    assert "The bot would play:" in page.inner_text("#hint-move")
    page.wait_for_function("document.querySelector('#hint-ask').disabled")
    assert "0 left" in page.inner_text("#hint-ask")

    game.finish()
    page.reload()
    page.wait_for_selector("#analysis-pending")
    assert Analyst([kit], SETTINGS, threading.Event()).tick() >= 1
    page.wait_for_selector("#analysis-chart polyline", timeout=15_000)  # asked again
    assert page.locator("#analysis-chart polyline").count() == 2
    assert "Ann" in page.get_attribute("#analysis-chart", "aria-label")
    assert page.locator("#analysis-drops > li").count() == 2
    # no error but Chromium's own /favicon.ico (asked for the JSON page open_as visits)
    assert len(page.errors) == len(where)
    assert all(w["url"].endswith("/favicon.ico") for w in where), (page.errors, where)

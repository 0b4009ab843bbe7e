"""What the page says, as a returning or new player reads it: scores that follow every
move, the history kept across a reload, the clock field's range and its own message,
a finished game that is not "connecting…", a quiet one live at once, the host's word
once every seat is taken, no promotion-card rows in a game without them, and `/docs`
without RST markup."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page

from tests.web.conftest import PHONE
from tests.web.drive import ApiGame, caught_up, post, to_act
from tests.web.ui import create_game, flag

STILL_CONNECTING = {"connecting…", "reconnecting…", "offline, retrying…"}
SCORE_KEYS = ["houses", "beach", "duplex", "house_points", "money", "total"]


def log_lines(page: Page) -> list[str]:
    return page.locator("#log li").all_text_contents()


def windcity_scores_match(page: Page, game: ApiGame) -> None:
    """The Scores panel shows the service's score of every seat, for every figure."""
    seats = game.score()["score"]["seats"]
    expected = {f"{s['seat']}:{key}": str(s[key]) for s in seats for key in SCORE_KEYS}
    page.wait_for_function(
        """expected => Object.entries(expected).every(([where, value]) => {
          const [seat, key] = where.split(':');
          const cell = document.querySelector(`#scores [data-seat="${seat}"][data-key="${key}"]`);
          return cell !== null && cell.textContent.trim() === value; })""",
        arg=expected,
        timeout=5_000,
    )


def test_windcity_scores_follow_every_move(live_windcity: str, open_page) -> None:
    game = ApiGame.create("windcity", live_windcity, ["Ann", "Bob", "Cid"], seed=8, max_turns=10)
    page = open_page()
    game.open_as(page, 0)
    windcity_scores_match(page, game)
    # Houses built, insurance bought, turns paid for: no reload in between.
    game.play_until(lambda v: v["state"]["phase"] == "plan")
    caught_up(page, game)
    windcity_scores_match(page, game)
    game.play_until(lambda v: v["state"]["turn"] >= 3)
    caught_up(page, game)
    windcity_scores_match(page, game)
    money = page.locator("#scores [data-seat='1'][data-key='money']").text_content()
    state = game.view()["state"]["players"][1]
    assert money == str(state["money"])  # as the Players panel says


@pytest.mark.parametrize("game_name", ["manhattan", "windcity"])
def test_a_reload_keeps_what_happened(request, open_page, game_name: str) -> None:
    base = request.getfixturevalue(f"live_{game_name}")
    options = {"max_turns": 10} if game_name == "windcity" else {}
    game = ApiGame.create(game_name, base, ["Ann", "Bob"], seed=6, **options)
    page = open_page()
    game.open_as(page, 0)
    # A returning player first: what the others did before the page was opened.
    assert log_lines(page)[-1] == "The game was created."
    if game_name == "manhattan":
        game.play_until(lambda v: v["state"]["round"] >= 2 and to_act(0, "build")(v))
    else:
        game.play_until(lambda v: v["state"]["turn"] >= 3 and to_act(0, "plan")(v))
        page.wait_for_selector("#last-turn li")
    caught_up(page, game)
    before = log_lines(page)
    last_turn = page.locator("#last-turn").all_text_contents()
    assert len(before) >= 10
    page.reload()
    caught_up(page, game)
    after = log_lines(page)
    assert after[: len(before)] == before
    assert page.locator("#last-turn").all_text_contents() == last_turn
    # ... and it goes on live after the reload.
    game.play_until(lambda v: not to_act(0)(v))
    caught_up(page, game)
    assert len(log_lines(page)) > len(after) or log_lines(page)[0] != after[0]


def test_clock_field_keeps_to_the_servers_range(live_manhattan: str, open_page) -> None:
    page = open_page()
    page.goto(f"{live_manhattan}/play")
    field = page.locator("#opt-turn_seconds")
    # the server's range, from /openapi.json (the page's own default is the same 10)
    page.wait_for_function(
        "() => document.getElementById('opt-turn_seconds')?.form?.dataset.clockRange === 'server'"
    )
    assert field.get_attribute("min") == "10"
    assert field.get_attribute("max") == "1209600"
    assert field.is_disabled()  # until the clock is on
    page.check("#opt-clock")
    page.fill("#opt-turn_seconds", "5")
    page.click("#create-game")
    # The browser refuses the value at once, saying why, and nothing is created.
    assert page.evaluate("document.getElementById('opt-turn_seconds').validity.rangeUnderflow")
    assert "10" in page.evaluate("document.getElementById('opt-turn_seconds').validationMessage")
    assert "game=" not in page.url

    # A value the server refuses anyway (its range may be narrower than the page knows):
    # the field's own message, next to the field, not the generic "see `errors`".
    page.evaluate("document.getElementById('opt-turn_seconds').min = '1'")
    page.click("#create-game")
    message = page.locator("#opt-turn_seconds-error")
    message.wait_for()
    assert "Must be 10..1209600" in message.text_content()
    assert "turn_seconds-error" in (field.get_attribute("aria-describedby") or "")
    assert field.get_attribute("aria-invalid") == "true"
    assert "errors" not in page.locator("#alert").text_content()
    assert "game=" not in page.url
    # A valid value then creates the game.
    page.fill("#opt-turn_seconds", "30")
    page.click("#create-game")
    page.wait_for_url("**/play?game=*")
    game_id = page.url.split("game=")[1]
    view = requests.get(f"{live_manhattan}/games/{game_id}", timeout=5).json()
    assert view["options"]["clock"]["turn_seconds"] == 30


def test_a_finished_game_is_not_connecting(live_manhattan: str, open_page) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=2)
    game.finish()
    for seat in (0, None):
        page = open_page()
        game.open_as(page, seat)
        page.wait_for_selector("#result")
        page.wait_for_timeout(500)
        assert page.locator("#live").text_content() not in STILL_CONNECTING
        assert "Game over" in page.locator("#turn").text_content()


def test_a_quiet_games_seat_page_is_live_at_once(live_manhattan: str, open_page) -> None:
    """A seat's page follows by long-polls (25 s each when nothing happens): its first
    good read shows it live, not "connecting…" until the first long-poll returns."""
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=3)
    page = open_page()
    game.open_as(page, 0)
    page.wait_for_function(
        "() => document.getElementById('live').textContent === 'live'", timeout=3_000
    )


def test_the_host_is_told_to_start_once_every_seat_is_taken(live_manhattan: str, open_page) -> None:
    host = open_page()
    game_id = create_game(host, live_manhattan, "Ann", seed=1)
    assert "1 of 2 seats taken" in host.locator("#turn").text_content()
    post(live_manhattan, f"/games/{game_id}/players", {"name": "Bob"})
    host.wait_for_function("() => document.getElementById('turn').textContent.includes('2 of 2')")
    text = host.locator("#turn").text_content()
    assert "Waiting for players" not in text
    assert "start the game" in text
    # Bob, not the host, waits for the host.
    bob = open_page()
    bob.goto(f"{live_manhattan}/play?game={game_id}&watch=1")
    bob.wait_for_selector("body[data-status=open]")
    text = bob.locator("#turn").text_content()
    assert "Waiting for players" not in text and "host" in text


@pytest.mark.parametrize("promo", [False, True])
def test_promotion_card_rows_only_with_promotion_cards(
    live_manhattan: str, open_page, promo: bool
) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=4, promo_cards=promo)
    game.finish()
    page = open_page()
    game.open_as(page, None)
    page.wait_for_selector("#scores td")
    rows = page.locator("#scores tbody tr").all_text_contents()
    assert len([r for r in rows if "Promotion card" in r]) == (4 if promo else 0)
    assert len([r for r in rows if "Tallest building" in r]) == 4


def test_docs_show_no_rst_markup(live_manhattan: str, open_page) -> None:
    spec = requests.get(f"{live_manhattan}/openapi.json", timeout=5).json()
    texts = [
        (f"{method.upper()} {path}", op.get(key, ""))
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if isinstance(op, dict)
        for key in ("summary", "description")
    ]
    assert [where for where, text in texts if "``" in text] == []
    page = open_page()
    page.goto(f"{live_manhattan}/docs")
    page.wait_for_selector(".opblock-summary-description")
    summaries = page.locator(".opblock-summary-description").all_text_contents()
    # A summary is plain text in /docs: any backtick would show as is.
    assert len(summaries) >= 10
    assert [s for s in summaries if "`" in s] == []


def test_a_refused_name_says_why(live_manhattan: str, open_page) -> None:
    """The same flaw as the clock field's, on the join form: the field's own message."""
    game = post(live_manhattan, "/games", {"players": 2})
    page = open_page(viewport=PHONE)
    page.goto(f"{live_manhattan}/play?game={game['id']}")
    page.wait_for_selector("body[data-status=open]")
    page.fill("#join-name", "Ann\u0007")
    page.click("#join button[type=submit]")
    page.wait_for_function("() => document.getElementById('alert').textContent !== ''")
    text = page.locator("#alert").text_content()
    assert "name: " in text and "errors" not in text, text
    assert flag(page, "seat") == ""

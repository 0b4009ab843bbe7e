"""The table chat in the browser (issue 41), against both services' real chat routes:

- XSS payloads in a message and in a player's name are shown as text: no script runs, no
  element is made from them (history and live);
- a canned phrase sent from a Japanese page shows in German on a German page (and in
  Japanese on the sender's);
- on a phone (390 px) the chat is a bottom sheet behind a button that counts the unread
  messages; on a laptop (1280 px) a panel beside the board;
- muting a seat hides its messages (those already there and those to come, after a
  reload too), and not the others';
- a delayed spectator's own message shows once: at once, and again only at its place.
"""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE
from tests.web.drive import ApiGame, assert_fits, get, post, rect

# A name of at most 32 characters whose markup would run a script (an <img onerror>).
XSS_NAME = "<img src=x onerror=pwned=1>"
XSS_TEXTS = [
    "<script>window.pwned = 2</script>",
    '<img src=x onerror="window.pwned = 3"><b id=injected>bold</b>',
    "<svg onload=window.pwned=4></svg>&lt;b&gt; &amp; \"'`${1+1}",
]
PWNED = "() => typeof window.pwned === 'undefined' && !document.getElementById('injected')"


def say(game: ApiGame, seat: int, body: dict[str, Any]) -> dict:
    return post(game.base, f"/games/{game.id}/chat", body, game.tokens[seat])["message"]


def phrases(base: str, language: str) -> dict[str, str]:
    answer = requests.get(f"{base}/chat/phrases", headers={"Accept-Language": language}, timeout=5)
    assert answer.status_code == 200, answer.text
    return {p["code"]: p["text"] for p in answer.json()["phrases"]}


def bodies(page: Page) -> list[str]:
    """The words of the messages shown, oldest first."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#chat-list .chat-body')]
        .map(e => e.textContent).reverse()"""
    )


def open_as(game: ApiGame, page: Page, seat: int | None) -> None:
    """The game in ``page`` as ``seat``, its chat's history loaded."""
    game.open_as(page, seat)
    page.wait_for_selector("body[data-chat=ready]")


def shown(page: Page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#chat-list .chat-msg').length === n", arg=count
    )


def test_xss_in_messages_and_names_is_shown_as_text(live_manhattan: str, open_page) -> None:
    game = ApiGame.create("manhattan", live_manhattan, [XSS_NAME, "Bob"], seed=41)
    say(game, 0, {"text": XSS_TEXTS[0]})
    say(game, 1, {"text": XSS_TEXTS[1]})
    page = open_page(viewport=DESKTOP)
    open_as(game, page, 1)
    shown(page, 2)
    say(game, 0, {"text": XSS_TEXTS[2]})  # live, from the event stream
    shown(page, 3)
    assert bodies(page) == XSS_TEXTS
    names = page.locator("#chat-list .chat-name").all_text_contents()
    assert any(XSS_NAME in n for n in names), names
    # Nothing in the chat was made from the payloads: only the page's own elements.
    made = page.evaluate(
        """() => [...document.querySelectorAll('#chat-list *')].map(e => e.tagName.toLowerCase())"""
    )
    assert set(made) <= {"li", "div", "span", "time", "button", "p"}, set(made)
    assert page.evaluate(PWNED), "a payload ran"
    assert page.locator("img, script:not([type=module]), svg[onload], #injected").count() == 0
    assert page.errors == [] or all("Failed to load resource" in e for e in page.errors)


def test_a_phrase_from_a_japanese_page_shows_in_german(live_windcity: str, open_page) -> None:
    game = ApiGame.create("windcity", live_windcity, ["Aiko", "Dieter"], seed=41, max_turns=10)
    ja, de = open_page(locale="ja-JP"), open_page(locale="de-DE")
    open_as(game, ja, 0)
    open_as(game, de, 1)
    german, japanese = phrases(live_windcity, "de"), phrases(live_windcity, "ja")
    assert german["gg"] != japanese["gg"] != phrases(live_windcity, "en")["gg"]
    ja.wait_for_selector("#chat-phrases .chat-phrase[data-phrase=gg]")
    assert ja.locator(".chat-phrase[data-phrase=gg]").text_content() == japanese["gg"]
    ja.click(".chat-phrase[data-phrase=gg]")
    shown(de, 1)
    shown(ja, 1)
    assert de.locator("#chat-list .chat-body[data-phrase=gg]").text_content() == german["gg"]
    assert ja.locator("#chat-list .chat-body[data-phrase=gg]").text_content() == japanese["gg"]
    # The German page's history (a reload) says it in German too.
    de.reload()
    shown(de, 1)
    assert bodies(de) == [german["gg"]]


def test_on_a_phone_the_chat_is_a_sheet_with_an_unread_count(
    live_manhattan: str, open_page
) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=42)
    page = open_page(viewport=PHONE)
    open_as(game, page, 0)
    page.wait_for_selector("#chat-toggle")
    assert not page.locator("#chat").is_visible()
    assert page.locator("#chat-toggle").is_visible()
    assert not page.locator("#chat-unread").is_visible()
    say(game, 1, {"text": "hi Ann"})
    say(game, 1, {"phrase": "your_turn"})
    page.wait_for_function("() => document.getElementById('chat-unread').textContent === '2'")
    assert page.locator("#chat-unread").is_visible()
    box = rect(page, "#chat-toggle")
    assert box["right"] <= PHONE["width"] and box["width"] >= 44 and box["height"] >= 32
    page.click("#chat-toggle")
    page.wait_for_selector("#chat.open")
    assert page.locator("#chat").is_visible() and not page.locator("#chat-toggle").is_visible()
    sheet = page.evaluate("() => document.getElementById('chat').getBoundingClientRect().toJSON()")
    assert sheet["left"] == 0 and sheet["right"] == PHONE["width"]
    assert abs(sheet["bottom"] - PHONE["height"]) <= 1 and sheet["top"] > PHONE["height"] * 0.2
    assert page.evaluate("document.activeElement.id") == "chat-text"
    assert bodies(page)[0] == "hi Ann"
    page.fill("#chat-text", "hello Bob")
    assert page.locator("#chat-count").text_content() == "9/500"
    page.click("#chat-send")
    shown(page, 3)
    assert bodies(page)[-1] == "hello Bob" and page.input_value("#chat-text") == ""
    assert get(game.base, f"/games/{game.id}/chat", game.tokens[1])["messages"][-1]["text"] == (
        "hello Bob"
    )
    assert_fits(page)
    page.click("#chat-close")
    assert not page.locator("#chat").is_visible()
    assert not page.locator("#chat-unread").is_visible()


def test_on_a_laptop_the_chat_is_a_panel_beside_the_board(live_windcity: str, open_page) -> None:
    game = ApiGame.create("windcity", live_windcity, ["Ann", "Bob"], seed=43, max_turns=10)
    say(game, 1, {"text": "good luck"})
    page = open_page(viewport=DESKTOP)
    open_as(game, page, 0)
    shown(page, 1)
    assert page.locator("#chat").is_visible() and not page.locator("#chat-toggle").is_visible()
    board, chat = rect(page, "#board"), rect(page, "#chat")
    assert chat["left"] >= board["right"], (board, chat)  # beside, not under
    assert chat["top"] < DESKTOP["height"], "the chat starts below the first screen"
    page.click(".chat-phrase[data-phrase=thanks]")
    shown(page, 2)
    assert page.locator("#chat-list .chat-msg.mine").count() == 1
    say(game, 1, {"text": "you are welcome"})  # seen in the panel: nothing is unread
    shown(page, 3)
    assert page.evaluate("document.getElementById('chat-unread').hidden")
    assert_fits(page)


def test_muting_a_seat_hides_its_messages(live_manhattan: str, open_page) -> None:
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob", "Cy"], seed=44)
    say(game, 1, {"text": "from Bob"})
    say(game, 2, {"text": "from Cy"})
    page = open_page(viewport=DESKTOP)
    open_as(game, page, 0)
    shown(page, 2)
    page.click("#chat-list .chat-msg[data-seat='1'] .chat-actions")
    page.click("#chat-mute")
    shown(page, 1)
    assert bodies(page) == ["from Cy"]
    assert page.locator("#chat-muted .chat-unmute").count() == 1
    say(game, 1, {"text": "Bob again"})  # live: not shown
    say(game, 2, {"text": "Cy again"})
    shown(page, 2)
    assert bodies(page) == ["from Cy", "Cy again"]
    page.reload()  # the mute is kept
    shown(page, 2)
    assert bodies(page) == ["from Cy", "Cy again"]
    page.click("#chat-muted .chat-unmute")
    shown(page, 4)


def test_block_and_report_from_a_messages_menu(live_manhattan: str, open_page) -> None:
    base = live_manhattan
    people = {name: post(base, "/players", {"name": name}) for name in ("Ann", "Bob", "Cy")}
    created = post(base, "/games", {"players": 3, "seed": 45})
    tokens = {}
    for who in people.values():
        joined = post(base, f"/games/{created['id']}/players", {}, who["key"])
        tokens[joined["seat"]] = joined["token"]
    post(base, f"/games/{created['id']}/start", {}, created["host_token"])
    # Bob and Cy talk with their player keys: their messages name their players (a seat
    # token's do not), so a player may block them.
    game = ApiGame("manhattan", base, created["id"], created["host_token"], tokens)
    keyed = ApiGame(
        "manhattan",
        base,
        created["id"],
        created["host_token"],
        {1: people["Bob"]["key"], 2: people["Cy"]["key"]},
    )
    say(keyed, 1, {"text": "buy gold now"})
    say(keyed, 2, {"text": "you are all terrible"})
    page = open_page(viewport=DESKTOP)
    page.goto(f"{base}/play/config.json")
    ann = people["Ann"]
    page.evaluate(
        "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
        {"id": ann["id"], "name": ann["name"], "key": ann["key"]},
    )
    open_as(game, page, 0)
    shown(page, 2)
    page.click("#chat-list .chat-msg[data-seat='1'] .chat-actions")
    page.click("#chat-block")
    shown(page, 1)
    assert "Bob" in page.locator("#chat-notice").text_content()
    say(keyed, 1, {"text": "still selling gold"})  # live: never shown to Ann
    page.click("#chat-list .chat-msg[data-seat='2'] .chat-actions")
    page.click("#chat-report")
    page.select_option("#chat-reason", "abuse")
    page.fill("#chat-note", "rude to everyone")
    page.click("#chat-report-send")
    page.wait_for_function("() => !document.getElementById('chat-report-form')")
    say(keyed, 2, {"text": "sorry"})
    shown(page, 2)
    assert bodies(page) == ["you are all terrible", "sorry"]
    mine = get(base, "/players/me/export", ann["key"])["moderation"]
    assert [b["player"] for b in mine["blocks"]] == [people["Bob"]["id"]]
    assert [(r["kind"], r["reason"], r["note"]) for r in mine["reports"]] == [
        ("message", "abuse", "rude to everyone")
    ]
    page.reload()  # the block holds (the API's, read with Ann's key)
    shown(page, 2)
    assert bodies(page) == ["you are all terrible", "sorry"]


def test_the_chat_goes_on_after_the_game(live_manhattan: str, open_page) -> None:
    """The event stream ends with the game; a "gg" said after it still arrives (the page
    long-polls the chat then)."""
    game = ApiGame.create("manhattan", live_manhattan, ["Ann", "Bob"], seed=46)
    page = open_page(viewport=DESKTOP)
    open_as(game, page, 0)
    game.finish()
    page.wait_for_selector("body[data-status=finished]")
    say(game, 1, {"phrase": "gg"})
    shown(page, 1)
    assert page.locator("#chat-list .chat-body[data-phrase=gg]").text_content() == "Good game"
    page.fill("#chat-text", "thanks, well played")
    page.click("#chat-send")
    shown(page, 2)


def test_spectators_talk_among_themselves_while_the_game_runs(
    live_windcity: str, open_page
) -> None:
    game = ApiGame.create(
        "windcity", live_windcity, ["Ann", "Bob"], seed=48, max_turns=10, spectator_chat=True
    )
    eve = post(live_windcity, "/players", {"name": "Eve"})
    seat, watcher = open_page(viewport=DESKTOP), open_page(viewport=PHONE)
    open_as(game, seat, 0)
    watcher.goto(f"{live_windcity}/play/config.json")
    watcher.evaluate(
        "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
        {"id": eve["id"], "name": eve["name"], "key": eve["key"]},
    )
    watcher.goto(f"{live_windcity}/play?game={game.id}")  # Eve's player key, no seat
    watcher.wait_for_selector("body[data-chat=ready]")
    say(game, 0, {"text": "hello table"})
    watcher.click("#chat-toggle")
    watcher.fill("#chat-text", "B should build on E9")
    watcher.click("#chat-send")
    shown(watcher, 2)
    assert watcher.locator("#chat-list .chat-msg[data-channel=spectators]").count() == 1
    say(game, 1, {"text": "thinking"})
    shown(seat, 2)  # the seats' messages only: never the spectators'
    assert bodies(seat) == ["hello table", "thinking"]
    seat.reload()
    shown(seat, 2)
    assert seat.locator("#chat-list .chat-msg[data-channel=spectators]").count() == 0


def test_a_delayed_spectators_own_message_shows_once(live_manhattan: str, open_page) -> None:
    """The answer to a delayed spectator's message has no id (it would tell the live
    version): the page shows it last at once, and once only when the stream brings it."""
    game = ApiGame.create(
        "manhattan", live_manhattan, ["Ann", "Bob"], seed=50, spectator_delay=1, spectator_chat=True
    )
    eve = post(live_manhattan, "/players", {"name": "Eve"})
    watcher = open_page(viewport=DESKTOP)
    watcher.goto(f"{live_manhattan}/play/config.json")
    watcher.evaluate(
        "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
        {"id": eve["id"], "name": eve["name"], "key": eve["key"]},
    )
    game.step()
    game.step()
    watcher.goto(f"{live_manhattan}/play?game={game.id}")  # Eve's player key, no seat
    watcher.wait_for_selector("body[data-chat=ready]")
    watcher.fill("#chat-text", "from the stands")
    watcher.click("#chat-send")
    shown(watcher, 1)
    assert watcher.locator("#chat-list .chat-msg").get_attribute("data-id") == ""
    game.step()
    game.step()  # the delayed position passes the message: the stream brings it, with its id
    watcher.wait_for_function(
        "() => document.querySelector('#chat-list .chat-msg').dataset.id !== ''"
    )
    shown(watcher, 1)
    assert bodies(watcher) == ["from the stands"]


def test_a_players_only_table_is_followed_with_the_seats_token(
    live_manhattan: str, open_page
) -> None:
    """A game nobody but its players may watch refuses a stream without a credential
    (an EventSource cannot send one): the seat's page long-polls with its token, and the
    moves and the messages still come live."""
    game = ApiGame.create(
        "manhattan", live_manhattan, ["Ann", "Bob"], seed=49, spectators="players"
    )
    assert requests.get(f"{live_manhattan}/games/{game.id}/events", timeout=5).status_code == 403
    page = open_page(viewport=DESKTOP)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/events" in r.url else None)
    open_as(game, page, 0)
    say(game, 1, {"text": "only us here"})
    shown(page, 1)
    before = int(page.evaluate("document.body.dataset.version"))
    game.step()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert page.locator("#live").text_content() != ""
    assert asked and all("wait=" in url for url in asked)  # long-polls, no EventSource

"""Embeds in a platform's page (issue 44), for real: Manhattan under gunicorn with an API
key whose ``frame_origins`` allow one host page, served from another origin (another
port), and a second host on a third port that the key allows nothing
(tests/web/embedhost.py).

The flow (ready, your_turn, moved, game_over in order), links used twice, expired or
aimed at another game, the session's reach, framing (CSP) and messages of a disallowed
origin, the lobby never framed, a spectator's embed that never shows a hand, and the
example platform. Looks (theme, sizes, languages): test_embed_looks_web.py; Wind City:
test_embed_windcity_web.py.
"""

from __future__ import annotations

import importlib.util
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest
import requests
from playwright.sync_api import Page, Route

from shared.games import embeds as tokens
from tests.web.embedhost import SECRET, Platform, embed_frame, platform, types
from tests.web.test_manhattan_web import play_one

__all__ = ["platform"]  # (the fixture, for this module's tests)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "platform" / "app.py"


@pytest.mark.slow  # a whole game (about 15 s)
def test_the_flow_ready_turn_moved_game_over(platform: Platform, open_page: Callable) -> None:
    game_id, who, bob = platform.seated_game(rated=True)  # (its result: ratings, links)
    url = platform.link(game_id, who)
    page = open_page()
    page.goto(platform.allowed.url(url))
    frame = embed_frame(page)
    page.wait_for_function("got.some(m => m.type === 'your_turn')")
    play_one(cast(Page, frame))  # (a frame has every method play_one uses)
    page.wait_for_function("got.some(m => m.type === 'moved')")
    platform.finish(game_id, who, bob)
    page.wait_for_function("got.some(m => m.type === 'game_over')", timeout=30_000)
    seen = types(page)
    order = [seen.index(t) for t in ("ready", "your_turn", "moved", "game_over")]
    assert order == sorted(order), seen
    over = page.evaluate("got.find(m => m.type === 'game_over')")
    public = requests.get(f"{platform.base}/games/{game_id}/score").json()["result"]
    assert over["result"] == public
    # no lobby, header or links out (none to click, none to reach with the keyboard)
    assert frame.query_selector("header") is None and frame.query_selector("#links") is None
    assert frame.evaluate("[...document.querySelectorAll('a')].map(a => a.textContent)") != []
    assert frame.evaluate("document.querySelectorAll('a[href]').length") == 0
    assert page.errors == [] and "error" not in seen
    # the same link again: refused, with a page saying so
    again = open_page()
    again.goto(url)
    assert again.locator("#refused").get_attribute("data-code") == "embed-link-used"
    # ... and, framed, it tells the host page so
    host = open_page()
    host.goto(platform.allowed.url(url))
    host.wait_for_function("() => got.some(m => m.type === 'error')")
    assert host.evaluate("got.find(m => m.type === 'error').code") == "embed-link-used"


def test_an_expired_link_or_another_games_session_is_refused_a_hint_given_a_session_renewed(
    platform: Platform, open_page: Callable
) -> None:
    game_a, who, _ = platform.seated_game()
    game_b, _, _ = platform.seated_game()
    player = requests.get(f"{platform.base}/players/me", headers=platform.as_player(who)).json()
    past = tokens.Claims(
        tokens.LINK,
        "manhattan",
        game_a,
        player["id"],
        tokens.SEAT,
        "x",
        int(time.time()) - 5,
        uuid.uuid4().hex,
        "de",
    )
    page = open_page()
    page.goto(f"{platform.base}/embed?t={tokens.sign(SECRET.encode(), past)}")
    refused = page.locator("#refused")
    assert refused.get_attribute("data-code") == "embed-link-expired"
    assert (
        page.evaluate("document.documentElement.lang") == "de"
        and "abgelaufen" in refused.inner_text()
    )
    # a live session of game A: its game only
    host = open_page()
    host.goto(platform.allowed.url(platform.link(game_a, who)))
    frame = embed_frame(host)
    frame.click("#hint-ask")  # the seat's hints, as the game allows them
    frame.wait_for_selector("#hint-move")
    version = requests.get(f"{platform.base}/games/{game_a}").json()["version"]
    frame.wait_for_function(f"boardgamesPage.view.version >= {version}")  # (the hint's)
    assert frame.evaluate("boardgamesPage.view.hints.used[0]") == 1
    assert types(host) == ["ready", "your_turn"]  # a hint is no move
    credential = frame.evaluate("boardgamesPage.session.credential")
    bearer = {"Authorization": f"Bearer {credential}"}
    move = requests.get(f"{platform.base}/games/{game_a}/legal-moves", headers=bearer).json()
    r = requests.post(
        f"{platform.base}/games/{game_b}/moves", json=move["moves"][0], headers=bearer
    )
    assert (r.status_code, r.json()["code"]) == (403, "embed-scope")
    for path in ("/players/me/export", f"/games/{game_b}"):
        r = requests.get(platform.base + path, headers=bearer)
        assert (r.status_code, r.json()["code"]) == (403, "embed-scope"), path
    # the page renews its session while the game goes on
    frame.wait_for_function(
        "c => boardgamesPage.session.credential !== c", arg=credential, timeout=15_000
    )
    fresh = frame.evaluate("boardgamesPage.session.credential")
    r = requests.get(
        f"{platform.base}/games/{game_a}", headers={"Authorization": f"Bearer {fresh}"}
    )
    assert r.json()["you"] == 0


def test_a_refused_move_tells_the_host_its_code_and_the_pages_hints_tell_it_nothing(
    platform: Platform, open_page: Callable
) -> None:
    """The service refuses the seat's move (here, a routed 409 ``not-your-turn``): the
    player reads why and the host page gets an ``error`` with that problem's code. The
    page's own hints on the way (choosing pieces) are the player's alone: no ``error``."""
    game_id, who, _ = platform.seated_game()
    page = open_page()
    refusal = {"type": "about:blank", "title": "Conflict", "status": 409,
               "code": "not-your-turn", "detail": "It is not your turn."}  # fmt: skip

    def refuse(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.fulfill(status=409, content_type="application/problem+json", body=json.dumps(refusal))

    page.context.route("**/games/*/moves", refuse)
    page.goto(platform.allowed.url(platform.link(game_id, who)))
    frame = embed_frame(page)
    page.wait_for_function("got.some(m => m.type === 'your_turn')")
    while frame.is_disabled("#confirm-pieces"):
        frame.click("#select button[data-size][data-legal=true] >> nth=0")
    assert "error" not in types(page)
    frame.click("#confirm-pieces")
    page.wait_for_function("got.some(m => m.type === 'error')")
    error = page.evaluate("got.find(m => m.type === 'error')")
    assert error["code"] == "not-your-turn", error
    assert error["message"] in frame.locator("#alert").text_content()


def _refresh_refused(page: Page, times: int | None) -> list[float]:
    """The session renewals of ``page`` answered 503 problem+json, the first ``times``
    (``None``: all), the rest passed on; when each was tried (filled as they come)."""
    refusal = {"type": "about:blank", "title": "Unavailable", "status": 503, "code": "down"}
    tries: list[float] = []

    def refuse(route: Route) -> None:
        tries.append(time.monotonic())
        if times is None or len(tries) <= times:
            body = json.dumps(refusal)
            route.fulfill(status=503, content_type="application/problem+json", body=body)
        else:
            route.continue_()

    page.context.route("**/embed/session/refresh", refuse)
    return tries


@pytest.mark.slow  # the renewal 5 s in, then its two retries (2 s, 6 s later)
def test_a_failed_session_refresh_tells_the_host_with_a_code(
    platform: Platform, open_page: Callable
) -> None:
    """The page renews its session 5 s in (sessions of 65 s here); the service refuses
    the renewal, and again on each retry: the player reads why, the host gets an
    ``error`` with a stable code, once the retries are spent."""
    game_id, who, _ = platform.seated_game()
    page = open_page()
    tries = _refresh_refused(page, times=None)
    page.goto(platform.allowed.url(platform.link(game_id, who)))
    frame = embed_frame(page)
    page.wait_for_function("got.some(m => m.type === 'error')", timeout=30_000)
    error = page.evaluate("got.find(m => m.type === 'error')")
    assert error["code"] == "embed-session-refresh-failed", error
    assert "could not be renewed" in error["message"]
    assert error["message"] in frame.locator("#alert").text_content()
    assert len(tries) == 3 and tries[2] - tries[0] >= 7, tries  # tried again 2 s, 6 s on


def test_a_session_refresh_that_fails_once_is_retried_and_nothing_is_told(
    platform: Platform, open_page: Callable
) -> None:
    """A blip: the first renewal gets a 503, the retry 2 s later goes through; the page
    goes on with the fresh session and the host hears no error."""
    game_id, who, _ = platform.seated_game()
    page = open_page()
    tries = _refresh_refused(page, times=1)
    page.goto(platform.allowed.url(platform.link(game_id, who)))
    frame = embed_frame(page)
    credential = frame.evaluate("boardgamesPage.session.credential")
    frame.wait_for_function(
        "c => boardgamesPage.session.credential !== c", arg=credential, timeout=20_000
    )
    assert len(tries) == 2 and tries[1] - tries[0] >= 1.5, tries
    fresh = frame.evaluate("boardgamesPage.session.credential")
    r = requests.get(
        f"{platform.base}/games/{game_id}", headers={"Authorization": f"Bearer {fresh}"}
    )
    assert r.json()["you"] == 0
    frame.click("#hint-ask")  # the page acts with the fresh session
    frame.wait_for_selector("#hint-move")
    time.sleep(0.5)
    assert "error" not in types(page), types(page)
    assert not (frame.locator("#alert").text_content() or "").strip()


def test_a_disallowed_origin_cannot_frame_nor_command(
    platform: Platform, open_page: Callable
) -> None:
    game_id, who, _ = platform.seated_game()
    page = open_page()
    page.goto(platform.other.url(platform.link(game_id, who)))
    time.sleep(2)
    assert page.evaluate("got.length + raw.length") == 0
    frame = next(f for f in page.frames if f is not page.main_frame)
    assert "/embed?" not in frame.url or frame.query_selector("#main") is None
    # opened by that origin in a window of its own: it works, yet takes no command
    # from the opener and tells it nothing
    opener = open_page()
    with opener.context.expect_page() as popup_info:
        opener.goto(platform.other.url(platform.link(game_id, who), mode="popup"))
    popup = popup_info.value
    popup.wait_for_function("() => window.boardgamesPage && boardgamesPage.view")
    before = popup.evaluate("getComputedStyle(document.body).backgroundColor")
    for _ in range(5):
        opener.evaluate(
            """popup.postMessage({source: 'boardgames', type: 'set_theme',
            theme: {bg: 'rgb(1, 2, 3)'}}, '*')"""
        )
        time.sleep(0.1)
    assert popup.evaluate("getComputedStyle(document.body).backgroundColor") == before
    assert opener.evaluate("raw.length") == 0


SET_THEME = """origin => window.dispatchEvent(new MessageEvent("message", {origin,
    source: window.parent, data: {source: "boardgames", type: "set_theme",
    theme: {bg: "rgb(4, 5, 6)"}}}))"""
BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def test_in_an_allowed_page_a_third_party_commands_nothing_and_hears_nothing(
    platform: Platform, open_page: Callable
) -> None:
    """A frame of another origin inside the allowed host page (an ad, say) sends
    set_theme and set_language to the seat's frame ten times a second: nothing changes,
    and it receives nothing. A command from the parent window is taken only with the
    allowed origin (a message event made in the frame with the parent as its source)."""
    game_id, who, _ = platform.seated_game()
    url = platform.link(game_id, who, language="de")
    page = open_page()
    page.goto(platform.allowed.url(url, third=platform.other.url(mode="attacker")))
    frame = embed_frame(page)
    third = next(f for f in page.frames if f.url.startswith(platform.other.origin))
    frame.wait_for_selector("#board")
    before = frame.evaluate(BACKGROUND)
    time.sleep(1.5)  # some 15 rounds of the third party's commands
    assert third.evaluate("sent") >= 10 and third.evaluate("raw.length") == 0
    assert frame.evaluate(BACKGROUND) == before and before != "rgb(1, 2, 3)"
    assert frame.evaluate("document.documentElement.lang") == "de"
    frame.evaluate(SET_THEME, platform.other.origin)
    assert frame.evaluate(BACKGROUND) == before
    frame.evaluate(SET_THEME, platform.allowed.origin)
    frame.wait_for_function(f"() => {BACKGROUND} === 'rgb(4, 5, 6)'")


def test_the_lobby_cannot_be_framed(platform: Platform, open_page: Callable) -> None:
    page = open_page()
    page.goto(platform.allowed.url(mode="lobby"))
    time.sleep(1.5)
    frame = next(f for f in page.frames if f is not page.main_frame)
    assert frame.query_selector("#main") is None
    r = requests.get(f"{platform.base}/play")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


def test_a_spectators_embed_never_shows_a_hand(platform: Platform, open_page: Callable) -> None:
    """A watching embed of a game whose spectators need its watch link: the signed link
    stands for it (the page reads and follows with its session), and the page shows
    what anyone may see, never the hand of the player it was made for."""
    game_id, who, bob = platform.seated_game(spectators="link")
    page = open_page()
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    page.goto(platform.allowed.url(platform.link(game_id, who, mode="watch")))
    frame = embed_frame(page)
    frame.wait_for_selector("#board")
    view = frame.evaluate("boardgamesPage.view")
    assert view["you"] is None and view["state"]["hand"] is None
    assert frame.query_selector("#hand") is None
    seat_view = requests.get(f"{platform.base}/games/{game_id}", headers=platform.as_player(who))
    hand = seat_view.json()["state"]["hand"]
    assert hand and json.dumps(hand) not in json.dumps(view)
    # it follows the game: a move of each seat arrives
    bearers = {0: platform.as_player(who), 1: {"Authorization": f"Bearer {bob}"}}
    for seat, headers in bearers.items():
        legal = requests.get(f"{platform.base}/games/{game_id}/legal-moves", headers=headers)
        moved = requests.post(
            f"{platform.base}/games/{game_id}/moves", json=legal.json()["moves"][0], headers=headers
        )
        assert moved.ok, (seat, moved.text)
    version = requests.get(f"{platform.base}/games/{game_id}", headers=bearers[0]).json()["version"]
    page.wait_for_function(f"got.some(m => m.type === 'moved' && m.version >= {version})")
    view = frame.evaluate("boardgamesPage.view")
    assert view["you"] is None and view["state"]["hand"] is None
    assert frame.query_selector("#hand") is None and "your_turn" not in types(page)
    # nothing refused (a watching session mutes nobody: its page never asks for mutes)
    frame.wait_for_function("document.body.dataset.chat === 'ready'")
    assert refused == [] and page.errors == [] and "error" not in types(page)


def test_the_example_platform_shows_a_seat(
    platform: Platform, open_page: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/platform/app.py against the service: a login, a quick match and a page
    that mounts the link; its page, served from the allowed origin, plays in the frame."""
    monkeypatch.setenv("GAME_SERVICE", platform.base)
    monkeypatch.setenv("API_KEY", platform.key)
    spec = importlib.util.spec_from_file_location("platform_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    client = example.app.test_client()
    assert client.post("/login", data={"name": "Zoë Example", "lang": "de"}).status_code == 302
    html = client.get("/play").get_data(as_text=True)
    assert f"{platform.base}/embed?t=bgl_" in html and "bgk_" not in html
    host_page, platform.allowed.page = platform.allowed.page, html.encode()
    try:  # the platform's page, on the allowed origin
        page = open_page()
        page.goto(platform.allowed.url())
        page.wait_for_function("() => document.getElementById('note').textContent === 'Your game'")
        frame = next(f for f in page.frames if "/embed?" in f.url)
    finally:
        platform.allowed.page = host_page
    assert frame.evaluate("document.documentElement.lang") == "de"

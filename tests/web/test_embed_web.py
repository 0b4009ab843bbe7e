"""Embeds in a platform's page (issue 44), for real: Manhattan under gunicorn with an API
key whose ``frame_origins`` allow one host page, and that host page served from another
origin (another port) by a small HTTP server, mounting the seat with ``/embed.js``; a
second host on a third port is allowed nothing.

The flow (ready, your_turn, moved, game_over in order), links used twice, expired or
aimed at another game, the session's reach, framing (CSP) and messages of a disallowed
origin, the lobby never framed, theming, 320 px and 1280 px, ja and de, and a
spectator's embed that never shows a hand.
"""

from __future__ import annotations

import importlib.util
import json
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest
import requests
from playwright.sync_api import Frame, Page

from clients.cli import admin
from shared.games import embeds as tokens
from tests.conftest import LIVE_ENV, free_port, serve
from tests.web.test_manhattan_web import play_one

SECRET = "embed-test-secret"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "platform" / "app.py"
HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0"><div id="slot"></div>
<script src="SERVICE/embed.js"></script>
<script>
window.got = []; window.raw = [];
addEventListener("message", (e) => raw.push({origin: e.origin, type: e.data && e.data.type}));
const params = new URLSearchParams(location.search);
const url = params.get("url");
const mode = params.get("mode");
if (mode === "popup") { window.popup = open(url, "embed"); }
else if (mode === "lobby") {
  const f = document.createElement("iframe"); f.src = "SERVICE/play"; f.id = "lobby";
  document.getElementById("slot").append(f);
} else {
  const keep = (m) => got.push(m);
  window.seat = BoardgamesEmbed.mount(document.getElementById("slot"), url,
    {onReady: keep, onTurn: keep, onMove: keep, onGameOver: keep, onError: keep, onHeight: keep});
}
</script></body></html>
"""


class Host:
    """A host page's server on its own port (its own origin)."""

    def __init__(self) -> None:
        host = self
        self.page = b""  # (once the service's address is known)

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                page = host.page
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: Any) -> None:
                pass

        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, embed_url: str = "", mode: str = "mount") -> str:
        return f"{self.origin}/host?mode={mode}&url={quote(embed_url, safe='')}"


class Platform:
    """The service, its API key and the two host pages."""

    def __init__(self, base: str, key: str, allowed: Host, other: Host) -> None:
        self.base, self.key, self.allowed, self.other = base, key, allowed, other

    def as_player(self, external: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}", "X-Player": external}

    def seated_game(self) -> tuple[str, str, str]:
        """A running 2-player game, a new platform player in seat 0; (id, external id,
        seat 1's token)."""
        who = f"u-{uuid.uuid4().hex[:8]}"
        key = {"Authorization": f"Bearer {self.key}"}
        r = requests.post(
            f"{self.base}/players", json={"name": "Ann", "external_id": who}, headers=key
        )
        assert r.status_code == 201, r.text
        made = requests.post(f"{self.base}/games", json={"players": 2, "seed": 5}, headers=key)
        game_id, host = made.json()["id"], made.json()["host_token"]
        r = requests.post(
            f"{self.base}/games/{game_id}/players", json={}, headers=self.as_player(who)
        )
        assert r.json()["seat"] == 0
        bob = requests.post(f"{self.base}/games/{game_id}/players", json={"name": "Bob"}).json()
        auth = {"Authorization": f"Bearer {host}"}
        assert requests.post(f"{self.base}/games/{game_id}/start", headers=auth).ok
        return game_id, who, bob["token"]

    def link(self, game_id: str, who: str, **body: Any) -> str:
        r = requests.post(
            f"{self.base}/embeds", json={"game_id": game_id, **body}, headers=self.as_player(who)
        )
        assert r.status_code == 201, r.text
        return str(r.json()["url"])

    def finish(self, game_id: str, who: str, bob: str) -> None:
        """Every move to the end through the API, for both seats."""
        rng = random.Random(3)
        seats = {0: self.as_player(who), 1: {"Authorization": f"Bearer {bob}"}}
        for _ in range(2000):
            view = requests.get(f"{self.base}/games/{game_id}", timeout=10).json()
            if view["status"] != "running":
                return
            headers = seats[view["to_act"][0]]
            moves = requests.get(
                f"{self.base}/games/{game_id}/legal-moves", headers=headers, timeout=10
            ).json()["moves"]
            r = requests.post(
                f"{self.base}/games/{game_id}/moves", json=rng.choice(moves), headers=headers
            )
            assert r.status_code in (200, 409), r.text
        raise AssertionError("the game never ended")


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    keys = Path(tmp_path_factory.mktemp("embed")) / "keys.json"
    allowed, other = Host(), Host()
    key, _ = admin.add(keys, "acme", 0, 0, [allowed.origin])
    # sessions of 65 s: the page refreshes them 60 s before their end, so after 5 s
    env = {
        **LIVE_ENV,
        "API_KEYS_FILE": str(keys),
        "EMBED_SECRET": SECRET,
        "EMBED_SESSION_SECONDS": "65",
    }
    for served in serve("manhattan", redis_url, env_extra=env):
        for host in (allowed, other):
            host.page = HOST_PAGE.replace("SERVICE", served).encode()
        yield Platform(served, key, allowed, other)
    allowed.server.shutdown()
    other.server.shutdown()


def embed_frame(page: Page) -> Frame:
    page.wait_for_function("got.some(m => m.type === 'ready')")
    return next(f for f in page.frames if "/embed?" in f.url)


def types(page: Page) -> list[str]:
    return page.evaluate("got.map(m => m.type).filter(t => t !== 'height')")


@pytest.mark.slow  # a whole game (about 15 s)
def test_the_flow_ready_turn_moved_game_over(platform: Platform, open_page: Callable) -> None:
    game_id, who, bob = platform.seated_game()
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
    # no lobby, header or links out
    assert frame.query_selector("header") is None and frame.query_selector("#links") is None
    live_links = """[...document.querySelectorAll('a[href]')]
        .filter(a => getComputedStyle(a).pointerEvents !== 'none').length"""
    assert frame.evaluate(live_links) == 0
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


def test_an_expired_link_or_another_games_session_is_refused_and_a_session_renewed(
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


def test_the_lobby_cannot_be_framed(platform: Platform, open_page: Callable) -> None:
    page = open_page()
    page.goto(platform.allowed.url(mode="lobby"))
    time.sleep(1.5)
    frame = next(f for f in page.frames if f is not page.main_frame)
    assert frame.query_selector("#main") is None
    r = requests.get(f"{platform.base}/play")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("width", "language", "word"), [(320, "ja", "あなた"), (1280, "de", "Spieler")]
)
def test_theme_size_and_language(
    platform: Platform, open_page: Callable, width: int, language: str, word: str
) -> None:
    game_id, who, _ = platform.seated_game()
    url = platform.link(game_id, who, language=language, theme={"accent": "#123456"})
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(platform.allowed.url(url))
    frame = embed_frame(page)
    root = "getComputedStyle(document.documentElement)"
    assert frame.evaluate(f"{root}.getPropertyValue('--accent').trim()") == "#123456"
    assert frame.evaluate("document.documentElement.lang") == language
    assert word in frame.inner_text("body")
    sizes = frame.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1] == width, sizes
    # the frame took the height the page reported
    page.wait_for_function(
        """() => { const heights = got.filter(m => m.type === 'height');
        return heights.length && Math.abs(document.querySelector('iframe')
          .getBoundingClientRect().height - heights[heights.length - 1].height) < 2; }"""
    )
    page.evaluate("seat.setTheme({bg: 'rgb(250, 240, 230)'})")
    frame.wait_for_function(
        "() => getComputedStyle(document.body).backgroundColor === 'rgb(250, 240, 230)'"
    )
    page.evaluate("seat.setLanguage('en')")
    frame.wait_for_function("() => document.documentElement.lang === 'en'")


def test_a_spectators_embed_never_shows_a_hand(platform: Platform, open_page: Callable) -> None:
    game_id, who, _ = platform.seated_game()
    page = open_page()
    page.goto(platform.allowed.url(platform.link(game_id, who, mode="watch")))
    frame = embed_frame(page)
    view = frame.evaluate("boardgamesPage.view")
    assert view["you"] is None and view["state"]["hand"] is None
    assert frame.query_selector("#hand") is None
    seat_view = requests.get(f"{platform.base}/games/{game_id}", headers=platform.as_player(who))
    hand = seat_view.json()["state"]["hand"]
    assert hand and json.dumps(hand) not in json.dumps(view)
    assert "your_turn" not in types(page)


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

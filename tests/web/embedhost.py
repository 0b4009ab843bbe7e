"""The host pages of the embed tests (issue 44): a game's service under gunicorn
(``hosted``; the ``platform`` fixture: Manhattan) with an API key whose
``frame_origins`` allow one host page, that host page served from another origin
(another port) by a small HTTP server and mounting a seat with ``/embed.js``, and a
second host on a third port that the key allows nothing (one of each per module).
``Platform.play`` moves both seats through the API until a view's test holds.

A host page's ``mode`` (a query parameter): ``mount`` (``BoardgamesEmbed.mount``, every
callback's message kept in ``window.got``; every message event in ``window.raw``),
``popup`` (the link opened in a window of its own), ``lobby`` (an iframe of ``/play``),
``third`` (mounted, beside an iframe of the other host's page: a third party in the
allowed page).
"""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import requests
from playwright.sync_api import Frame, Page

from clients.cli import admin
from tests.conftest import LIVE_ENV, free_port, serve

SECRET = "embed-test-secret"
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
} else if (mode === "attacker") { // a third party's frame: commands to its first sibling
  const commands = [{type: "set_theme", theme: {bg: "rgb(1, 2, 3)", accent: "rgb(1, 2, 3)"}},
    {type: "set_language", language: "en"}];
  window.sent = 0;
  setInterval(() => { const target = parent.frames[0]; if (!target) return;
    for (const m of commands) target.postMessage({source: "boardgames", ...m}, "*");
    sent += 1; }, 100);
} else {
  const keep = (m) => got.push(m);
  window.seat = BoardgamesEmbed.mount(document.getElementById("slot"), url,
    {onReady: keep, onTurn: keep, onMove: keep, onGameOver: keep, onError: keep, onHeight: keep});
  if (params.get("third")) {
    const f = document.createElement("iframe"); f.src = params.get("third"); f.id = "third";
    document.body.append(f);
  }
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

    def url(self, embed_url: str = "", mode: str = "mount", third: str = "") -> str:
        """This host's page in ``mode`` for the link ``embed_url``; ``third``: a third
        party's page framed beside the seat."""
        return f"{self.origin}/host?mode={mode}&url={quote(embed_url, safe='')}" + (
            f"&third={quote(third, safe='')}" if third else ""
        )


class Platform:
    """The service, its API key and the two host pages."""

    def __init__(self, base: str, key: str, allowed: Host, other: Host) -> None:
        self.base, self.key, self.allowed, self.other = base, key, allowed, other

    def as_player(self, external: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}", "X-Player": external}

    def seated_game(self, rated: bool = False, **options: Any) -> tuple[str, str, str]:
        """A running 2-player game (more ``options`` of its creation), a new platform
        player in seat 0, and Bob in seat 1: a platform player too when ``rated`` (a game
        every human seat of which is a player's is rated), else anonymous; (id, seat 0's
        external id, seat 1's token)."""
        who = f"u-{uuid.uuid4().hex[:8]}"
        key = {"Authorization": f"Bearer {self.key}"}
        for external, name in ((who, "Ann"), (f"{who}-b", "Bob")):
            r = requests.post(
                f"{self.base}/players", json={"name": name, "external_id": external}, headers=key
            )
            assert r.status_code == 201, r.text
        made = requests.post(
            f"{self.base}/games", json={"players": 2, "seed": 5, **options}, headers=key
        )
        game_id, host = made.json()["id"], made.json()["host_token"]
        join = f"{self.base}/games/{game_id}/players"
        r = requests.post(join, json={}, headers=self.as_player(who))
        assert r.json()["seat"] == 0
        if rated:
            bob = requests.post(join, json={}, headers=self.as_player(f"{who}-b")).json()
        else:
            bob = requests.post(join, json={"name": "Bob"}).json()
        auth = {"Authorization": f"Bearer {host}"}
        assert requests.post(f"{self.base}/games/{game_id}/start", headers=auth).ok
        return game_id, who, bob["token"]

    def link(self, game_id: str, who: str, **body: Any) -> str:
        r = requests.post(
            f"{self.base}/embeds", json={"game_id": game_id, **body}, headers=self.as_player(who)
        )
        assert r.status_code == 201, r.text
        return str(r.json()["url"])

    def play(
        self, game_id: str, who: str, bob: str, until: Callable[[dict[str, Any]], bool]
    ) -> dict[str, Any]:
        """Moves through the API for both seats (chosen at random) until ``until`` holds
        for seat 0's view of the game, or it ends; that view."""
        rng = random.Random(3)
        seats = {0: self.as_player(who), 1: {"Authorization": f"Bearer {bob}"}}
        for _ in range(2000):
            read = requests.get(f"{self.base}/games/{game_id}", headers=seats[0], timeout=10)
            view: dict[str, Any] = read.json()
            if until(view) or view["status"] != "running":
                return view
            headers = seats[view["to_act"][0]]
            moves = requests.get(
                f"{self.base}/games/{game_id}/legal-moves", headers=headers, timeout=10
            ).json()["moves"]
            r = requests.post(
                f"{self.base}/games/{game_id}/moves", json=rng.choice(moves), headers=headers
            )
            assert r.status_code in (200, 409), r.text
        raise AssertionError("the game never got there")

    def finish(self, game_id: str, who: str, bob: str) -> None:
        """Every move to the end through the API, for both seats."""
        view = self.play(game_id, who, bob, until=lambda view: view["status"] != "running")
        assert view["status"] != "running"


def hosted(
    game: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    """``game``'s service under gunicorn for a platform, and its two host pages."""
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
    for served in serve(game, redis_url, env_extra=env):
        for host in (allowed, other):
            host.page = HOST_PAGE.replace("SERVICE", served).encode()
        yield Platform(served, key, allowed, other)
    allowed.server.shutdown()
    other.server.shutdown()


@pytest.fixture(scope="module")
def platform(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Platform]:
    """Manhattan for a platform (:func:`hosted`)."""
    yield from hosted("manhattan", redis_url, tmp_path_factory)


def embed_frame(page: Page) -> Frame:
    page.wait_for_function("got.some(m => m.type === 'ready')")
    return next(f for f in page.frames if "/embed?" in f.url)


def types(page: Page) -> list[str]:
    return page.evaluate("got.map(m => m.type).filter(t => t !== 'height')")

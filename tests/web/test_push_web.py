"""The installable client and its push notifications in Chromium: the manifest and
the service worker (scope ``/play``) install; a push delivered through the DevTools
protocol (``ServiceWorker.deliverPushMessage``) shows the notification the service's
payload says, in Japanese and German, with the "Open the game" action in that language;
and what a click on it runs opens the game at the player's seat.

The click itself cannot be made in a headless browser (no notification is drawn), so
the test calls the worker's ``openGame`` with the shown notification's data: the very
function the ``notificationclick`` handler runs (a synthetic event could not extend
its lifetime). With the player's lobby open, it brings that window to the game.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Page, Worker

from shared.push.keys import generate
from tests.conftest import serve
from tests.web.conftest import ROOT
from tests.web.drive import ApiGame, caught_up
from tests.web.test_i18n_web import script_errors
from tests.web.test_manhattan_web import play_one

CATALOGS = {
    lang: json.loads((ROOT / "clients" / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
    for lang in ("ja", "de")
}
CATALOGS_EN = json.loads((ROOT / "clients" / "web" / "i18n" / "en.json").read_text("utf-8"))


def server_payload(game: ApiGame, seat: int, lang: str) -> dict[str, Any]:
    """What the service pushes for the seat's turn (shared/push/messages.py)."""
    from shared.push.messages import payload

    view = game.view()
    deadlines = {str(p["seat"]): p["deadline"] for p in view["players"] if p.get("deadline")}
    note = {
        "type": "your_turn",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "data": {
            "game": game.game,
            "game_id": game.id,
            "status": view["status"],
            "to_act": view["to_act"],
            "seat": seat,
            "deadlines": deadlines,
        },
    }
    return payload(note, lang)


def worker_of(page: Page) -> Worker:
    """The page's service worker, once it is active and controls the page."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    workers = [w for w in page.context.service_workers if w.url.endswith("/play/sw.js")]
    return workers[0] if workers else page.context.wait_for_event("serviceworker")


def registration_id(page: Page, cdp: Any) -> str:
    found: dict[str, str] = {}

    def seen(event: dict[str, Any]) -> None:
        for reg in event["registrations"]:
            if reg["scopeURL"].endswith("/play") and not reg.get("isDeleted"):
                found["id"] = reg["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30  # a shared 2-core machine may be slow
    while "id" not in found and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert "id" in found, "no service worker registration for /play"
    return found["id"]


def test_the_app_is_installable(make_app) -> None:
    """The page links its manifest, which names icons that are served as PNGs, a
    maskable one among them; the worker may control ``/play`` itself."""
    client = make_app("manhattan").test_client()
    assert client.get("/play/config.json").json["push"] is False  # the page offers nothing
    with_push = make_app("manhattan", PUSH_VAPID_PRIVATE_KEY=generate()[0]).test_client()
    assert with_push.get("/play/config.json").json["push"] is True
    assert b'<link rel="manifest" href="/play/manifest.webmanifest">' in client.get("/play").data
    manifest = client.get("/play/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = json.loads(manifest.data)
    assert body["start_url"] == "/play" and body["scope"] == "/play"
    sizes = set()
    for icon in body["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer.mimetype == icon["type"]
        if icon["type"] == "image/png":
            assert answer.data[:8] == b"\x89PNG\r\n\x1a\n"
            sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    worker = client.get("/play/sw.js")
    assert worker.mimetype == "text/javascript"
    assert worker.headers["Service-Worker-Allowed"] == "/play"


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_a_push_shows_its_notification_and_opens_the_game(
    live_manhattan: str, open_page, lang: str
) -> None:
    base = live_manhattan
    game = ApiGame.create("manhattan", base, ["Ann", "Bob"], seed=40, clock={"turn_seconds": 86400})
    page = open_page(locale=lang)
    page.context.grant_permissions(["notifications"], origin=base)
    game.open_as(page, 0)  # the browser holds Ann's seat
    page.goto(f"{base}/play")  # and shows the lobby when the push comes
    assert page.evaluate("Notification.permission") == "granted"
    worker = worker_of(page)
    assert worker.evaluate("self.registration.scope") == f"{base}/play"

    seat = game.view()["to_act"][0]
    sent = server_payload(game, seat, lang)
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registration_id(page, cdp), "data": json.dumps(sent)},
    )
    worker.evaluate(
        """async () => {
            for (let i = 0; i < 300 && !(await self.registration.getNotifications()).length; i++)
                await new Promise((r) => setTimeout(r, 100));
        }"""
    )
    shown = worker.evaluate(
        """async () => (await self.registration.getNotifications()).map((n) => ({
            title: n.title, body: n.body, lang: n.lang, tag: n.tag, data: n.data,
            actions: n.actions.map((a) => a.title) }))"""
    )
    assert len(shown) == 1
    note = shown[0]
    assert (note["title"], note["body"]) == (sent["title"], sent["body"])
    assert note["lang"] == lang and note["tag"] == f"game-{game.id}"
    assert note["actions"] == [CATALOGS[lang]["push"]["sw"]["open"]]
    assert note["data"]["url"] == f"/play?game={game.id}"

    worker.evaluate(
        """async () => {
            const [shown] = await self.registration.getNotifications();
            await self.openGame(shown.data);
        }"""
    )
    page.wait_for_url(f"{base}/play?game={game.id}", timeout=30_000)
    caught_up(page, game)
    assert page.locator("body").get_attribute("data-seat") == str(0)
    assert script_errors(page) == [], page.errors


FAKE_SUBSCRIPTION = """([endpoint, p256dh, auth]) => {
  // Chromium here reaches no push service: subscribe() answers what a browser gives,
  // and the subscription lasts across loads (sessionStorage), as a browser's does.
  const make = () => ({
    endpoint, expirationTime: null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => { sessionStorage.removeItem("fake-push"); return true; },
  });
  PushManager.prototype.subscribe = async function () {
    sessionStorage.setItem("fake-push", "1");
    return make();
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem("fake-push") ? make() : null;
  };
}"""


@pytest.fixture(scope="module")
def push_manhattan(redis_url: str) -> Iterator[str]:
    """Manhattan with push on (a VAPID key; push endpoints on 127.0.0.1 allowed)."""
    private, _ = generate()
    env = {"PUSH_VAPID_PRIVATE_KEY": private, "WEBHOOK_ALLOW_PRIVATE": "1"}
    yield from serve("manhattan", redis_url, workers=1, env_extra=env)


def test_the_notifications_page(live_manhattan: str, push_manhattan: str, browser) -> None:
    """Why no notifications come (push off on the server), then, with push on: turn
    them on (the device is registered, and again on each load), change events, quiet
    hours in the browser's time zone and language, and remove the device."""
    context = browser.new_context(locale="de", timezone_id="Asia/Tokyo")
    context.set_default_timeout(10_000)
    try:
        off = context.new_page()
        off.goto(f"{live_manhattan}/play?notifications=1")
        off.evaluate(
            "r => localStorage.setItem('boardgames:player', JSON.stringify(r))",
            {"id": "p", "name": "x", "key": "k"},
        )
        off.reload()
        status = off.locator("#push-status")
        assert status.get_attribute("data-why") == "server_off"
        assert status.text_content() == CATALOGS["de"]["push"]["why"]["server_off"]

        base = push_manhattan
        me = requests.post(f"{base}/players", json={"name": "Ann"}, timeout=5).json()
        headers = {"Authorization": f"Bearer {me['key']}"}
        point = (
            ec.generate_private_key(ec.SECP256R1())
            .public_key()
            .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        )
        b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
        endpoint = f"http://127.0.0.1:9999/push/{b64(os.urandom(8))}"
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(
            f"({FAKE_SUBSCRIPTION})({json.dumps([endpoint, b64(point), b64(os.urandom(16))])})"
        )
        page = context.new_page()
        page.goto(f"{base}/play?notifications=1")
        page.evaluate("r => localStorage.setItem('boardgames:player', JSON.stringify(r))", me)
        page.reload()
        assert page.locator("#push-status").get_attribute("data-why") == "not_subscribed"
        page.click("#push-on")
        page.wait_for_selector("#push-status[data-why=on]")
        rows = page.locator("#push-devices li")
        assert rows.count() == 1
        assert CATALOGS["de"]["push"]["devices"]["this"] in rows.first.text_content()
        subs = requests.get(f"{base}/players/me/push", headers=headers, timeout=5).json()
        assert [s["endpoint"] for s in subs["subscriptions"]] == [endpoint]
        assert subs["subscriptions"][0]["device"] == "Chrome auf Linux"
        # Each load registers this browser's subscription again (the same: 200).
        with page.expect_response(
            lambda r: (
                r.url.endswith("/players/me/push/subscriptions") and r.request.method == "POST"
            )
        ) as again:
            page.reload()
        assert again.value.status == 200
        page.wait_for_selector("#push-status[data-why=on]")

        page.uncheck("#push-events input[value=game_over]")
        page.check("#quiet-on")
        page.fill("#quiet-start", "23:00")
        page.fill("#quiet-end", "06:30")
        page.select_option("#push-language", "ja")
        page.click("#push-save")
        page.wait_for_function(
            "t => document.getElementById('alert').textContent === t",
            arg=CATALOGS["de"]["push"]["saved"],
        )
        settings = requests.get(f"{base}/players/me/push", headers=headers, timeout=5).json()
        assert "game_over" not in settings["events"] and "your_turn" in settings["events"]
        assert settings["quiet_hours"] == {"start": "23:00", "end": "06:30"}
        assert (settings["time_zone"], settings["language"]) == ("Asia/Tokyo", "ja")

        page.click("#push-devices li button")
        page.wait_for_selector("#push-devices li", state="detached")
        assert page.locator("#push-status").get_attribute("data-why") == "not_subscribed"
        after = requests.get(f"{base}/players/me/push", headers=headers, timeout=5).json()
        assert after["subscriptions"] == []
    finally:
        context.close()


def test_the_offer_after_a_first_move_under_a_clock(push_manhattan: str, open_page) -> None:
    """Never on load: the page offers notifications only after the player's move in a
    game with a clock, once, and asks the browser only when "Turn on" is clicked."""
    base = push_manhattan
    game = ApiGame.create("manhattan", base, ["Ann", "Bob"], seed=41, clock={"turn_seconds": 86400})
    me = requests.post(f"{base}/players", json={"name": "Ann"}, timeout=5).json()
    page = open_page(locale="en")
    seat = game.view()["to_act"][0]
    page.goto(f"{base}/play/config.json")
    page.evaluate("r => localStorage.setItem('boardgames:player', JSON.stringify(r))", me)
    page.context.add_init_script(
        "window.asked = 0;"
        "Notification.requestPermission = async () => { window.asked++; return 'default'; };"
    )
    game.open_as(page, seat)
    assert page.evaluate("Notification.permission") == "default"
    assert page.locator("#push-offer").count() == 0  # nothing on load
    play_one(page)
    offer = page.locator("#push-offer")
    offer.wait_for()
    assert offer.locator("#push-offer-text").text_content() == CATALOGS_EN["push"]["offer"]["text"]
    page.click("#push-offer-later")
    assert offer.count() == 0 and page.evaluate("window.asked") == 0
    game.play_until(lambda v: seat in v["to_act"])
    caught_up(page, game)
    play_one(page)
    page.wait_for_timeout(500)
    assert page.locator("#push-offer").count() == 0  # once

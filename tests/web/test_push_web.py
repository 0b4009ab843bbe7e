"""The installable client: the page links its manifest, the manifest's icons are
served, and the service worker may control ``/play`` itself."""

from __future__ import annotations

import json


def test_the_app_is_installable(make_app) -> None:
    """The page links its manifest, which names icons that are served as PNGs, a
    maskable one among them; the worker may control ``/play`` itself."""
    client = make_app("manhattan").test_client()
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

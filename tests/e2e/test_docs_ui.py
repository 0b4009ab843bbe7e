"""``/docs`` works offline: the Swagger UI page and its assets come from the service
itself (the pinned ``swagger-ui-bundle`` package), never from a CDN."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

import pytest
import requests

ASSET_REF = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


@pytest.mark.parametrize("service", ["live_manhattan", "live_windcity"])
def test_docs_page_and_assets_are_served_locally(service: str, request) -> None:
    base = request.getfixturevalue(service)
    page = requests.get(f"{base}/docs", timeout=10)
    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    assert not re.search(r"https?://", page.text), "the docs page names an external URL"
    refs = ASSET_REF.findall(page.text)
    assert {urlparse(r).path.rsplit("/", 1)[-1] for r in refs} >= {
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
    }
    for ref in refs:
        url = urljoin(f"{base}/docs", ref)
        assert url.startswith(base + "/"), url
        asset = requests.get(url, timeout=10)
        assert asset.status_code == 200, url
        kind = "text/css" if ref.endswith(".css") else "javascript"
        assert kind in asset.headers["Content-Type"], (url, asset.headers["Content-Type"])
        assert len(asset.content) > 10_000, url  # the real bundle, not a stub
    spec = requests.get(f"{base}/openapi.json", timeout=10)
    assert spec.status_code == 200 and spec.json()["openapi"].startswith("3.")


def test_other_bundle_files_are_not_served(live_manhattan: str) -> None:
    for name in ("index.html", "swagger-ui-bundle.js.map", "..%2Fpyproject.toml", "nope.js"):
        r = requests.get(f"{live_manhattan}/docs/assets/{name}", timeout=10)
        assert r.status_code == 404, name
        assert r.headers["Content-Type"] == "application/problem+json", name

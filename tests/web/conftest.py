"""Browser fixtures: Debian's Chromium driven by Playwright, against both services under
real gunicorn on the session's Redis (``live_manhattan`` / ``live_windcity`` of
``tests/conftest.py``).

- ``browser`` (session): Chromium; the tests fail (never skip) when it is missing, since
  ``make test`` installs it (``scripts/need_chromium.sh``).
- ``open_page(viewport=DESKTOP, locale=None)``: a page in a fresh browser context (its
  own localStorage, as a separate player's browser; ``locale`` sets the browser's
  language, ``navigator.languages`` and ``Accept-Language``), recording console errors
  and uncaught exceptions in ``page.errors``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium (Playwright cannot download its own build here)."""
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it, or apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """``open_page(viewport=DESKTOP, reduced_motion=True, locale=None)``: a page in its
    own context."""
    contexts: list[Any] = []

    def make(
        viewport: ViewportSize = DESKTOP, reduced_motion: bool = True, locale: str | None = None
    ) -> Page:
        context = browser.new_context(
            viewport=viewport,
            reduced_motion="reduce" if reduced_motion else "no-preference",
            locale=locale,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots_dir() -> Path:
    """Where the boards' screenshots go (``SCREENSHOTS_DIR``; the README shows the copies
    in ``docs/screenshots``, refreshed with ``SCREENSHOTS_DIR=docs/screenshots``)."""
    path = Path(os.environ.get("SCREENSHOTS_DIR", ROOT / "var" / "screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def workers(redis_url: str) -> Iterator[Any]:
    """Real ``python -m shared.worker`` processes on the session's Redis, as in
    ``tests/worker`` (the same ``Workers`` pool; every one is stopped after the test)."""
    import tempfile

    from tests.worker.conftest import Workers

    with tempfile.TemporaryDirectory() as workdir:
        pool = Workers(redis_url, workdir)
        yield pool
        for worker in pool.running:
            if worker.proc.poll() is None:
                worker.proc.kill()
                worker.proc.wait(10)

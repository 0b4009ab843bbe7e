"""Render the browser client's app icons (clients/web/icons/*.png) from their SVGs with
Debian's Chromium: ``python scripts/web_icons.py``. The PNGs are committed; run this
again after changing ``icon.svg`` or ``maskable.svg``.

- ``icon-192.png`` and ``icon-512.png`` from ``icon.svg`` (rounded, transparent corners);
- ``maskable-512.png`` from ``maskable.svg`` (full bleed, its drawing inside the
  central circle of 80% that every mask keeps).
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "clients" / "web" / "icons"
RENDERS = [("icon.svg", 192), ("icon.svg", 512), ("maskable.svg", 512)]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"]
        )
        for source, size in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text("utf-8")
            page.set_content(f"<body style='margin:0'><div style='width:{size}px'>{svg}</div>")
            target = ICONS / f"{source.removesuffix('.svg')}-{size}.png"
            page.locator("svg").screenshot(path=str(target), omit_background=True)
            page.close()
            print(target.relative_to(ICONS.parent))
        browser.close()


if __name__ == "__main__":
    main()

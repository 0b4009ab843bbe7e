"""Write each service's OpenAPI document to docs/openapi/<game>.json (``make openapi``,
after scripts/openapi_examples.py has re-recorded the examples they carry).

The documents are built from the apps themselves (no Redis needed) and the recorded
examples (docs/openapi/examples/<game>.json); integrators diff them between versions,
and tests/openapi/test_document.py fails when they are stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "openapi"
GAMES = ("manhattan", "windcity")


def document(game: str) -> dict[str, Any]:
    """The service's document, as ``GET /openapi.json`` serves it."""
    module = __import__(f"services.{game}.app", fromlist=["create_app"])
    app = module.create_app({"REDIS_URL": "redis://127.0.0.1:9/0", "LOG_LEVEL": "WARNING"})
    with app.test_request_context():
        return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def render(game: str) -> str:
    return json.dumps(document(game), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        (OUT / f"{game}.json").write_text(render(game))
        print(f"wrote docs/openapi/{game}.json")


if __name__ == "__main__":
    main()

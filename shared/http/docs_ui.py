"""Swagger UI served from the service itself, so ``/docs`` works offline.

flask-smorest renders ``/docs`` as a page that loads ``swagger-ui.css``,
``swagger-ui-bundle.js`` and ``swagger-ui-standalone-preset.js`` from
``OPENAPI_SWAGGER_UI_URL``; pointing that at a route here, which serves the files of
the pinned ``swagger-ui-bundle`` package, means no CDN (and no third party learning
who reads the docs) is ever involved.
"""

from __future__ import annotations

from flask import Flask, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import NotFound

ASSETS_URL = "/docs/assets/"
# The files the page needs; anything else in the bundle (source maps, demo pages) is 404.
ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"})
ONE_DAY = 24 * 3600


def swagger_ui_config() -> dict[str, object]:
    """The flask-smorest settings for a Swagger UI page at ``/docs`` using local assets."""
    return {
        "OPENAPI_SWAGGER_UI_PATH": "docs",
        "OPENAPI_SWAGGER_UI_URL": ASSETS_URL,
        # Swagger UI would otherwise send the spec to validator.swagger.io for a badge.
        "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
    }


def init_docs_assets(app: Flask) -> None:
    """Serve the Swagger UI assets under :data:`ASSETS_URL`."""

    def asset(name: str) -> Response:
        if name not in ASSETS:
            raise NotFound()
        return send_from_directory(str(swagger_ui_path), name, max_age=ONE_DAY)

    app.add_url_rule(f"{ASSETS_URL}<name>", "swagger_ui_asset", asset, methods=["GET"])

"""The browser client (``clients/web/``) served at ``/play`` by each game service.

Static files only: the page talks to the same public API as any other client. The
page learns which game it serves from ``/play/config.json``. Every answer carries a
strict Content-Security-Policy (the client needs nothing but its own origin).

The page is an installable web app: ``/play/manifest.webmanifest`` and the service
worker ``/play/sw.js``, whose scope is ``/play`` itself (``Service-Worker-Allowed``), so
``/play?game=...`` is in the app too.

The files are found by configuration (``WEB_CLIENT_DIR``), not by importing ``clients``:
the HTTP layer imports nothing above the kit.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.sansio.response import Response as BaseResponse

TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}
SERVICE_WORKER = "sw.js"
SCOPE = "/play"
CSP = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
TITLES = {"manhattan": "Manhattan", "windcity": "Wind City"}


CHECKOUT = Path(__file__).resolve().parents[2]
"""The folder that holds ``shared/`` when the code runs from a checkout (or an editable
install of one)."""


@cache
def web_dir(setting: str) -> Path:
    """The client's folder: ``WEB_CLIENT_DIR`` when set; else ``clients/web`` of the
    checkout, or of the working directory (an image that copied the repository and
    installed it, as the Dockerfile does)."""
    if setting:
        return Path(setting)
    candidates = [CHECKOUT / "clients" / "web", Path.cwd() / "clients" / "web"]
    for candidate in candidates:
        if (candidate / "index.html").is_file():
            return candidate
    return candidates[0]


blp = Blueprint("play", __name__)


def _file(name: str) -> Response:
    kind = TYPES.get(Path(name).suffix)
    if kind is None:
        raise NotFound()
    folder = web_dir(current_app.config.get("WEB_CLIENT_DIR", ""))
    response = send_from_directory(folder, name, mimetype=kind, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/play", methods=["GET"])
@blp.route("/play/", methods=["GET"])
def index() -> Response:
    """The single page (lobby, board or spectator view, chosen by its query string)."""
    return _file("index.html")


@blp.route("/play/config.json", methods=["GET"])
def config() -> BaseResponse:
    """Which game this service serves, so one set of files fits both services, and
    whether it sends Web Push (a VAPID key is set: the page offers notifications)."""
    name = current_app.name
    push = bool(current_app.config.get("PUSH_VAPID_PRIVATE_KEY"))
    return current_app.json.response({"game": name, "title": TITLES.get(name, name), "push": push})


@blp.route("/play/<path:name>", methods=["GET"])
def asset(name: str) -> Response:
    """A module, stylesheet or icon of the client, its manifest or its service worker."""
    response = _file(name)
    if name == SERVICE_WORKER:
        response.headers["Service-Worker-Allowed"] = SCOPE
    return response


@blp.after_request
def _security_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response

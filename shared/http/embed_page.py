"""The embed page (``GET /embed?t=<link>``) and the platforms' script (``GET /embed.js``).

The page is the browser client's embed mode (``embed.html`` of ``WEB_CLIENT_DIR``): it
exchanges the link's token for a session itself (``POST /embed/session``). Here the
link is checked first (signature, expiry, not used yet), so a used, expired or forged
link gets a plain page saying so in the link's language (else the browser's), never a
stack trace: the heading the page's own script shows then ("This game cannot be
shown"), and why; its script tells the host page (an ``error`` message). Both answers
may be framed by the origins the link's API key lists (``frame_origins``;
``Content-Security-Policy: frame-ancestors``) and by nobody else; every other answer of
the service refuses framing (shared/http/middleware/headers.py).
They send no referrer and run under a strict CSP: scripts of this origin only, no
inline script or style.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from html import escape
from pathlib import Path

from flask import Blueprint, Response, current_app, g, request, send_from_directory

from shared.games import embeds as tokens
from shared.games.errors import GameError
from shared.http import embedding
from shared.http.errors import problem_body
from shared.http.play import web_dir
from shared.i18n import negotiate

blp = Blueprint("embed", __name__)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors {ancestors}"
)
PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/play/style.css">
<link rel="stylesheet" href="/play/embed.css">
</head>
<body class="embed">
<main id="main">
<section class="panel embed-refused" id="refused" data-code="{code}" data-origins="{origins}">
<h1>{title}</h1>
<p>{detail}</p>
</section></main>
<script type="module" src="/play/js/refused.js"></script>
</body>
</html>
"""


def _headers(response: Response, origins: tuple[str, ...]) -> Response:
    ancestors = " ".join(origins) if origins else "'none'"
    response.headers["Content-Security-Policy"] = CSP.format(ancestors=ancestors)
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    g.framable = True  # (the headers middleware adds no X-Frame-Options: DENY)
    return response


@lru_cache(maxsize=8)
def _heading(folder: Path, language: str) -> str | None:
    """The refusal's heading in ``language``, as the page's own script words it
    (``page.embed_refused`` of the client's i18n/<language>.json), if it is there."""
    try:
        words = json.loads((folder / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        return str(words["page"]["embed_refused"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _refused(error: GameError, token: str, origins: tuple[str, ...]) -> Response:
    language = tokens.unverified_language(token) or negotiate(
        request.headers.get("Accept-Language")
    )
    status = 403
    body = problem_body(status, error.code, error.template, params=error.params, language=language)
    folder = web_dir(current_app.config.get("WEB_CLIENT_DIR", ""))
    html = PAGE.format(
        lang=language,
        title=escape(_heading(folder, language) or body["title"]),
        detail=escape(body["detail"]),
        code=escape(error.code),
        origins=escape(" ".join(origins)),
    )
    response = Response(html, status, mimetype="text/html")
    response.headers["Content-Language"] = language
    return _headers(response, origins)


@blp.route("/embed", methods=["GET"])
def page() -> Response:
    """The embed page for the link ``t``, or the page refusing it."""
    token = request.args.get("t", "")
    origins: tuple[str, ...] = ()
    try:
        claims = tokens.verify(embedding.secret(), token, tokens.LINK, embedding.service())
        origins = embedding.frame_origins(claims.tenant)
        tokens.check_expiry(claims, time.time())
        if current_app.extensions["game_kit"].games.store.embeds.used(claims.id):
            raise tokens.link_used()
    except GameError as error:
        return _refused(error, token, origins)
    folder = web_dir(current_app.config.get("WEB_CLIENT_DIR", ""))
    response = send_from_directory(folder, "embed.html", mimetype="text/html", max_age=0)
    return _headers(response, origins)


@blp.route("/embed.js", methods=["GET"])
def script() -> Response:
    """The platforms' script: ``BoardgamesEmbed.mount(element, url, callbacks)``."""
    folder = web_dir(current_app.config.get("WEB_CLIENT_DIR", ""))
    response = send_from_directory(folder, "platform/embed.js", mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response

"""A tiny "platform" that shows a game seat in its own page (docs/api.md "Embedding in
your platform"): it logs a user in, finds them a game with its API key (quick match),
asks the service for a signed one-use link, and mounts it with the service's embed.js.

    boardgames admin keys add --name demo --frame-origin http://127.0.0.1:5000
    API_KEY=bgk_... GAME_SERVICE=http://127.0.0.1:8001 flask --app examples/platform/app run

The API key stays here on the server; the browser only ever sees the link.
"""

from __future__ import annotations

import os
import re
import secrets
from html import escape

import requests
from flask import Flask, redirect, request, session
from werkzeug.wrappers import Response

SERVICE = os.environ.get("GAME_SERVICE", "http://127.0.0.1:8001").rstrip("/")
API_KEY = os.environ.get("API_KEY", "")
app = Flask(__name__)
app.secret_key = os.environ.get("PLATFORM_SECRET") or secrets.token_hex(16)

LOGIN = """<!doctype html><meta charset="utf-8"><title>Platform</title>
<form method="post" action="/login">
<label>Your name <input name="name" required maxlength="32"></label>
<select name="lang"><option>en</option><option>ja</option><option>de</option></select>
<button>Play</button></form>"""
PLAY = """<!doctype html><meta charset="utf-8"><title>Platform · {name}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<h1>Hello {name}</h1><p id="note">Loading the game…</p><div id="game"></div>
<script src="{service}/embed.js"></script>
<script>
const note = document.getElementById("note");
BoardgamesEmbed.mount(document.getElementById("game"), {url}, {{
  onReady: () => {{ note.textContent = "Your game"; }},
  onTurn: () => {{ note.textContent = "Your move!"; }},
  onMove: () => {{ note.textContent = "Waiting for the others"; }},
  onGameOver: (m) => {{ note.textContent = "Game over"; console.log(m.result); }},
  onError: (m) => {{ note.textContent = m.message; }},
}});
</script>"""


def api(method: str, path: str, user: str | None = None, **body: object) -> dict:
    """A call to the game service with the platform's key (acting for ``user``)."""
    headers = {"Authorization": f"Bearer {API_KEY}"}
    if user is not None:
        headers["X-Player"] = user
    answer = requests.request(method, SERVICE + path, json=body, headers=headers, timeout=10)
    answer.raise_for_status()
    return answer.json()


@app.get("/")
def home() -> str:
    return LOGIN


@app.post("/login")
def login() -> Response:
    name = request.form["name"].strip()[:32]
    user = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "player"
    api("POST", "/players", name=name, external_id=user)  # 201, or 200 when known
    session.update(user=user, name=name, lang=request.form.get("lang", "en"))
    return redirect("/play")


@app.get("/play")
def play() -> Response | str:
    if "user" not in session:
        return redirect("/")
    match = api("POST", "/matches", session["user"], players=2, bots_after=10)
    link = api(
        "POST",
        "/embeds",
        session["user"],
        game_id=match["game_id"],
        language=session["lang"],
        theme={"accent": "#7b1fa2", "radius": "12px"},
    )
    return PLAY.format(name=escape(session["name"]), service=SERVICE, url=repr(link["url"]))

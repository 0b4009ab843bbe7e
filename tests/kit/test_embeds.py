"""Embeds (issue 44), through the Flask app on the session's Redis: a platform's signed,
one-use, short-lived seat links, the session a link opens and how far it reaches, and
the framing headers of the embed page and of every other answer."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from clients.cli import admin
from shared.games import embeds as tokens
from shared.http.middleware.apikeys import parse_keys
from tests.kit.helpers import assert_problem, auth, join
from tests.kit.test_rematch import play_to_end

HOST = "http://127.0.0.1:8001"


@pytest.fixture
def platform(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[FlaskClient, str]:
    keys = tmp_path / "keys.json"
    acme, _ = admin.add(keys, "acme", 0, 0, [HOST])
    client = make_app("toy", API_KEYS_FILE=str(keys), EMBED_SECRET="s3cret").test_client()
    return client, acme


def seated_game(client: FlaskClient, acme: str, who: str = "u-1") -> tuple[str, str]:
    """A running 2-seat game with the platform's player ``who`` in seat 0; its id and
    the other seat's token."""
    client.post("/players", json={"name": "Ann", "external_id": who}, headers=auth(acme))
    made = client.post("/games", json={"players": 2, "rounds": 1, "seed": 4}, headers=auth(acme))
    game_id, host = made.get_json()["id"], made.get_json()["host_token"]
    client.post(f"/games/{game_id}/players", json={}, headers={**auth(acme), "X-Player": who})
    _, bob = join(client, game_id, "Bob")
    client.post(f"/games/{game_id}/start", headers=auth(host))
    return game_id, bob


def link(client: FlaskClient, acme: str, game_id: str, **body: Any) -> str:
    r = client.post(
        "/embeds", json={"game_id": game_id, **body}, headers={**auth(acme), "X-Player": "u-1"}
    )
    assert r.status_code == 201, r.get_json()
    return parse_qs(urlsplit(r.get_json()["url"]).query)["t"][0]


def session(client: FlaskClient, token: str) -> Any:
    return client.post("/embed/session", json={"token": token})


def test_a_link_opens_once_into_a_session_of_that_seat_only(platform):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    token = link(client, acme, game_id, language="ja", theme={"accent": "#c00"})
    assert "bgk_" not in token and "bgp_" not in token
    page = client.get(f"/embed?t={token}")
    assert page.status_code == 200 and b'src="/play/js/embed.js"' in page.data
    assert f"frame-ancestors {HOST}" in page.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert "X-Frame-Options" not in page.headers
    opened = session(client, token).get_json()
    assert (opened["seat"], opened["mode"], opened["language"]) == (0, "seat", "ja")
    assert opened["theme"] == {"accent": "#c00"} and opened["frame_origins"] == [HOST]
    as_seat = auth(opened["credential"])
    view = client.get(f"/games/{game_id}", headers=as_seat).get_json()
    own = client.get(f"/games/{game_id}", headers={**auth(acme), "X-Player": "u-1"})
    assert view["you"] == 0 and view == own.get_json()  # the seat's own view, as its player's
    move = {"type": "call", "value": 2}
    assert client.post(f"/games/{game_id}/moves", json=move, headers=as_seat).status_code == 200
    # used: refused, as an exchange and as a page (in the link's language)
    assert_problem(session(client, token), 403, "embed-link-used")
    again = client.get(f"/embed?t={token}")
    assert again.status_code == 403 and again.headers["Content-Language"] == "ja"
    assert b'data-code="embed-link-used"' in again.data and b"Traceback" not in again.data
    heading = "<h1>このゲームは表示できません</h1><p>このゲームのリンクはすでに使われています"
    assert heading in again.get_data(as_text=True).replace("\n", "")
    for answer in (page, again):  # framed by the key's origins only, no referrer, no inline
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src 'self';" in policy
        assert policy.endswith(f"frame-ancestors {HOST}") and "unsafe" not in policy
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    scripts = re.findall(rb"<script\b[^>]*>", page.data + again.data)
    assert len(scripts) == 2 and all(b" src=" in tag for tag in scripts), scripts
    assert b" style=" not in page.data + again.data
    # refreshed while the game runs
    fresh = client.post("/embed/session/refresh", headers=as_seat)
    assert fresh.status_code == 200 and fresh.get_json()["seat"] == 0


def test_a_session_ends_with_its_game(platform):
    """Once the game is over the session is not renewed (it still reads the result
    until it expires)."""
    client, acme = platform
    game_id, bob = seated_game(client, acme)
    credential = session(client, link(client, acme, game_id)).get_json()["credential"]
    as_seat = auth(credential)
    assert client.post("/embed/session/refresh", headers=as_seat).status_code == 200
    assert play_to_end(client, game_id, [credential, bob])["status"] == "finished"
    r = client.post("/embed/session/refresh", headers=as_seat)
    assert_problem(r, 409, "embed-game-over")
    assert client.get(f"/games/{game_id}/score", headers=as_seat).status_code == 200


def test_a_session_reaches_nothing_but_its_own_game(platform):
    client, acme = platform
    game_a, _ = seated_game(client, acme)
    game_b, _ = seated_game(client, acme)
    token = link(client, acme, game_a)
    as_a = auth(session(client, token).get_json()["credential"])
    # the link itself is no credential, in its game or another
    for game_id in (game_a, game_b):
        r = client.post(
            f"/games/{game_id}/moves", json={"type": "call", "value": 2}, headers=auth(token)
        )
        assert_problem(r, 403, "invalid-token")
    assert_problem(client.get("/players/me/export", headers=auth(token)), 401, "missing-token")
    move = {"type": "call", "value": 2}
    assert_problem(
        client.post(f"/games/{game_b}/moves", json=move, headers=as_a), 403, "embed-scope"
    )
    assert_problem(client.get(f"/games/{game_b}", headers=as_a), 403, "embed-scope")
    for path in ("/players/me/export", "/players/me", "/players/me/games"):
        assert_problem(client.get(path, headers=as_a), 403, "embed-scope")
    assert_problem(client.post(f"/games/{game_a}/rematch", headers=as_a), 403, "embed-scope")
    assert_problem(client.delete(f"/games/{game_a}", headers=as_a), 403, "embed-scope")
    forged = as_a["Authorization"][:-3] + "AAA"
    r = client.get(f"/games/{game_a}", headers={"Authorization": forged})
    assert_problem(r, 401, "embed-session-invalid")
    # its table chat is its game's: it talks as its seat, and not in another game
    said = client.post(f"/games/{game_a}/chat", json={"phrase": "gg"}, headers=as_a)
    assert said.status_code == 201, said.get_json()
    assert said.get_json()["message"]["seat"] is not None
    assert client.get(f"/games/{game_a}/chat/mutes", headers=as_a).status_code == 200
    r = client.post(f"/games/{game_b}/chat", json={"phrase": "gg"}, headers=as_a)
    assert_problem(r, 403, "embed-scope")
    assert_problem(client.get("/players/me/blocks", headers=as_a), 403, "embed-scope")


def test_an_expired_or_forged_link_is_refused(platform, monkeypatch):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    token = link(client, acme, game_id, expires_in=10, language="de")
    later = time.time() + 11
    monkeypatch.setattr(tokens, "check_expiry", _at(later))
    assert_problem(session(client, token), 403, "embed-link-expired")
    page = client.get(f"/embed?t={token}")
    assert page.status_code == 403 and page.headers["Content-Language"] == "de"
    assert b"embed-link-expired" in page.data
    assert "<h1>Dieses Spiel kann nicht gezeigt werden</h1>" in page.get_data(as_text=True)
    bad = client.get("/embed?t=bgl_nonsense")
    assert (
        bad.status_code == 403
        and "frame-ancestors 'none'" in bad.headers["Content-Security-Policy"]
    )


def _at(now: float) -> Callable[..., Any]:
    real = tokens.check_expiry
    return lambda claims, _now: real(claims, now)


def test_a_spectator_link_reads_as_anyone_and_cannot_move(platform):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    opened = session(client, link(client, acme, game_id, mode="watch")).get_json()
    assert opened["seat"] is None and opened["mode"] == "watch"
    as_watch = auth(opened["credential"])
    view = client.get(f"/games/{game_id}", headers=as_watch).get_json()
    assert view["you"] is None and view == client.get(f"/games/{game_id}").get_json()
    r = client.post(f"/games/{game_id}/moves", json={"type": "call", "value": 2}, headers=as_watch)
    assert_problem(r, 403, "player-not-seated")


def test_a_watch_link_is_the_watch_link_of_a_game_spectators_need_one_for(platform):
    """A ``link`` game admits the session a watch link opens (anyone else needs the
    game's watch code); a game only its players read refuses the link at once."""
    client, acme = platform
    client.post("/players", json={"name": "Ann", "external_id": "u-1"}, headers=auth(acme))
    for spectators in ("link", "players"):
        made = client.post(
            "/games", json={"players": 2, "spectators": spectators}, headers=auth(acme)
        )
        game_id = made.get_json()["id"]
        asked = {"game_id": game_id, "mode": "watch"}
        r = client.post("/embeds", json=asked, headers={**auth(acme), "X-Player": "u-1"})
        if spectators == "players":
            assert_problem(r, 403, "spectators-not-allowed")
            continue
        assert r.status_code == 201, r.get_json()
        token = parse_qs(urlsplit(r.get_json()["url"]).query)["t"][0]
        as_watch = auth(session(client, token).get_json()["credential"])
        assert_problem(client.get(f"/games/{game_id}"), 403, "watch-link-required")
        for path in ("", "/log", "/score", "/events?wait=0"):
            r = client.get(f"/games/{game_id}{path}", headers=as_watch)
            assert r.status_code == 200, (path, r.get_json())


def test_a_seat_session_asks_for_its_seats_hints(platform):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    as_seat = auth(session(client, link(client, acme, game_id)).get_json()["credential"])
    r = client.post(f"/games/{game_id}/hint", headers=as_seat)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["seat"] == 0


def test_a_seat_link_needs_a_seated_player_and_an_api_key(platform, make_app):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    client.post("/players", json={"name": "Zed", "external_id": "u-2"}, headers=auth(acme))
    r = client.post("/embeds", json={"game_id": game_id}, headers={**auth(acme), "X-Player": "u-2"})
    assert_problem(r, 403, "player-not-seated")
    assert_problem(client.post("/embeds", json={"game_id": game_id}), 401, "api-key-required")


def test_nothing_else_may_be_framed(platform):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    paths = ("/play", "/play/style.css", "/docs", "/games", "/healthz", "/openapi.json")
    for path in (*paths, f"/games/{game_id}", "/embed.js", "/no-such-page"):
        r = client.get(path)
        assert r.headers["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], path


@pytest.mark.parametrize(
    "theme",
    [{"bg": "url(https://evil.example/x.png)"}, {"accent": "#fff; color: red"}, {"font": "}"}],
)
def test_a_theme_is_css_values_only(platform, theme):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    r = client.post(
        "/embeds",
        json={"game_id": game_id, "theme": theme},
        headers={**auth(acme), "X-Player": "u-1"},
    )
    assert_problem(r, 422, "validation-error")


def test_hostile_tokens_are_refused_never_a_5xx(platform):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    deep = base64.urlsafe_b64encode(b"[" * 1400).rstrip(b"=").decode()
    for token in (f"bgl_{deep}.{'A' * 43}", "bgl_" + "A" * 10 + "." + "B" * 43, "bgl_x.y"):
        assert_problem(session(client, token), 403, "embed-link-invalid")
        assert client.get(f"/embed?t={token}").status_code == 403
    r = client.get(f"/games/{game_id}", headers={"Authorization": f"Bearer bge_{deep}.{'A' * 43}"})
    assert_problem(r, 401, "embed-session-invalid")


def test_a_revoked_key_ends_its_sessions(platform, tmp_path):
    client, acme = platform
    game_id, _ = seated_game(client, acme)
    credential = session(client, link(client, acme, game_id)).get_json()["credential"]
    assert client.get(f"/games/{game_id}", headers=auth(credential)).status_code == 200
    admin.revoke(tmp_path / "keys.json", "acme")
    r = client.get(f"/games/{game_id}", headers=auth(credential))
    assert_problem(r, 403, "invalid-api-key")


def test_the_admin_command_lists_the_frame_origins(tmp_path):
    keys = tmp_path / "keys.json"
    env = {**os.environ, "API_KEYS_FILE": str(keys)}
    cli = [sys.executable, "-m", "clients.cli", "admin", "keys", "add", "--name", "acme"]
    origins = ["--frame-origin", HOST, "--frame-origin", "https://play.acme.example"]
    made = subprocess.run([*cli, *origins, "--json"], env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["frame_origins"] == [HOST, "https://play.acme.example"]
    assert parse_keys(keys.read_text()).popitem()[1].frame_origins == (
        HOST,
        "https://play.acme.example",
    )
    bad = subprocess.run(
        [*cli, "--frame-origin", "https://x.example/path"], env=env, capture_output=True, text=True
    )
    assert bad.returncode != 0 and "not an origin" in bad.stderr


def test_a_keys_frame_origins_are_changed_by_the_admin_command_without_restart(platform, tmp_path):
    """``admin keys set-frame-origins``: checked as at creation, written to the keys
    file, and the running service's next embed page and session use them."""
    client, acme = platform
    keys = tmp_path / "keys.json"
    env = {**os.environ, "API_KEYS_FILE": str(keys)}
    cli = [sys.executable, "-m", "clients.cli", "admin", "keys", "set-frame-origins"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, *args], env=env, capture_output=True, text=True)

    before = keys.read_text()
    for bad in (["acme", "https://x.example/path"], ["acme"], ["nobody", "https://a.example"]):
        refused = run(*bad)
        assert refused.returncode != 0 and "error:" in refused.stderr, bad
    assert keys.read_text() == before
    new = "https://play.acme.example"
    done = run("acme", new, "http://[::1]:8080", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["frame_origins"] == [new, "http://[::1]:8080"]
    game_id, _ = seated_game(client, acme)
    token = link(client, acme, game_id)
    csp = client.get(f"/embed?t={token}").headers["Content-Security-Policy"]
    assert f"frame-ancestors {new} http://[::1]:8080" in csp and HOST not in csp
    assert session(client, token).get_json()["frame_origins"] == [new, "http://[::1]:8080"]
    assert run("acme", "--none").returncode == 0
    csp = client.get(f"/embed?t={link(client, acme, game_id)}").headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp

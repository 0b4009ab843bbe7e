"""``/play``: the client's files with their content types and a strict CSP, which game
the page serves, and problem+json for anything else under it."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_play_serves_the_client_and_names_its_game(make_app, game: str) -> None:
    client = make_app(game).test_client()
    page = client.get("/play")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert b'src="/play/js/main.js"' in page.data
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert client.get("/play/").status_code == 200
    config = client.get("/play/config.json").json
    assert config["game"] == game
    # the leaderboard's own answer says min_games; push: whether this service sends Web Push
    assert config == {"game": game, "title": config["title"], "push": False}
    for path, kind in [
        ("/play/js/main.js", "text/javascript"),
        (f"/play/js/{game}.js", "text/javascript"),
        ("/play/style.css", "text/css"),
        ("/play/favicon.svg", "image/svg+xml"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.mimetype == kind, path


@pytest.mark.parametrize(
    "path", ["/play/nope.js", "/play/../shared/app.py", "/play/js/../../../pyproject.toml"]
)
def test_play_refuses_other_paths_with_a_problem(manhattan_client, path: str) -> None:
    answer = manhattan_client.get(path)
    assert answer.status_code == 404
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == "not-found"


def test_the_client_files_are_found_by_configuration(make_app, tmp_path) -> None:
    """``WEB_CLIENT_DIR`` names the folder served at ``/play`` (the kit imports no client)."""
    (tmp_path / "index.html").write_text("<!doctype html><title>elsewhere</title>")
    client = make_app("manhattan", WEB_CLIENT_DIR=str(tmp_path)).test_client()
    page = client.get("/play")
    assert page.status_code == 200 and b"elsewhere" in page.data
    assert client.get("/play/js/main.js").status_code == 404

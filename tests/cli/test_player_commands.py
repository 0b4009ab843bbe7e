"""The CLI's invite link (the browser page's, taken by ``join`` too) and the player
commands against the live services."""

from __future__ import annotations

import json
import subprocess

import pytest
import requests

from clients.cli.client import ManhattanClient
from clients.cli.errors import Forbidden


def _json(proc: subprocess.CompletedProcess) -> dict:
    return json.loads(proc.stdout)


def test_private_new_and_join_by_link_or_code(cli, live_manhattan) -> None:
    made = _json(cli("manhattan", "new", "--players", "3", "--private", "--join", "ann", "--json"))
    gid, code, link = made["id"], made["invite_code"], made["join_link"]
    assert link == f"{live_manhattan}/play?game={gid}&invite={code}" and made["seat"] == 0
    page = requests.get(link, timeout=10)  # the same link opens the browser page
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    text = cli("manhattan", "new", "--private").stdout
    assert "invite link: " + live_manhattan + "/play?game=" in text and "invite code: " in text
    listed = {g["id"] for g in ManhattanClient(live_manhattan).iter_games(status="open")}
    assert gid not in listed  # unlisted
    with pytest.raises(Forbidden) as refused:
        ManhattanClient(live_manhattan).join(gid, "eve")
    assert refused.value.code == "invite-required"
    bad = cli(
        "manhattan", "join", gid, "--name", "eve", "--invite", "nope", home="eve", check=False
    )
    assert bad.returncode == 1 and "invalid-invite" in bad.stderr

    bob = _json(cli("manhattan", "join", link, "--name", "bob", "--json", home="bob"))
    cli("register", "cy", home="cy")
    cy = _json(cli("manhattan", "join", gid, "--invite", code, "--json", home="cy"))
    assert (bob["seat"], cy["seat"]) == (1, 2)
    assert [p["name"] for p in cy["game"]["players"]] == ["ann", "bob", "cy"]
    games = _json(cli("games", "--json", home="cy"))["games"]
    assert [(g["id"], g["seat"], g["status"]) for g in games] == [(gid, 2, "open")]

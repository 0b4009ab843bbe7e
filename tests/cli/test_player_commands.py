"""The CLI's invite link (the browser page's, taken by ``join`` too) and the player
commands against the live services."""

from __future__ import annotations

import json
import subprocess
import threading

import pytest
import requests

from clients.cli.client import ManhattanClient
from clients.cli.errors import Forbidden, NotFound


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


def test_rematch_profile_export_and_delete(cli, tmp_path, live_manhattan, live_windcity) -> None:
    ann = _json(cli("register", "ann", "--json"))
    bob = _json(cli("register", "bob", "--json", home="bob"))
    made = _json(cli("manhattan", "new", "--players", "2", "--join", "ann", "--json"))
    gid = made["id"]
    cli("manhattan", "join", gid, home="bob")
    cli("manhattan", "start", gid)
    procs: dict[str, subprocess.CompletedProcess] = {}
    threads = [
        threading.Thread(
            target=lambda home=home: procs.__setitem__(
                home, cli("bot", "manhattan", gid, "--strategy", "random", "--quiet", home=home)
            )
        )
        for home in ("ann", "bob")
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert ManhattanClient(live_manhattan).view(gid)["status"] == "finished"

    again = _json(cli("manhattan", "rematch", gid, "--json"))
    text = cli("manhattan", "rematch", gid, home="bob").stdout
    assert again["id"] != gid and f"next game {again['id']}" in text
    view = ManhattanClient(live_manhattan).view(again["id"])
    assert view["status"] == "running"  # both seats taken back: it started when full
    assert sorted(p["name"] for p in view["players"]) == ["ann", "bob"]

    profile = cli("player", bob["id"]).stdout
    assert "bob" in profile and "Manhattan" in profile and "Wind City" in profile
    assert _json(cli("player", bob["id"], "--json"))["name"] == "bob"

    path = tmp_path / "mine.json"
    said = cli("export", "--output", str(path)).stdout
    document = json.loads(path.read_text())
    assert document["player"]["id"] == ann["id"] and set(document["services"]) == {
        "manhattan",
        "windcity",
    }
    exported = {g["id"] for g in document["services"]["manhattan"]["games"]}
    assert {gid, again["id"]} <= exported and document["services"]["windcity"]["games"] == []
    assert "exported 2 games from manhattan, windcity" in said

    refused = cli("delete-player", check=False)
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert "erased" in cli("delete-player", "--yes").stdout
    assert cli("whoami", check=False).returncode == 2
    with pytest.raises(NotFound):
        ManhattanClient(live_manhattan).player(ann["id"])
    names = [p["name"] for p in ManhattanClient(live_manhattan).view(gid)["players"]]
    assert "ann" not in names and "bob" in names


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_new_seats_the_search_levels_on_the_server(cli, level: str) -> None:
    made = _json(cli("manhattan", "new", "--bots", "1", "--strategy", level, "--json"))
    seats = {p["seat"]: p.get("bot") for p in made["game"]["players"]}
    assert seats == {0: None, 1: level} and made["game"]["status"] == "running"
    said = cli("--lang", "ja", "manhattan", "new", "--bots", "2", "--strategy", level).stdout
    assert {"medium": "中級", "strong": "上級"}[level] in said and "server" not in said

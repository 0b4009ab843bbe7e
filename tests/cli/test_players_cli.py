"""Players in the CLI: ``register``/``login``/``whoami``/``logout``, ``games`` (both
services, your turn first), joining with the player key, private games (``new
--private``, ``join --invite`` or an invite link) and ``quick`` (``POST /matches``).

The first half runs ``main()`` in-process against scripted local HTTP servers; the
second runs the CLI as a subprocess against the live services."""

from __future__ import annotations

import json
import stat
import subprocess
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from clients.cli import players
from clients.cli.__main__ import main
from clients.cli.client import ManhattanClient, WindCityClient
from clients.cli.tokens_store import TokenStore

ROOT = Path(__file__).resolve().parents[2]
KEY = "bgp_p1_secret"

Route = Callable[[str, str, dict | None], tuple[int, dict]]


class Fake:
    """A scripted service: ``route(method, path, body) -> (status, payload)``; keeps the
    requests it received (method, path, query, headers, body)."""

    def __init__(self, route: Route) -> None:
        self.route = route
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                url = urlparse(self.path)
                fake.requests.append(
                    {
                        "method": self.command,
                        "path": url.path,
                        "query": {k: v[0] for k, v in parse_qs(url.query).items()},
                        "auth": self.headers.get("Authorization"),
                        "body": body,
                    }
                )
                status, payload = fake.route(self.command, self.path, body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                kind = "application/problem+json" if status >= 400 else "application/json"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


def problem(status: int, code: str) -> tuple[int, dict]:
    return status, {"type": "about:blank", "title": code, "status": status, "code": code}


@pytest.fixture
def fakes(monkeypatch, tmp_path) -> Iterator[Callable[..., Fake]]:
    """Make scripted services; the CLI's home is a temp dir."""
    monkeypatch.setenv("BOARDGAMES_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BOARDGAMES_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    made: list[Fake] = []

    def make(route: Route, game: str | None = None) -> Fake:
        fake = Fake(route)
        made.append(fake)
        if game:
            monkeypatch.setenv(f"{game.upper()}_URL", fake.url)
        return fake

    yield make
    for fake in made:
        fake.server.shutdown()


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _entry(game: str, gid: str, my_turn: bool, minutes_ago: int, **kw) -> dict:
    when = datetime(2030, 1, 1, 12, 0, tzinfo=UTC) - timedelta(minutes=minutes_ago)
    return {
        "game": game,
        "id": gid,
        "status": kw.pop("status", "running"),
        "seat": kw.pop("seat", 0),
        "my_turn": my_turn,
        "deadline": kw.pop("deadline", None),
        "players": kw.pop("players", [{"seat": 1, "name": "bob", "bot": None}]),
        "result": kw.pop("result", None),
        "updated_at": when.isoformat().replace("+00:00", "Z"),
    }


def _store_player(url: str = "http://127.0.0.1:1") -> None:
    TokenStore().set_player({"id": "p1", "name": "ann", "key": KEY, "url": url})


# ------------------------------------------------------------------ scripted services


def test_register_keeps_the_key_0600_and_whoami_asks_with_it(fakes, capsys) -> None:
    created = {"id": "p1", "name": "ann", "external_id": None, "created_at": "2030-01-01T00:00:00Z"}

    def route(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        if (method, path) == ("POST", "/players"):
            return 201, {**created, "name": body["name"], "key": KEY}
        if (method, path) == ("GET", "/players/me"):
            return 200, created
        return problem(404, "not-found")

    fake = fakes(route, "manhattan")
    code, out, _ = _cli(capsys, "register", "ann")
    assert code == 0 and "registered ann (p1)" in out and KEY not in out  # the key stays put
    path = TokenStore().path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["player"]["key"] == KEY
    assert fake.requests[0]["body"] == {"name": "ann"}

    code, out, _ = _cli(capsys, "whoami", "--json")
    assert code == 0 and json.loads(out)["name"] == "ann"
    assert fake.requests[-1]["auth"] == f"Bearer {KEY}"

    code, _, err = _cli(capsys, "register", "bob")  # would lose ann's key
    assert code == 2 and "already ann" in err
    code, out, _ = _cli(capsys, "register", "bob", "--force", "--json")
    assert code == 0 and json.loads(out)["name"] == "bob"
    assert TokenStore().player()["name"] == "bob"
    assert _cli(capsys, "logout")[0] == 0 and TokenStore().player() is None
    code, _, err = _cli(capsys, "whoami")
    assert code == 2 and "boardgames register" in err


def test_games_asks_both_services_follows_cursors_my_turn_first(fakes, capsys) -> None:
    soon = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    manhattan_pages = {
        None: ([_entry("manhattan", "m-old-mine", True, 50, deadline=soon)], "c1"),
        "c1": ([_entry("manhattan", "m-new", False, 1)], None),
    }
    over = {"winners": [1], "standings": [{"seat": 1, "rank": 1}, {"seat": 0, "rank": 2}]}
    windcity_games = [
        _entry("windcity", "w-mid", False, 10, status="finished", result=over),
        _entry(
            "windcity", "w-mine", True, 20, players=[{"seat": 1, "name": "cy", "bot": "greedy"}]
        ),
    ]

    def manhattan(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        cursor = parse_qs(urlparse(path).query).get("cursor", [None])[0]
        page, nxt = manhattan_pages[cursor]
        return 200, {"games": page, "next_cursor": nxt}

    def windcity(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        return 200, {"games": windcity_games, "next_cursor": None}

    m, w = fakes(manhattan, "manhattan"), fakes(windcity, "windcity")
    _store_player()
    code, out, _ = _cli(capsys, "games", "--json")
    assert code == 0
    ids = [g["id"] for g in json.loads(out)["games"]]
    # your turn first (the nearest deadline first), then the newest activity
    assert ids == ["m-old-mine", "w-mine", "m-new", "w-mid"]
    listing = [r for r in m.requests if r["path"] == "/players/me/games"]
    assert [r["query"].get("cursor") for r in listing] == [None, "c1"]
    # then each service's GET /players/{id}: your rating in its game (none here)
    others = [r["path"] for r in m.requests + w.requests if r["path"] != "/players/me/games"]
    assert others == ["/players/p1", "/players/p1"]
    assert json.loads(out)["ratings"] == {"manhattan": None, "windcity": None}
    assert {r["auth"] for r in m.requests + w.requests if r["path"] == "/players/me/games"} == {
        f"Bearer {KEY}"
    }

    code, out, _ = _cli(capsys, "games", "--mine", "--status", "running", "--limit", "1")
    assert code == 0
    assert w.requests[-2]["query"] == {"turn": "mine", "status": "running", "limit": "100"}
    lines = [line for line in out.splitlines() if line.strip()]
    unrated = "not rated yet (everyone starts at 1000)"
    assert lines[:2] == [f"Manhattan: {unrated}", f"Wind City: {unrated}"]
    assert lines[2].split()[:3] == ["game", "id", "status"] and len(lines) == 4
    assert "m-old-mine" in lines[3] and "yours, due in 4m" in lines[3]

    code, out, _ = _cli(capsys, "games")
    rows = {gid: line for line in out.splitlines()[3:] for gid in line.split() if "-" in gid}
    assert "cy (bot)" in rows["w-mine"] and "rank 2 of 2" in rows["w-mid"]
    assert "others" in rows["m-new"]


def test_games_with_one_service_down_lists_the_other(fakes, capsys, monkeypatch) -> None:
    fakes(
        lambda *_: (200, {"games": [_entry("manhattan", "m1", True, 1)], "next_cursor": None}),
        "manhattan",
    )
    monkeypatch.setenv("WINDCITY_URL", "http://127.0.0.1:9")  # nothing listens there
    _store_player()
    code, out, err = _cli(capsys, "games")
    assert code == 0 and "m1" in out and err.startswith("warning: windcity")
    monkeypatch.setenv("MANHATTAN_URL", "http://127.0.0.1:9")
    code, _, err = _cli(capsys, "games")
    assert code == 1 and err.startswith("error:")


def test_games_without_a_player_says_register(fakes, capsys) -> None:
    code, _, err = _cli(capsys, "games")
    assert code == 2 and "boardgames register NAME" in err


def test_join_sends_the_player_key_and_the_invite_of_a_link(fakes, capsys) -> None:
    gid = "0123456789abcdef"
    view = {"id": gid, "status": "open", "players": [{"seat": 0, "name": "ann"}]}

    def route(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        if (method, path) == ("POST", f"/games/{gid}/players"):
            return 201, {"seat": 0, "token": "seat-tok", "game": view}
        return problem(404, "not-found")

    fake = fakes(route)  # not the default URL: the link says where the game is
    _store_player()
    code, out, _ = _cli(capsys, "manhattan", "join", f"{fake.url}/games/{gid}?invite=abc")
    assert code == 0 and "joined 0123456789abcdef as ann: seat 0" in out
    req = fake.requests[-1]
    assert req["auth"] == f"Bearer {KEY}" and req["body"] == {"invite": "abc"}
    rec = TokenStore().game("manhattan", gid)
    assert rec["url"] == fake.url and rec["seats"]["0"] == {"token": "seat-tok", "name": "ann"}

    code, _, _ = _cli(
        capsys, "manhattan", "join", gid, "--url", fake.url, "--invite", "xyz", "--name", "al",
        "--no-player",
    )  # fmt: skip
    assert code == 0
    assert fake.requests[-1]["auth"] is None
    assert fake.requests[-1]["body"] == {"name": "al", "invite": "xyz"}
    code, _, err = _cli(capsys, "manhattan", "join", f"/games/{gid}?invite=a", "--invite", "b")
    assert code == 2 and "two invite codes" in err

    code, out, _ = _cli(  # the browser page's link, as the services give it now
        capsys, "manhattan", "join", f"{fake.url}/play?game={gid}&invite=pq", "--no-player",
        "--name", "bo",
    )  # fmt: skip
    assert code == 0 and "joined 0123456789abcdef as" in out
    assert fake.requests[-1]["path"] == f"/games/{gid}/players"
    assert fake.requests[-1]["body"] == {"name": "bo", "invite": "pq"}


def test_join_without_a_player_still_needs_a_name(fakes, capsys) -> None:
    code, _, err = _cli(capsys, "manhattan", "join", "0123456789abcdef")
    assert code == 2 and "--name" in err


def test_quick_says_clearly_when_the_service_has_no_matches(fakes, capsys) -> None:
    fake = fakes(lambda *_: problem(404, "not-found"), "windcity")
    assert _cli(capsys, "windcity", "quick")[0] == 2  # no player: usage
    _store_player()
    code, _, err = _cli(capsys, "windcity", "quick", "--players", "3", "--bots-after", "30")
    assert code == 1 and "has no quick match" in err and "Traceback" not in err
    req = fake.requests[-1]
    assert (req["path"], req["auth"]) == ("/matches", f"Bearer {KEY}")
    assert req["body"] == {"players": 3, "bots_after": 30}


def test_quick_keeps_the_seat(fakes, capsys) -> None:
    view = {"id": "g" * 16, "status": "open", "players": [{"seat": 1, "name": "ann"}]}
    fakes(
        lambda *_: (201, {"game_id": "g" * 16, "seat": 1, "token": None, "game": view}), "manhattan"
    )
    _store_player()
    code, out, _ = _cli(capsys, "manhattan", "quick", "--json")
    assert code == 0 and json.loads(out)["seat"] == 1
    # token null (already seated there): the player key acts for the seat
    assert TokenStore().seats("manhattan", "g" * 16) == {1: {"token": KEY, "name": "ann"}}
    assert TokenStore().last_game("manhattan") == "g" * 16


def test_cells() -> None:
    now = datetime(2030, 1, 1, tzinfo=UTC)
    due = {"my_turn": True, "deadline": "2030-01-01T01:30:00Z"}
    assert players.turn_cell(due, now).plain == "yours, due in 1h30m"
    assert players.turn_cell({**due, "deadline": "2029-12-31T23:00:00Z"}, now).plain == (
        "yours, overdue"
    )
    assert players.turn_cell({"status": "open"}, now).plain == "not started"
    shared = {"winners": [0, 2], "standings": [{"seat": 0, "rank": 1}, {"seat": 2, "rank": 1}]}
    assert players.result_cell({"seat": 2, "result": shared}) == "won (shared)"
    assert players.result_cell({"seat": 0, "result": None}) == ""


# ------------------------------------------------------------------ live services


def _json(proc: subprocess.CompletedProcess) -> dict:
    return json.loads(proc.stdout)


def test_register_join_and_my_games_in_both_services(cli, live_manhattan, live_windcity) -> None:
    me = _json(cli("register", "ann", "--json"))
    assert me["key"].startswith("bgp_") and _json(cli("whoami", "--json"))["id"] == me["id"]
    bob_key = ManhattanClient(live_manhattan).create_player("bob")["key"]
    to_act: dict[str, bool] = {}
    for cls, url, seed in (
        (ManhattanClient, live_manhattan, 0),
        (WindCityClient, live_windcity, 2),
    ):
        host = cls(url)
        gid = host.create(players=2, seed=seed)["id"]
        game = host.game
        joined = _json(cli(game, "join", gid, "--json"))  # no --name: the player's
        assert joined["seat"] == 0 and joined["game"]["players"][0]["name"] == "ann"
        cls(url).join(gid, player_key=bob_key)
        view = host.start(gid)
        to_act[gid] = 0 in view["to_act"]
        # the player key acts for the seat too (show: the seat's own view)
        assert _json(cli(game, "show", gid, "--json", "--token", me["key"]))["you"] == 0

    listed = _json(cli("games", "--json"))["games"]
    assert [g["id"] for g in listed if g["id"] in to_act] == sorted(
        to_act, key=lambda gid: not to_act[gid]
    )
    for g in listed:
        assert g["my_turn"] == to_act[g["id"]] and g["players"][0]["name"] == "bob"
    assert {g["game"] for g in listed} == {"manhattan", "windcity"}
    assert True in to_act.values() and False in to_act.values()
    mine = _json(cli("games", "--mine", "--json"))["games"]
    assert [g["id"] for g in mine] == [gid for gid, turn in to_act.items() if turn]
    table = cli("games").stdout
    assert "yours" in table and "others" in table and "bob" in table

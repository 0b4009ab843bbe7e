"""Ratings in the CLI: ``leaderboard GAME`` (pages followed, your row marked, the cursor
to go on), your rating per game above ``games``, and the rating change in a finished
game's result (``show``, ``play``, ``bot``: "1000 → 1138 (+138)"), each explained in
words (everyone starts at 1000, which games count, how many rated games a leaderboard
needs and how many more a player needs).

The first half runs ``main()`` in-process against scripted local HTTP servers (those
of tests/cli/test_players_cli.py); the last test plays a rated game on the live
services and reads it back through the CLI as a subprocess."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest
from rich.cells import cell_len

from clients.cli import render
from clients.cli.client import WindCityClient
from clients.cli.style import rating_change
from tests.cli.test_players_cli import _cli, _entry, _json, _store_player, fakes, problem

__all__ = ["fakes"]  # the fixture, imported for pytest (cli is tests/cli/conftest.py's)


def _entry_of(rank: int, pid: str, name: str, ordinal: float) -> dict:
    return {
        "rank": rank,
        "player": {"id": pid, "name": name},
        "rating": max(0, round(1000 + 40 * ordinal)),
        "ordinal": ordinal,
        "mu": ordinal + 3 * 2.5,
        "sigma": 2.5,
        "games": 7,
        "win_share": 0.4286,
    }


BOARD = [
    _entry_of(1, "p9", "zoe", 12.345),
    _entry_of(2, "p1", "ann", 3.04),
    _entry_of(3, "p7", "cy", -1.26),
    _entry_of(4, "p8", "dee", -4.0),
]


def _board_route(method: str, path: str, body: dict | None) -> tuple[int, dict]:
    url = urlparse(path)
    if url.path != "/leaderboards/manhattan":
        return problem(404, "game-not-found")
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    start = int(query.get("cursor", "c0")[1:])
    rows = BOARD[start : start + int(query.get("limit", 20))]
    end = start + len(rows)
    return 200, {
        "game": "manhattan",
        "min_games": 3,
        "entries": rows,
        "next_cursor": f"c{end}" if end < len(BOARD) else None,
    }


def test_leaderboard_pages_marks_you_and_says_how_to_go_on(fakes, capsys) -> None:
    fake = fakes(_board_route, "manhattan")
    _store_player()  # ann, p1
    code, out, _ = _cli(capsys, "leaderboard", "manhattan", "--limit", "3")
    assert code == 0
    lines = [line.split() for line in out.splitlines() if line.strip()]
    assert lines[0] == ["Manhattan", "leaderboard"]
    assert lines[1] == ["rank", "name", "rating", "games", "win", "share"]
    assert lines[2] == ["1", "zoe", "1494", "7", "43%"]
    assert lines[3] == ["2", "ann", "(you)", "1122", "7", "43%"]
    assert lines[4][:3] == ["3", "cy", "950"]
    assert lines[5] == ["more:", "boardgames", "leaderboard", "manhattan", "--cursor", "c3"]
    assert " ".join(lines[6]) == "a player shows here after 3 rated games"
    about = " ".join(" ".join(line) for line in lines[7:])
    assert about.startswith("rating: everyone starts at 1000;") and "cancelled" in about
    assert [r["query"] for r in fake.requests] == [{"limit": "3"}]

    code, out, _ = _cli(capsys, "leaderboard", "manhattan", "--cursor", "c3", "--json")
    assert code == 0
    page = json.loads(out)
    assert [e["player"]["name"] for e in page["entries"]] == ["dee"] and not page["next_cursor"]

    # a limit over the service's largest page is read in pages of at most 100
    code, out, _ = _cli(capsys, "leaderboard", "manhattan", "--limit", "250", "--json")
    assert [e["rank"] for e in json.loads(out)["entries"]] == [1, 2, 3, 4]
    assert fake.requests[-1]["query"] == {"limit": "100"}


def test_the_japanese_leaderboard_at_80_columns_says_the_rule_and_what_a_rating_is(
    fakes, capsys, monkeypatch
) -> None:
    fakes(_board_route, "manhattan")
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = _cli(capsys, "--lang", "ja", "leaderboard", "manhattan", "--limit", "4")
    assert code == 0
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= 80, out
    assert lines[0].strip() == "マンハッタン ランキング"
    assert lines[2].split() == ["1", "zoe", "1494", "7", "43%"]
    rule = "レーティング対象のゲームを 3 回遊ぶとここに表示されます"
    assert rule in lines
    about = "".join(line.strip() for line in lines[lines.index(rule) + 1 :])
    assert about.startswith("レーティング:全員1000から始まり") and "中止" in about, out
    assert "rating" not in out and "sigma" not in out


def test_leaderboard_usage_and_an_empty_board(fakes, capsys) -> None:
    empty = {"game": "windcity", "min_games": 1, "entries": [], "next_cursor": None}
    fakes(lambda *_: (200, empty), "windcity")
    code, out, _ = _cli(capsys, "leaderboard", "windcity")
    said = " ".join(out.split())
    assert code == 0
    assert said == "nobody on the Wind City leaderboard yet: a player shows here after 1 rated game"
    with pytest.raises(SystemExit) as refused:  # argparse's own exit
        _cli(capsys, "leaderboard", "chess")
    assert refused.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err
    assert _cli(capsys, "leaderboard", "windcity", "--limit", "0")[0] == 2
    fakes(lambda *_: problem(404, "game-not-found"), "manhattan")
    code, _, err = _cli(capsys, "leaderboard", "manhattan")
    assert code == 1 and "game-not-found" in err


def test_games_shows_your_rating_in_each_game(fakes, capsys) -> None:
    rated = {
        "rating": 1136,
        "mu": 27.6,
        "sigma": 8.07,
        "ordinal": 3.39,
        "games": 1,
        "games_to_rank": 4,
        "win_share": 1.0,
    }

    def manhattan(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        if path == "/players/p1":
            return 200, {"id": "p1", "name": "ann", "ratings": {"manhattan": rated}}
        return 200, {"games": [_entry("manhattan", "m1", True, 1)], "next_cursor": None}

    def windcity(method: str, path: str, body: dict | None) -> tuple[int, dict]:
        if path == "/players/p1":  # the registry holds both; each service's own game shown
            return 200, {"id": "p1", "name": "ann", "ratings": {"manhattan": rated}}
        return 200, {"games": [], "next_cursor": None}

    fakes(manhattan, "manhattan")
    fakes(windcity, "windcity")
    _store_player()
    code, out, _ = _cli(capsys, "games")
    assert code == 0
    lines = [line for line in out.splitlines() if line.strip()]
    said = "rating 1136, 1 rated game, win share 100% (4 more rated games for the leaderboard)"
    assert lines[0] == f"Manhattan: {said}"
    assert lines[1] == "Wind City: not rated yet (everyone starts at 1000)"
    code, out, _ = _cli(capsys, "games", "--json")
    assert json.loads(out)["ratings"] == {"manhattan": rated, "windcity": None}


def _rating(seat: int, before: int, after: int, bot: str | None = None) -> dict:
    return {
        "seat": seat,
        "player": None if bot else f"p{seat}",
        "bot": bot,
        "rank": seat + 1,
        "before": {"mu": 25.0, "sigma": 8.0, "ordinal": 1.0, "rating": before},
        "after": {"mu": 26.0, "sigma": 7.0, "ordinal": 5.0, "rating": after},
        "won": 1.0 if seat == 0 else 0.0,
    }


def test_the_result_says_each_rating_change() -> None:
    assert rating_change(_rating(0, 1000, 1138)) == "1000 → 1138 (+138)"
    assert rating_change(_rating(1, 1000, 927)) == "1000 → 927 (-73)"
    assert rating_change(_rating(2, 1720, 1720, bot="greedy")) == "1720 (bot, fixed)"
    stored_before_ratings_were_shown = _rating(1, 0, 0)
    for side in ("before", "after"):
        del stored_before_ratings_were_shown[side]["rating"]
    assert rating_change(stored_before_ratings_were_shown) == ""
    result = {
        "winners": [0],
        "standings": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}],
        "ratings": [_rating(0, 1000, 1138), _rating(1, 1000, 927)],
    }
    view = {
        "game": "windcity",
        "you": 1,
        "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
        "result": result,
    }
    text = render.to_text(render.render_result(view))
    ranked = [line for line in text.splitlines() if line.split()[:1] in (["1"], ["2"])]
    rows = {line.split()[1]: line for line in ranked}
    assert any(line.split()[:3] == ["rank", "player", "rating"] for line in text.splitlines())
    assert rows["0:ann"].rstrip().endswith("1000 → 1138 (+138)")
    assert rows["1:bob"].rstrip().endswith("1000 → 927 (-73)")
    assert "your rating: 1000 → 927 (-73)" in text
    watched = " ".join(render.to_text(render.render_result({**view, "you": None})).split())
    assert "rating: before → after this game (everyone starts at 1000)" in watched
    unrated = {**view, "result": {k: v for k, v in result.items() if k != "ratings"}}
    assert "rating" not in render.to_text(render.render_result(unrated))


# ------------------------------------------------------------------ live services


def test_a_rated_game_through_the_cli(cli, live_windcity) -> None:
    """Two players' Wind City game (10 turns) played through the client to the end:
    ``show`` says the rating change, ``games`` the rating, ``leaderboard`` lists both."""
    ann = _json(cli("register", "ann", "--service", "windcity", "--json"))
    bob = WindCityClient(live_windcity).create_player("bob")
    host = WindCityClient(live_windcity)
    gid = host.create(players=2, seed=5, max_turns=10)["id"]
    seats = {}
    for key in (ann["key"], bob["key"]):
        seats[host.join(gid, player_key=key)["seat"]] = key
    view = host.start(gid)
    while view["status"] == "running":
        seat = view["to_act"][0]
        move = host.legal_moves(gid, token=seats[seat])[0]
        view = host.move(gid, move, token=seats[seat])["game"]
    mine = next(r for r in view["result"]["ratings"] if r["player"] == ann["id"])

    shown = cli("windcity", "show", gid, "--token", ann["key"]).stdout
    assert f"your rating: {rating_change(mine)}" in " ".join(shown.split())
    table = cli("games").stdout
    after = mine["after"]["rating"]
    assert mine["before"]["rating"] == 1000  # a new player
    assert f"Wind City: rating {after}, 1 rated game" in table
    board = _json(cli("leaderboard", "windcity", "--limit", "1000", "--json"))
    listed = {e["player"]["id"]: e for e in board["entries"]}
    assert listed[ann["id"]]["games"] == 1 and bob["id"] in listed
    text = cli("leaderboard", "windcity", "--limit", "1000").stdout
    assert "ann (you)" in text

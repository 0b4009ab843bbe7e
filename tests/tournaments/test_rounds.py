"""A Swiss tournament's life in-process on the test Redis (shared/usecases/tournaments.py,
tournament_rounds.py): registration, the rounds the worker's step pairs, seats and
closes once, and the standings."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from shared.games import Games
from shared.usecases import tournament_rounds as rounds
from shared.usecases import tournaments
from shared.usecases.autoplay import NothingDue, play_due

CLOCK = {"turn_seconds": 30}


@pytest.fixture
def games(make_app: Callable[..., Flask]) -> Games:
    app = make_app("toy")
    return app.extensions["game_kit"].games


def expire_deadlines(games: Games, game_id: str) -> None:
    """Every running seat's deadline now: the worker's next step times them out."""

    def decide(doc: Any) -> Any:
        from shared.games.base import Outcome

        players = [
            {**p, "deadline": "2000-01-01T00:00:00.000Z"} if p.get("deadline") else p
            for p in doc["players"]
        ]
        return Outcome({**doc, "players": players}, [])  # type: ignore[typeddict-item]

    games.writes.mutate(game_id, decide)


def play_round(games: Games, doc: dict[str, Any], timeouts: bool = False) -> None:
    for table in doc["history"][-1]["tables"]:
        for _ in range(2000):
            try:
                play_due(games, table["game"])
            except NothingDue:
                if not timeouts or games.writes.load(table["game"])["status"] != "running":
                    break
                expire_deadlines(games, table["game"])


def run(games: Games, tid: str, steps: int = 40, timeouts: bool = False) -> dict[str, Any]:
    for _ in range(steps):
        if rounds.advance(games, tid) is None:
            break
        doc, _ = games.store.tournaments.read(tid)
        if doc["status"] == tournaments.RUNNING:
            play_round(games, doc, timeouts)
    doc, _ = games.store.tournaments.read(tid)
    return doc


def test_a_swiss_of_bots_plays_every_round_once_and_counts_every_game(games: Games) -> None:
    spec = {"rounds": 3, "table_size": 4, "clock": CLOCK, "bots": ["random"] * 10}
    doc = tournaments.create(games, spec, host="p-host")
    tid = doc["id"]
    assert rounds.advance(games, tid) is not None  # not started: nothing happens
    assert games.store.tournaments.read(tid)[0]["round"] == 0
    tournaments.host_action(games, tid, "p-host", "start")
    doc = run(games, tid)
    assert doc["status"] == tournaments.FINISHED and doc["round"] == 3
    assert [len(r["tables"]) for r in doc["history"]] == [3, 3, 3]  # 4 + 4 + 2 each round
    seen: set[str] = set()
    for r in doc["history"]:
        seated = [p for t in r["tables"] for p in t["players"]] + r["byes"]
        assert sorted(seated) == sorted(doc["entries"])  # everyone once a round
        for t in r["tables"]:
            game = games.writes.load(t["game"])
            assert game["status"] == "finished"
            assert t["game"] not in seen
            seen.add(t["game"])
    for e in doc["entries"].values():
        assert len(e["games"]) == 3 and len(set(e["games"])) == 3
    # the points are exactly the places of the games, recounted here
    total = {pid: 0 for pid in doc["entries"]}
    for r in doc["history"]:
        for t in r["tables"]:
            game = games.writes.load(t["game"])
            rows = game["result"]["standings"]
            per = {4: [6, 4, 2, 0], 2: [6, 0]}[len(rows)]
            by_seat = {p["seat"]: p["player"] for p in game["players"]}
            ranks = [row["rank"] for row in rows]
            for row in rows:
                same = [i for i, rk in enumerate(ranks) if rk == row["rank"]]
                places = per[row["rank"] - 1 : row["rank"] - 1 + len(same)]
                total[by_seat[row["seat"]]] += sum(places) // len(places)
    assert total == {pid: e["points"] for pid, e in doc["entries"].items()}
    page, cursor = tournaments.standings_page(doc, 4, 0)
    rest, end = tournaments.standings_page(doc, 10, cursor)
    assert end is None and len(page) + len(rest) == 10
    assert [r["points"] for r in page + rest] == sorted(
        (r["points"] for r in page + rest), reverse=True
    )


def test_a_second_step_on_a_stale_copy_never_pairs_a_round_twice(games: Games) -> None:
    spec = {"rounds": 2, "table_size": 2, "clock": CLOCK, "bots": ["random"] * 4}
    tid = tournaments.create(games, spec, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    rounds.advance(games, tid)  # a second copy: the round is paired already
    doc, version = games.store.tournaments.read(tid)
    assert doc["round"] == 1 and len(doc["history"]) == 1
    assert not games.store.tournaments.swap(tid, version - 1, {**doc, "round": 9})


def test_humans_are_seated_and_told(games: Games) -> None:
    spec = {"rounds": 1, "table_size": 4, "clock": CLOCK, "bots": ["random"] * 2}
    tid = tournaments.create(games, spec, host="h")["id"]
    for pid in ("pa", "pb"):
        tournaments.register(games, tid, pid, pid.upper(), "", 1500.0)
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    doc, _ = games.store.tournaments.read(tid)
    (table,) = doc["history"][0]["tables"]
    game = games.writes.load(table["game"])
    assert game["status"] == "running"
    assert sorted(p.get("player") for p in game["players"]) == ["bot:1", "bot:2", "pa", "pb"]
    # the start wrote each human seat's tournament_game into the game's outbox
    raw = games.store.client.xrange(games.store.outbox_key(table["game"]))
    notes = [json.loads(fields.get("n") or fields[b"n"]) for _, fields in raw]
    told = sorted(n["reg"] for n in notes if n["type"] == "tournament_game")
    assert told == ["player:pa", "player:pb"]
    assert all(
        n["data"]["tournament"] == tid and n["data"]["game_id"] == table["game"]
        for n in notes
        if n["type"] == "tournament_game"
    )
    with pytest.raises(Exception, match="started"):
        tournaments.register(games, tid, "pc", "PC", "", 0.0)


def test_an_arena_reseats_the_free_and_counts_every_game_once(games: Games) -> None:
    from shared.usecases import tournament_arena

    spec = {
        "format": "arena",
        "minutes": 5,
        "table_size": 3,
        "clock": CLOCK,
        "bots": ["random"] * 10,
    }
    tid = tournaments.create(games, spec, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    for n in range(30):
        if n == 20:
            tournaments.host_action(games, tid, "h", "end")  # no new table from now
        if tournament_arena.step(games, tid) is None:
            break
        doc, _ = games.store.tournaments.read(tid)
        busy = [p for t in doc["live"] for p in t["players"]]
        assert len(busy) == len(set(busy)), "nobody at two tables at once"
        assert len(doc["live"]) <= 3 and all(len(t["players"]) == 3 for t in doc["live"])
        for table in doc["live"][:1]:  # one table at a time ends: the others wait for it
            for _ in range(2000):
                try:
                    play_due(games, table["game"])
                except NothingDue:
                    break
    doc, _ = games.store.tournaments.read(tid)
    assert doc["status"] == tournaments.FINISHED and not doc["live"]
    made = [t["game"] for t in doc["history"]]
    assert len(made) == len(set(made)) == doc["tables_made"] > 3
    assert sum(len(e["games"]) for e in doc["entries"].values()) == 3 * len(made)
    last: dict[str, set[str]] = {}
    for table in doc["history"]:  # in the order they ended: never the same opponents twice
        for p in table["players"]:
            others = set(table["players"]) - {p}
            assert not others & last.get(p, set())
        for p in table["players"]:
            last[p] = set(table["players"]) - {p}
    total = dict.fromkeys(doc["entries"], 0)
    for table in doc["history"]:
        game = games.writes.load(table["game"])
        by_seat = {p["seat"]: p["player"] for p in game["players"]}
        rows = game["result"]["standings"]
        ranks = [row["rank"] for row in rows]
        for row in rows:
            same = ranks.count(row["rank"])
            places = [6, 3, 0][row["rank"] - 1 : row["rank"] - 1 + same]
            total[by_seat[row["seat"]]] += sum(places) // len(places)
    assert total == {pid: e["points"] for pid, e in doc["entries"].items()}


def test_games_that_cannot_be_made_cancel_the_tournament_with_the_reason(games: Games) -> None:
    spec = {"rounds": 2, "table_size": 2, "clock": CLOCK, "bots": ["random"] * 4}
    tid = tournaments.create(games, spec, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    games.settings["CLOCK_MIN_TURN_SECONDS"] = 60  # the operator raised it meanwhile
    assert rounds.advance(games, tid) is None
    doc, _ = games.store.tournaments.read(tid)
    assert doc["status"] == tournaments.CANCELLED and doc["error"] == "validation-error"


def test_the_check_in_window_keeps_only_who_checked_in(games: Games) -> None:
    soon = tournaments.now_ms() + 60_000
    spec = {"table_size": 2, "clock": CLOCK, "starts_at": soon, "checkin_seconds": 120}
    tid = tournaments.create(games, spec, host="h")["id"]
    for pid in ("pa", "pb", "pc"):
        tournaments.register(games, tid, pid, pid.upper(), "", 0.0)
    tournaments.check_in(games, tid, "pa")
    tournaments.check_in(games, tid, "pc")
    with pytest.raises(Exception, match="not registered"):
        tournaments.check_in(games, tid, "zz")
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    doc, _ = games.store.tournaments.read(tid)
    assert sorted(doc["entries"]) == ["pa", "pc"]
    assert [t["players"] for t in doc["history"][0]["tables"]] == [["pa", "pc"]]


def test_a_check_in_before_its_window_is_refused(games: Games) -> None:
    later = tournaments.now_ms() + 3_600_000
    spec = {"table_size": 2, "clock": CLOCK, "starts_at": later, "checkin_seconds": 120}
    tid = tournaments.create(games, spec, host="h")["id"]
    tournaments.register(games, tid, "pa", "PA", "", 0.0)
    with pytest.raises(Exception, match="not opened"):
        tournaments.check_in(games, tid, "pa")


def test_players_of_another_api_key_cannot_register(games: Games) -> None:
    spec = {"table_size": 2, "clock": CLOCK}
    tid = tournaments.create(games, spec, host="h", tenant="key-a")["id"]
    tournaments.register(games, tid, "pa", "PA", "key-a", 0.0)
    with pytest.raises(Exception, match="another platform"):
        tournaments.register(games, tid, "pb", "PB", "key-b", 0.0)
    doc, _ = games.store.tournaments.read(tid)
    assert list(doc["entries"]) == ["pa"]


def test_blocks_are_read_at_once_and_keep_players_apart(games: Games) -> None:
    moderation = games.store.moderation
    moderation.block("pa", "pb")  # pa blocked pb: both sides avoid each other
    assert moderation.avoided_many(["pa", "pb", "pc"]) == {"pa": {"pb"}, "pb": {"pa"}}
    assert moderation.avoided_many([]) == {}
    spec = {"rounds": 1, "table_size": 4, "clock": CLOCK, "bots": ["random"] * 4}
    tid = tournaments.create(games, spec, host="h")["id"]
    for pid in ("pa", "pb", "pc", "pd"):  # the four best (rating): one table without blocks
        tournaments.register(games, tid, pid, pid.upper(), "", 1500.0)
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    doc, _ = games.store.tournaments.read(tid)
    tables = [set(t["players"]) for t in doc["history"][0]["tables"]]
    assert not any({"pa", "pb"} <= t for t in tables) and len(tables) == 2


def test_a_round_s_games_are_decoded_once_each(games: Games, monkeypatch) -> None:
    """Each look at a round reads only the games not yet known to be over: a game found
    over is not decoded again at the next look."""
    spec = {"rounds": 1, "table_size": 2, "clock": CLOCK, "bots": ["random"] * 6}
    tid = tournaments.create(games, spec, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    doc, _ = games.store.tournaments.read(tid)
    first, *rest = [t["game"] for t in doc["history"][0]["tables"]]
    for gid in rest:  # all over but the first
        while games.writes.load(gid)["status"] == "running":
            play_due(games, gid)
    read: list[str] = []
    real = games.store.read_many

    def reading(ids: list[str]) -> Any:
        read.extend(ids)
        return real(ids)

    monkeypatch.setattr(games.store, "read_many", reading)
    rounds.advance(games, tid)
    assert read == [first, *rest] and doc["status"] == tournaments.RUNNING
    read.clear()
    rounds.advance(games, tid)
    assert read == [first], "the games known over are not read again"
    while games.writes.load(first)["status"] == "running":
        play_due(games, first)
    read.clear()
    assert rounds.advance(games, tid) is None and read == [first]

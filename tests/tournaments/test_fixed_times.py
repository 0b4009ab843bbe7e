"""Swiss rounds at fixed times (``round_minutes``, issue 43): round k + 1 is paired at
the start + k × round_minutes, or when the last game of round k is over if that is
later; a round closes (its points, its standings) as soon as its games are over. The
clock is the use cases' own ``now_ms``, moved by the test."""

from __future__ import annotations

from typing import Any

import pytest

from shared.games import Games
from shared.usecases import tournament_rounds as rounds
from shared.usecases import tournaments
from tests.tournaments.test_rounds import CLOCK, games, play_round  # noqa: F401 (a fixture)

MIN = 60_000


class Clock:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.at = 1_900_000_000_000
        monkeypatch.setattr(rounds, "now_ms", lambda: self.at)
        monkeypatch.setattr(tournaments, "now_ms", lambda: self.at)


def state(kit: Games, tid: str) -> tuple[int, str, dict[str, Any]]:
    doc, _ = kit.store.tournaments.read(tid)
    return doc["round"], doc["history"][-1]["state"], doc


def test_rounds_start_at_their_times_or_when_the_last_game_is_over(
    games: Games,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock(monkeypatch)
    spec = {"rounds": 3, "round_minutes": 10, "table_size": 2, "clock": CLOCK}
    tid = tournaments.create(games, {**spec, "bots": ["random"] * 4}, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    start = clock.at
    rounds.advance(games, tid)
    assert state(games, tid)[:2] == (1, "playing")  # round 1 at the start
    play_round(games, state(games, tid)[2])
    clock.at = start + 1 * MIN
    later = rounds.advance(games, tid)
    number, now, doc = state(games, tid)
    assert (number, now) == (1, "done"), "closed at once, the next round waits"
    assert sum(e["points"] for e in doc["entries"].values()) == 12  # 2 tables: 6 + 0
    assert later == start + 10 * MIN == doc["next_round_ms"]
    clock.at = start + 10 * MIN - 1
    rounds.advance(games, tid)
    assert state(games, tid)[:2] == (1, "done")
    clock.at = start + 10 * MIN
    rounds.advance(games, tid)
    number, now, doc = state(games, tid)
    assert (number, now) == (2, "playing") and "next_round_ms" not in doc
    # round 2's games run past round 3's time: round 3 waits for them, then starts at once
    clock.at = start + 21 * MIN
    rounds.advance(games, tid)
    assert state(games, tid)[:2] == (2, "playing"), "no game is cut short"
    play_round(games, state(games, tid)[2])
    clock.at = start + 25 * MIN
    rounds.advance(games, tid)
    assert state(games, tid)[:2] == (3, "playing")
    play_round(games, state(games, tid)[2])
    assert rounds.advance(games, tid) is None  # the last round: over when its games are
    doc, _ = games.store.tournaments.read(tid)
    assert doc["status"] == tournaments.FINISHED
    assert [r["round"] for r in doc["history"]] == [1, 2, 3]


def test_the_host_ends_it_while_the_next_round_waits(
    games: Games,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock(monkeypatch)
    spec = {"rounds": 3, "round_minutes": 30, "table_size": 2, "clock": CLOCK}
    tid = tournaments.create(games, {**spec, "bots": ["random"] * 2}, host="h")["id"]
    tournaments.host_action(games, tid, "h", "start")
    rounds.advance(games, tid)
    play_round(games, state(games, tid)[2])
    clock.at += MIN
    rounds.advance(games, tid)
    assert state(games, tid)[:2] == (1, "done")
    tournaments.host_action(games, tid, "h", "end")
    assert rounds.advance(games, tid) is None
    doc, _ = games.store.tournaments.read(tid)
    assert doc["status"] == tournaments.FINISHED and doc["round"] == 1

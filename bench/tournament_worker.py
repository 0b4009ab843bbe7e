"""The worker's tournament steps against a real Redis (issue 43), in-process on a private
redis-server, Manhattan's service (bench/inproc.py), tables of 4.

- **Swiss: pairing a round** of ``--players`` (1,000 and 10,000) players who are all
  humans (so their blocks are read): three rounds simulated before (random places), the
  third one's games stored finished (copies of a real finished game, engine state and
  codec as stored); then the worker's step that closes round 3 and
  pairs round 4 (``tournament_rounds.pair_step``: read the tournament, read the round's
  games, close it, read every player's blocks, pair, compare-and-set) timed, with its
  Redis round trips counted on the client (each redis-py ``send_packed_command`` and
  each ``ask`` of the store's lane; a pipeline is one); then seating that round
  (``seat_round``: each game created with its players seated, then started) timed
  and counted apart. ``now``: the worker's look a second before found every game of
  the round over but the last (their rows kept: the steady state); ``cold``: nothing
  kept, every game decoded at the close; ``baseline``: the step as it was before this
  change (one round trip per game of the round and one per player's blocks), in the
  same run.
- **Arena: the next seat.** ``--arena`` (2,000) players seated 4 a table at the start;
  for ``--seconds`` each game is ended programmatically (a compare-and-set write making
  it ``finished`` with random places, through the games' own write loop) a uniform
  5-25 s after it started, from a thread of its own, while the main thread is the
  worker's loop: the tournament's step when it is due (it asks to be looked at again
  ``RECHECK_MS`` = 1 s later, as the worker schedules it). Measured per player: from the
  start of the write that ended its game to the end of the step that seated it again (its new
  game created and every seat taken), p50/p99/max, with the steps' wall time and round
  trips. Players wait only for a full table of free players who did not sit together
  last game; the wait for the step (up to 1 s) is part of the figure.

Run: ``python -m bench.tournament_worker [--players 1000,10000] [--arena 2000]
[--seconds 30] [--no-baseline]``.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import redis.connection

from bench.common import redis_server
from bench.inproc import make_app
from shared.games import Games, seats
from shared.games.base import Outcome
from shared.store import connection as fastcall
from shared.store import document_codec as doccodec
from shared.tournaments import swiss
from shared.usecases import tournament_arena, tournaments
from shared.usecases import tournament_rounds as rounds
from shared.usecases.autoplay import NothingDue, play_due

SIZE = 4
CLOCK = {"turn_seconds": 600}
_sent = [0]
_orig_send = redis.connection.AbstractConnection.send_packed_command
_orig_ask = fastcall.Conn.ask


def _counting(self: Any, command: Any, check_health: bool = True) -> Any:
    _sent[0] += 1
    return _orig_send(self, command, check_health)


def _asking(self: Any, packed: Any, count: int = 1) -> Any:
    _sent[0] += 1
    return _orig_ask(self, packed, count)


@contextlib.contextmanager
def counted() -> Iterator[list[float]]:
    """``[round trips, seconds]`` of the block."""
    redis.connection.AbstractConnection.send_packed_command = _counting  # type: ignore[method-assign]
    fastcall.Conn.ask = _asking  # type: ignore[method-assign]
    out = [0.0, 0.0]
    sent, start = _sent[0], time.perf_counter()
    try:
        yield out
    finally:
        out[:] = [_sent[0] - sent, time.perf_counter() - start]
        redis.connection.AbstractConnection.send_packed_command = _orig_send  # type: ignore[method-assign]
        fastcall.Conn.ask = _orig_ask  # type: ignore[method-assign]


@contextlib.contextmanager
def old_reads(kit: Games) -> Iterator[None]:
    """The step as it was: each game of the round read (one round trip each, up to the
    first still on) at every look, and each player's blocks (one round trip each)."""
    moderation = kit.store.moderation
    chunk, results = rounds.READ_CHUNK, rounds.results
    rounds.READ_CHUNK = 1

    def every_game(games: Games, tid: str, gids: list[str]) -> list[Any] | None:
        found = rounds.finals(games, gids, until_on=True)
        return None if False in found else found

    rounds.results = every_game
    moderation.avoided_many = lambda ids: {p: moderation.avoided(p) for p in ids}  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        rounds.READ_CHUNK, rounds.results = chunk, results
        del moderation.avoided_many


def real_game(kit: Games) -> dict[str, Any]:
    """A real 4-player game of Manhattan played to its end by random bots (its document
    as stored, the engine state included): what the step reads, in size and codec."""
    bots = [seats.new_player(i, f"Bot {i}", "", "random") for i in range(SIZE)]
    options = {"players": SIZE, "start": "when_full", "clock": CLOCK}
    doc, _, _ = kit.lifecycle.create(options, "bench", bots=bots)
    rounds._start(kit, doc["id"])
    with contextlib.suppress(NothingDue):
        for _ in range(5000):
            play_due(kit, doc["id"])
    stored, _ = kit.store.read(doc["id"])
    assert stored is not None and stored["status"] == "finished"
    return stored


def finished_game(
    model: dict[str, Any], gid: str, players: list[str], rng: random.Random
) -> dict[str, Any]:
    """``model`` as game ``gid`` of ``players``, over with random places."""
    order = list(range(len(players)))
    rng.shuffle(order)
    seated = [{**model["players"][s], "player": p} for s, p in enumerate(players)]
    result = {**model["result"]}
    result["standings"] = [{"seat": s, "rank": r + 1} for r, s in enumerate(order)]
    return {**model, "id": gid, "players": seated, "result": result}


def swiss_tournament(kit: Games, n: int, seed: int) -> tuple[str, dict[str, Any]]:
    """A Swiss tournament of ``n`` humans in round 3, its games all over (stored) but
    the last one, still on; and that last game over."""
    rng = random.Random(seed)
    model = real_game(kit)
    doc = tournaments.create(kit, {"rounds": 6, "table_size": SIZE, "clock": CLOCK}, "bench")
    tid = doc["id"]
    for i in range(n):
        name = f"p{i:05d}"
        entry = tournaments.new_entry(i, name, rng.gauss(1500, 200))
        doc["entries"][f"{seed:04x}{i:012x}"] = entry
    doc["status"], doc["started_ms"] = tournaments.RUNNING, tournaments.now_ms()
    for round_no in range(1, 4):
        ranked = [pid for pid, _, _ in tournaments.ranked(doc)]
        met: dict[str, dict[str, int]] = {}
        for pid, entry in doc["entries"].items():
            for o in entry["opponents"]:
                met.setdefault(pid, {})[o] = met.get(pid, {}).get(o, 0) + 1
        byes = {pid: e["byes"] for pid, e in doc["entries"].items()}
        rd = swiss.pair_round(ranked, SIZE, 2, met, byes)
        tables: list[dict[str, Any]] = [
            {"game": rounds.game_id(tid, round_no, i), "players": t}
            for i, t in enumerate(rd.tables)
        ]
        current = {"round": round_no, "state": "playing", "tables": tables, "byes": rd.byes}
        doc["history"].append(current)
        doc["round"] = round_no
        games = [finished_game(model, t["game"], t["players"], rng) for t in tables]
        if round_no < 3:
            rows = [rounds.final(g) for g in games]
            rounds._close(doc, current, rows)  # (the step's own scoring)
        else:  # the last game still on (then over: the last of the round to end)
            store_games(kit, games[:-1])
            store_games(kit, [{**games[-1], "status": "running"}])
            last = games[-1]
    _, version = kit.store.tournaments.read(tid)
    assert kit.store.tournaments.swap(tid, version, doc)
    return tid, last


def store_games(kit: Games, games: list[dict[str, Any]]) -> None:
    pipe = kit.store.client.pipeline(transaction=False)
    for g in games:
        pipe.set(kit.store.keys(g["id"])[0], doccodec.pack(g), ex=3600)
    pipe.execute()


def swiss_figures(kit: Games, n: int, code: str) -> dict[str, float]:
    """``code``: ``baseline`` (the step as it was), ``cold`` (no game's rows kept: the
    step decodes every game of the round) or ``now`` (the worker's look a second before
    found every game over but the last: the steady state)."""
    baseline = code == "baseline"
    tid, last = swiss_tournament(kit, n, seed=n + len(code))
    if code == "now":
        assert rounds.pair_step(kit, tid)["round"] == 3  # (the look before: one still on)
    store_games(kit, [last])
    with old_reads(kit) if baseline else contextlib.nullcontext(), counted() as step:
        doc = rounds.pair_step(kit, tid)
    current = doc["history"][-1]
    assert doc["round"] == 4 and current["state"] == "seating", doc["round"]
    seated = [0.0, 0.0]
    if code == "now":
        with counted() as seated:
            rounds.seat_round(kit, doc, current)
    return {
        "step_rt": step[0],
        "step_ms": step[1] * 1e3,
        "seat_rt": seated[0],
        "seat_s": seated[1],
        "tables": len(current["tables"]),
    }


def end_game(kit: Games, gid: str, rng: random.Random) -> None:
    def decide(doc: Any) -> Outcome:
        if doc["status"] != "running":
            return Outcome(doc, [])
        order = list(range(len(doc["players"])))
        rng.shuffle(order)
        result = {"standings": [{"seat": s, "rank": r + 1} for r, s in enumerate(order)]}
        new: Any = {**doc, "status": "finished", "to_act": [], "result": result}
        return Outcome(new, [{"type": "game_finished", "result": result}])

    kit.writes.mutate(gid, decide)


def arena_figures(kit: Games, n: int, seconds: float, baseline: bool) -> dict[str, Any]:
    rng = random.Random(n)
    spec = {"format": "arena", "minutes": 600, "table_size": SIZE, "clock": CLOCK}
    doc = tournaments.create(kit, spec, "bench")
    tid = doc["id"]
    for i in range(n):
        entry = tournaments.new_entry(i, f"p{i:05d}", rng.gauss(1500, 200))
        doc["entries"][f"{int(baseline):04x}{i:012x}"] = entry
    doc["start_requested"] = True
    assert kit.store.tournaments.swap(tid, 1, doc)
    ended_at: dict[str, float] = {}
    ends: dict[str, float] = {}  # game -> when it is to end
    lock = threading.Lock()
    stop = threading.Event()

    def ender() -> None:
        local = random.Random(1)
        while not stop.is_set():
            now = time.monotonic()
            with lock:
                due = [g for g, at in ends.items() if at <= now]
                for g in due:
                    del ends[g]
            for g in due:
                with lock:  # (from the start of the write that ends it)
                    ended_at[g] = time.monotonic()
                end_game(kit, g, local)
            stop.wait(0.01)

    waits: list[float] = []
    steps: list[tuple[float, float]] = []
    last_game: dict[str, str] = {}
    seen: set[str] = set()
    thread = threading.Thread(target=ender, daemon=True)
    with old_reads(kit) if baseline else contextlib.nullcontext():
        start = time.monotonic()
        first = True  # (the first step seats everyone: not counted)
        thread.start()
        while time.monotonic() - start < seconds:
            with counted() as step:
                later = tournament_arena.step(kit, tid)
            now = time.monotonic()
            if not first:
                steps.append((step[0], step[1]))
            doc, _ = kit.store.tournaments.read(tid)
            for table in doc["live"]:
                if table["game"] in seen:
                    continue
                seen.add(table["game"])
                with lock:
                    ends[table["game"]] = now + rng.uniform(5, 25)
                    for p in table["players"]:
                        before = last_game.get(p)
                        if before is not None:
                            waits.append(now - ended_at[before])
                        last_game[p] = table["game"]
            first = False
            assert later is not None
            time.sleep(max(0.0, (later - tournaments.now_ms()) / 1000))
        stop.set()
        thread.join(10)
    waits.sort()
    return {
        "seated": len(waits),
        "p50": statistics.median(waits) if waits else float("nan"),
        "p99": waits[int(0.99 * (len(waits) - 1))] if waits else float("nan"),
        "max": waits[-1] if waits else float("nan"),
        "step_ms_p50": statistics.median(s[1] for s in steps) * 1e3,
        "step_ms_max": max(s[1] for s in steps) * 1e3,
        "step_rt_mean": statistics.mean(s[0] for s in steps),
        "steps": len(steps),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="1000,10000")
    parser.add_argument("--arena", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)
    print("command: python -m bench.tournament_worker " + " ".join(sys.argv[1:]))
    with redis_server(appendonly=False) as server:
        app, _ = make_app("manhattan", server.url)
        kit: Games = app.extensions["game_kit"].games
        kit.settings["CLOCK_MIN_TURN_SECONDS"] = 1
        print("Swiss: closing round 3 and pairing round 4 (the step), then seating round 4")
        print(f"{'players':>8} {'code':>9} {'step ms':>8} {'step RTs':>9} {'tables':>7} "
              f"{'seating s':>10} {'seating RTs':>12}")  # fmt: skip
        for n in (int(x) for x in args.players.split(",")):
            for code in ([] if args.no_baseline else ["baseline"]) + ["cold", "now"]:
                f = swiss_figures(kit, n, code)
                seat = f"{f['seat_s']:>10.1f} {f['seat_rt']:>12.0f}" if code == "now" else ""
                print(f"{n:>8} {code:>9} {f['step_ms']:>8.0f} {f['step_rt']:>9.0f} "
                      f"{f['tables']:>7} {seat}")  # fmt: skip
                kit.store.client.flushdb()
        print(f"Arena of {args.arena}: from a game's end to the player's next seat, "
              f"{args.seconds:.0f} s")  # fmt: skip
        print(f"{'code':>9} {'seated':>7} {'p50 s':>6} {'p99 s':>6} {'max s':>6} "
              f"{'step ms p50':>12} {'step ms max':>12} {'step RTs':>9}")  # fmt: skip
        for baseline in ([True] if not args.no_baseline else []) + [False]:
            f = arena_figures(kit, args.arena, args.seconds, baseline)
            label = "baseline" if baseline else "now"
            print(f"{label:>9} {f['seated']:>7} {f['p50']:>6.2f} {f['p99']:>6.2f} "
                  f"{f['max']:>6.2f} {f['step_ms_p50']:>12.0f} {f['step_ms_max']:>12.0f} "
                  f"{f['step_rt_mean']:>9.1f}")  # fmt: skip
            kit.store.client.flushdb()


if __name__ == "__main__":
    main()

"""bench.ratings, the moves: round trips recorded by their command names, and rated
4-player games played through the real path (``POST /moves`` in-process) against the
same games unrated and with name-only seats."""

from __future__ import annotations

import collections
import contextlib
import random
import statistics
from collections.abc import Iterator
from typing import Any

from bench import common
from bench.players_measure import usec_by_command
from bench.roundtrips import commandstats

TOP_LEVEL = ("hgetall", "hmget", "hget", "mget", "evalsha", "zadd", "zrem", "script|exists")


# -- counting ------------------------------------------------------------------------------


def command_names(packed: bytes) -> list[str]:
    """The command names in one round trip's request bytes (RESP arrays of bulk strings,
    one per command of a pipeline)."""
    names = []
    at = 0
    while at < len(packed):
        end = packed.index(b"\r\n", at)
        count = int(packed[at + 1 : end])
        at = end + 2
        words = []
        for _ in range(count):
            end = packed.index(b"\r\n", at)
            size = int(packed[at + 1 : end])
            words.append(packed[end + 2 : end + 2 + size])
            at = end + 2 + size + 2
        name = words[0].decode().upper()
        if name == "SCRIPT" and len(words) > 1:
            name += " " + words[1].decode().upper()
        names.append(name)
    return names


class Recorder:
    """Every round trip this process sends to Redis while ``on`` (redis-py's
    ``send_packed_command`` and the store's lane, as tests/kit/helpers.py's
    ``sent_to_redis`` records them; a pipeline is one), as its command names."""

    def __init__(self) -> None:
        self.on = False
        self.trips: list[list[str]] = []

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        with common.each_send(self._record):
            yield

    def _record(self, packet: bytes) -> None:
        if self.on:
            self.trips.append(command_names(packet))

    @contextlib.contextmanager
    def window(self) -> Iterator[list[list[str]]]:
        """The round trips sent inside the ``with`` block."""
        self.trips = []
        self.on = True
        try:
            yield self.trips
        finally:
            self.on = False


def trip_text(trips: list[list[str]]) -> str:
    """Round trips as ``MGET | EVALSHA | HMGET ×4``."""
    out = []
    for names in trips:
        counts = collections.Counter(names)
        out.append(" ".join(f"{n} ×{c}" if c > 1 else n for n, c in counts.items()))
    return " | ".join(out)


# -- rated games through the real path ----------------------------------------------------


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(
    c: Any, client: Any, rec: Recorder, seed: int, mode: str, keys: list[str]
) -> list[dict[str, Any]]:
    """One 4-player Manhattan game (``seed``) played to its end by random legal moves
    chosen by ``Random(seed)``, seats ``mode``: "rated" (bound to the players of
    ``keys``), "unrated" (the same players, ``"rated": false``) or "names" (no player).
    Each POST's round trips, commands and Redis µs."""
    body: dict[str, Any] = {"players": 4, "seed": seed}
    if mode == "unrated":
        body["rated"] = False
    created = c.post("/games", json=body).get_json()
    game_id, host = created["id"], created["host_token"]
    tokens = []
    for s in range(4):
        if mode == "names":
            joined = c.post(f"/games/{game_id}/players", json={"name": f"n{s}"})
        else:
            joined = c.post(f"/games/{game_id}/players", json={}, headers=auth(keys[s]))
        tokens.append(joined.get_json()["token"])
    view = c.post(f"/games/{game_id}/start", headers=auth(host)).get_json()
    rng = random.Random(seed)
    posts = []
    while view["status"] == "running":
        seat = auth(tokens[view["to_act"][0]])
        legal = c.get(f"/games/{game_id}?include=legal_moves", headers=seat).get_json()
        move = rng.choice(legal["legal_moves"])
        before, usec0 = commandstats(client), usec_by_command(client)
        with rec.window() as trips:
            reply = c.post(f"/games/{game_id}/moves", json=move, headers=seat)
        delta = commandstats(client) - before
        delta.pop("info", None)
        spent = usec_by_command(client) - usec0
        assert reply.status_code == 200, reply.get_data(as_text=True)
        view = reply.get_json()["game"]
        posts.append(
            {
                "trips": [list(t) for t in trips],
                "mix": delta,
                "usec": sum(spent[name] for name in TOP_LEVEL),
                "ended": view["status"] != "running",
                "result": view.get("result"),
            }
        )
    return posts


def count_moves(app: Any, client: Any, rec: Recorder, games_n: int) -> dict[str, Any]:
    """``games_n`` games each rated, unrated (same players) and name-only, same seeds
    and moves; the non-ending moves compared pair by pair, the ending ones summed."""
    c = app.test_client()
    made = [c.post("/players", json={"name": f"Rated {n}"}).get_json() for n in range(4)]
    keys = [m["key"] for m in made]
    played: dict[str, list[list[dict[str, Any]]]] = {"rated": [], "unrated": [], "names": []}
    modes = list(played)
    for seed in range(games_n):
        for mode in modes[seed % 3 :] + modes[: seed % 3]:  # each first in turn
            played[mode].append(play(c, client, rec, 1000 + seed, mode, keys))
    out: dict[str, Any] = {"players": [m["id"] for m in made], "games": games_n}
    same_trips = same_cmds = pairs = 0
    differ: collections.Counter[str] = collections.Counter()
    for rated, unrated in zip(played["rated"], played["unrated"], strict=True):
        assert len(rated) == len(unrated), "the same seed and choices played another game"
        assert "ratings" in rated[-1]["result"] and "ratings" not in unrated[-1]["result"]
        for a, b in zip(rated[:-1], unrated[:-1], strict=True):
            pairs += 1
            same_trips += a["trips"] == b["trips"]
            no_expire_a = {k: v for k, v in a["mix"].items() if k != "expire"}
            no_expire_b = {k: v for k, v in b["mix"].items() if k != "expire"}
            same_cmds += no_expire_a == no_expire_b
            differ.update((a["mix"] - b["mix"]) + (b["mix"] - a["mix"]))
    out["pairs"] = {
        "moves": pairs,
        "same_round_trips": same_trips,
        "same_commands_but_expire": same_cmds,
        "differing_commands": dict(differ),
    }
    for mode, games in played.items():
        middle = [p for posts in games for p in posts[:-1]]
        ends = [posts[-1] for posts in games]
        out[mode] = {
            "moves": len(middle),
            "round_trips": statistics.mean(len(p["trips"]) for p in middle),
            "commands": statistics.mean(sum(p["mix"].values()) for p in middle),
            "expire": statistics.mean(p["mix"]["expire"] for p in middle),
            "usec": statistics.mean(p["usec"] for p in middle),
            "middle_trips": trip_text(middle[0]["trips"]),
            "end_round_trips": round(statistics.mean(len(p["trips"]) for p in ends), 2),
            "end_commands": round(statistics.mean(sum(p["mix"].values()) for p in ends), 1),
            "end_usec": statistics.mean(p["usec"] for p in ends),
            "end_trips": trip_text(ends[-1]["trips"]),
            "end_mix": dict(sum((p["mix"] for p in ends), collections.Counter())),
        }
    rated_mix = collections.Counter(out["rated"]["end_mix"])
    unrated_mix = collections.Counter(out["unrated"]["end_mix"])
    out["end_extra_mix"] = {
        k: round(v / games_n, 2) for k, v in sorted((rated_mix - unrated_mix).items())
    }
    out["end_fewer_mix"] = {
        k: round(v / games_n, 2) for k, v in sorted((unrated_mix - rated_mix).items())
    }
    return out

"""50 clients race on the same games with duplicate, stale and out-of-turn moves.

For ``RACE_SECONDS`` (default 12; ``RACE_SECONDS=60`` for the long run) 50 threads
hammer 10 Manhattan games under gunicorn (moves limited to 4/second per seat, so 429s
happen too). Each round a thread picks a game and one of: the game's current *intent*
(one legal move with one Idempotency-Key, shared by every thread that picks it:
duplicates), a legal move with a stale If-Match, a move by a seat not to act, or a
move with another game's token.
Afterwards: each key was applied at most once and every 200 for a key carried the same
answer; the moves list holds exactly one move per acknowledged key; every game is
consistent; every refusal is problem+json with an expected status and a stable code.
"""

from __future__ import annotations

import os
import random
import re
import threading
import time
import uuid
from collections import Counter, defaultdict
from typing import Any

import redis
import requests

from services.manhattan import rules as manhattan_rules
from tests.conftest import connect
from tests.reliability.conftest import Service, assert_consistent, stored
from tests.reliability.player import PROBLEM, Game, bearer, new_game

SECONDS = float(os.environ.get("RACE_SECONDS", "12"))
CLIENTS = 50
GAMES = 10
CODE = re.compile(r"^[a-z]+(-[a-z]+)*$")
EXPECTED = {
    "duplicate": {409, 412, 429},
    "stale": {412, 429},
    "out-of-turn": {409, 429},
    "foreign": {403, 429},
}


class Table:
    """The games and each game's current intent (version, seat, move, key)."""

    def __init__(self, games: list[Game]) -> None:
        self.games = games
        self.lock = threading.Lock()
        self.intents: dict[str, dict[str, Any]] = {}

    def intent(self, session: requests.Session, base: str, game: Game, rng: random.Random):
        r = session.get(f"{base}/games/{game.id}", timeout=10)
        view = r.json()
        if view["status"] != "running":
            return view, None
        with self.lock:
            current = self.intents.get(game.id)
            if current is not None and current["version"] == view["version"]:
                return view, current
        seat = view["to_act"][0]
        r = session.get(
            f"{base}/games/{game.id}/legal-moves", headers=bearer(game.tokens[seat]), timeout=10
        )
        moves = r.json()["moves"]
        if not moves:
            return view, None
        fresh = {
            "version": view["version"],
            "seat": seat,
            "move": rng.choice(moves),
            "key": uuid.uuid4().hex,
        }
        with self.lock:
            current = self.intents.get(game.id)
            if current is None or current["version"] < fresh["version"]:
                self.intents[game.id] = current = fresh
            return view, current


def test_fifty_clients_racing(redis_url: str) -> None:
    service = Service("manhattan", redis_url, workers=2, RATE_LIMIT_MOVES="4/second")
    try:
        _race(service.base, connect(redis_url))
    finally:
        service.stop()


def _race(base: str, store: redis.Redis) -> None:
    table = Table([new_game(requests.Session(), base) for _ in range(GAMES)])
    answers: dict[str, list[tuple[str, int, str]]] = defaultdict(list)  # key -> (game, v, body)
    refusals: Counter[tuple[str, int, str]] = Counter()
    problems: list[str] = []
    deadline = time.monotonic() + SECONDS

    def client(number: int) -> None:
        session, rng = requests.Session(), random.Random(number)
        try:
            while time.monotonic() < deadline:
                game = rng.choice(table.games)
                view, intent = table.intent(session, base, game, rng)
                if intent is None:
                    continue
                kind = rng.choice(["duplicate"] * 4 + ["stale", "out-of-turn", "foreign"])
                key, seat, headers = uuid.uuid4().hex, intent["seat"], {}
                token = game.tokens[seat]
                if kind == "duplicate":
                    key = intent["key"]
                    if rng.random() < 0.5:
                        headers["If-Match"] = f'"{intent["version"]}"'
                elif kind == "stale":
                    headers["If-Match"] = f'"{rng.randint(1, view["version"] - 1)}"'
                elif kind == "out-of-turn":
                    token = game.tokens[1 - seat]
                else:
                    other = next(g for g in table.games if g is not game)
                    token = other.tokens[seat]
                headers.update({**bearer(token), "Idempotency-Key": key})
                r = session.post(
                    f"{base}/games/{game.id}/moves",
                    json=intent["move"],
                    headers=headers,
                    timeout=30,
                )
                if r.status_code == 200:
                    answers[key].append((game.id, r.json()["game"]["version"], r.text))
                    continue
                body = r.json()
                refusals[(kind, r.status_code, body.get("code", ""))] += 1
                if (
                    r.status_code not in EXPECTED[kind]
                    or not r.headers["Content-Type"].startswith(PROBLEM)
                    or body.get("status") != r.status_code
                    or not CODE.match(body.get("code", ""))
                    or (r.status_code == 429) != ("Retry-After" in r.headers)
                ):
                    problems.append(f"{kind}: {r.status_code} {r.text[:300]}")
        except BaseException as error:  # reported below
            problems.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SECONDS + 60)
    assert not problems, problems[:5]

    # exactly once: one answer per key (repeated verbatim), one move per answered key
    applied: dict[str, list[int]] = defaultdict(list)
    for key, got in answers.items():
        assert len({body for _, _, body in got}) == 1, f"key {key} answered differently"
        game_id, version, _ = got[0]
        applied[game_id].append(version)
    for game in table.games:
        assert_consistent(store, "mh", manhattan_rules.ENGINE, game.id)
        _, moves, _ = stored(store, "mh", game.id)
        assert sorted(applied[game.id]) == [m["version"] for m in moves], game.id
    duplicates = sum(len(got) - 1 for got in answers.values())
    codes = {(kind, status, code) for kind, status, code in refusals}
    print(f"races: {len(answers)} moves, {duplicates} duplicate answers, refusals {dict(refusals)}")
    assert len(answers) >= 50 and duplicates >= 10
    assert ("stale", 412, "version-mismatch") in codes
    assert ("out-of-turn", 409, "not-your-turn") in codes
    assert ("foreign", 403, "invalid-token") in codes
    assert any(status == 429 and code == "rate-limited" for _, status, code in codes)

"""A minimal HTTP player for fault tests: create, join, start, and move with retries."""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

PROBLEM = "application/problem+json"
# The connection died (before or in the middle of the answer): the request may or may
# not have been applied, so the client retries it with the same Idempotency-Key.
TRANSPORT_ERRORS = (requests.ConnectionError, requests.exceptions.ChunkedEncodingError)


@dataclass
class Game:
    id: str
    host: str
    tokens: list[str]
    acked: list[dict[str, Any]] = field(default_factory=list)  # {version, seat, move, key}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(session: requests.Session, base: str, players: int = 2) -> Game:
    r = session.post(f"{base}/games", json={"players": players}, timeout=10)
    assert r.status_code == 201, r.text
    game_id, host = r.json()["id"], r.json()["host_token"]
    tokens = []
    for i in range(players):
        r = session.post(f"{base}/games/{game_id}/players", json={"name": f"p{i}"}, timeout=10)
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = session.post(f"{base}/games/{game_id}/start", headers=bearer(host), timeout=10)
    assert r.status_code == 200, r.text
    return Game(game_id, host, tokens)


def next_move(
    session: requests.Session, base: str, game: Game, rng: random.Random
) -> tuple[int, dict[str, Any]] | None:
    """(seat, a legal move) of a seat to act now; ``None`` once the game is over."""
    r = session.get(f"{base}/games/{game.id}", timeout=10)
    r.raise_for_status()
    view = r.json()
    if view["status"] != "running":
        return None
    seat = view["to_act"][0]
    r = session.get(
        f"{base}/games/{game.id}/legal-moves", headers=bearer(game.tokens[seat]), timeout=10
    )
    r.raise_for_status()
    moves = r.json()["moves"]
    return (seat, rng.choice(moves)) if moves else None


def send_until_answered(
    session: requests.Session,
    base: str,
    game: Game,
    seat: int,
    move: dict[str, Any],
    deadline: float,
    key: str | None = None,
) -> requests.Response:
    """POST the move with one Idempotency-Key, retrying connection errors and 503s
    (the first answer may have been lost) until a final answer or ``deadline``."""
    key = key or uuid.uuid4().hex
    headers = {**bearer(game.tokens[seat]), "Idempotency-Key": key}
    while True:
        try:
            r = session.post(
                f"{base}/games/{game.id}/moves", json=move, headers=headers, timeout=10
            )
            if r.status_code != 503:
                if r.status_code == 200:
                    game.acked.append(
                        {
                            "version": r.json()["game"]["version"],
                            "seat": seat,
                            "move": move,
                            "key": key,
                        }
                    )
                return r
            assert r.headers.get("Content-Type", "").startswith(PROBLEM)
            assert r.headers.get("Retry-After")
        except TRANSPORT_ERRORS:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"no answer for move {key} before the deadline")
        time.sleep(0.1)

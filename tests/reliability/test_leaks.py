"""A sweep for leaks: games of both kinds played to the end (or a bound) with three seats
and a spectator; every response body and every event each of them receives is checked
for what they may not see, against the game's raw document read from Redis:

- any token (the join/create answer is the one place a token appears) or token hash;
- the seed while the game runs, the RNG state, the deck order (and Manhattan's promo
  deck order);
- another seat's hand (Manhattan), the drawn card or secret plan of the active seat
  (Wind City) before the turn is revealed.

A game with a spectator delay (issue 41) is swept too: its spectator reads the game as
it was 3 moves ago, and is checked against that game (each document the delay keeps)
as well as the current one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from shared.store import load_doc
from tests.kit.helpers import auth

MAX_MOVES = 160


def _walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, (*path, i))


class Sweep:
    def __init__(self, app: Flask, store: redis.Redis, prefix: str) -> None:
        self.client = app.test_client()
        self.store = store
        self.prefix = prefix
        self.tokens: list[str] = []
        self.hashes: list[str] = []
        self.checked = 0

    def raw(self, game_id: str) -> dict[str, Any]:
        return load_doc(str(self.store.get(f"{self.prefix}:{{{game_id}}}:game")))

    def delayed_raw(self, game_id: str) -> list[dict[str, Any]]:
        """The documents a delayed game keeps for its spectators (its ring)."""
        return [
            load_doc(str(raw))
            for raw in self.store.lrange(f"{self.prefix}:{{{game_id}}}:watch", 0, -1)
        ]

    def check(self, body: Any, game_id: str, viewer: int | None, where: str) -> None:
        """Nothing in ``body`` that ``viewer`` (a seat, or None: a spectator) may not see,
        in the game now nor, for a spectator, in any state the delay keeps for it."""
        docs = [self.raw(game_id)]
        if viewer is None:
            docs += self.delayed_raw(game_id)
        self.checked += 1
        for doc in docs:
            self._check_against(doc, body, viewer, where)

    def _check_against(
        self, doc: dict[str, Any], body: Any, viewer: int | None, where: str
    ) -> None:
        state = doc["state"] or {}
        text = json.dumps(body)
        for secret in self.tokens + self.hashes + [h[:32] for h in self.hashes]:
            assert secret not in text, f"{where}: a token or token hash"
        hidden_ints = {state.get("rng")} - {None}
        if doc["status"] == "running":
            hidden_ints.add(doc["seed"])
        hidden_lists = [list(state[k]) for k in ("deck", "pdeck") if len(state.get(k) or []) > 1]
        own = None
        if "hands" in state:  # Manhattan: another seat's hand
            own = state["hands"][viewer] if viewer is not None else None
            hidden_lists += [
                h for s, h in enumerate(state["hands"]) if s != viewer and len(h) > 1 and h != own
            ]
        for path, value in _walk(body):
            if isinstance(value, int) and not isinstance(value, bool):
                assert value not in hidden_ints, f"{where}: seed or RNG state at {path}"
            elif isinstance(value, list) and len(value) > 1:
                assert value not in hidden_lists, f"{where}: deck or another hand at {path}"
        # Wind City: the drawn card and the plan are the active seat's until revealed
        if state.get("card") is not None and viewer != state.get("active"):
            for path, value in _walk(body):
                if path and path[-1] in ("card", "plan") and "events" not in path:
                    assert value is None, f"{where}: the active seat's {path[-1]} at {path}"
            for event in _events_in(body):
                assert not (event.get("type") != "turn_revealed" and "card" in event), where

    def get(self, path: str, token: str | None) -> Any:
        r = self.client.get(path, headers=auth(token) if token else {})
        assert r.status_code == 200, (path, r.get_json())
        return r.get_json()


def _events_in(body: Any) -> list[dict[str, Any]]:
    events = body.get("events") if isinstance(body, dict) else None
    return events if isinstance(events, list) else []


def _sweep_game(
    sweep: Sweep, seed: int, players: int, rng: random.Random, delay: int = 0, most: int = MAX_MOVES
) -> int:
    client = sweep.client
    r = client.post("/games", json={"players": players, "seed": seed, "spectator_delay": delay})
    game_id, host = r.get_json()["id"], r.get_json()["host_token"]
    sweep.tokens.append(host)
    tokens = []
    for i in range(players):
        r = client.post(f"/games/{game_id}/players", json={"name": f"p{i}"})
        tokens.append(r.get_json()["token"])
    sweep.tokens += tokens
    sweep.hashes = [p["token_hash"] for p in sweep.raw(game_id)["players"]]
    sweep.hashes.append(sweep.raw(game_id)["host"])
    r = client.post(f"/games/{game_id}/start", headers=auth(host))
    sweep.check(r.get_json(), game_id, None, "start")
    viewers: list[tuple[int | None, str | None]] = [*enumerate(tokens), (None, None)]
    last_event = dict.fromkeys(range(-1, players), "0")
    moves = 0
    base = f"/games/{game_id}"
    while moves < most:
        for seat, token in viewers:
            for path in ("", "/score", "/log") + (("/legal-moves",) if token else ()):
                sweep.check(sweep.get(base + path, token), game_id, seat, f"GET {path} as {seat}")
            key = -1 if seat is None else seat
            events = sweep.get(f"{base}/events?after={last_event[key]}", token)
            sweep.check(events, game_id, seat, f"events as {seat}")
            last_event[key] = events["last_id"]
        view = sweep.get(base, None)
        if view["status"] != "running":
            break
        live = sweep.get(base, host)  # the host reads it live
        if delay and moves >= delay:  # the spectator reads behind the game
            assert view["version"] < live["version"]
        seat = live["to_act"][0]
        legal = sweep.get(f"{base}/legal-moves", tokens[seat])["moves"]
        r = client.post(f"{base}/moves", json=rng.choice(legal), headers=auth(tokens[seat]))
        assert r.status_code == 200, r.get_json()
        sweep.check(r.get_json(), game_id, seat, "move answer")
        moves += 1
    return moves


@pytest.mark.parametrize(("game", "prefix"), [("manhattan", "mh"), ("windcity", "wc")])
def test_no_response_or_event_leaks(
    make_app: Callable[..., Flask], redis_client: redis.Redis, game: str, prefix: str
) -> None:
    sweep = Sweep(make_app(game), redis_client, prefix)
    rng = random.Random(11)
    # large seeds, as real ones are: a small one would match ordinary numbers
    played = [_sweep_game(sweep, 2**40 + rng.getrandbits(60), 3, rng) for _ in range(2)]
    assert sum(played) >= 100 and sweep.checked >= 1000, (played, sweep.checked)


@pytest.mark.parametrize(("game", "prefix"), [("manhattan", "mh"), ("windcity", "wc")])
def test_a_delayed_spectator_sees_no_hidden_information(
    make_app: Callable[..., Flask], redis_client: redis.Redis, game: str, prefix: str
) -> None:
    sweep = Sweep(make_app(game), redis_client, prefix)
    rng = random.Random(12)
    played = _sweep_game(sweep, 2**40 + rng.getrandbits(60), 3, rng, delay=3, most=60)
    assert played >= 30 and sweep.checked >= 500, (played, sweep.checked)

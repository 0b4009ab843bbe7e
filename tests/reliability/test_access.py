"""Tokens: 256-bit, shown once, stored only as SHA-256, acting for one seat of one game;
only the host token starts or cancels."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import redis

from tests.kit.helpers import assert_problem, auth, started_game, stored_text, view


def _token_bits(token: str) -> int:
    return len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8


def test_a_token_acts_for_its_own_seat_in_its_own_game(manhattan_client: Any) -> None:
    client = manhattan_client
    game_id, host, tokens = started_game(client, 2)
    other_id, other_host, other_tokens = started_game(client, 2)
    acting = view(client, game_id)["to_act"][0]
    waiting = 1 - acting
    move = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[acting])).get_json()[
        "moves"
    ][0]
    path = f"/games/{game_id}/moves"
    # the waiting seat cannot play the acting seat's move: a token is its seat, nothing else
    assert_problem(
        client.post(path, json=move, headers=auth(tokens[waiting])), 409, "not-your-turn"
    )
    # a seat's token of another game, or a made-up one, is not valid here
    for token in (*other_tokens, other_host, "x" * 43):
        assert_problem(client.post(path, json=move, headers=auth(token)), 403, "invalid-token")
        r = client.get(f"/games/{game_id}/legal-moves", headers=auth(token))
        assert_problem(r, 403, "invalid-token")
        assert_problem(client.get(f"/games/{game_id}", headers=auth(token)), 403, "invalid-token")
    # the host token is no seat
    assert_problem(client.post(path, json=move, headers=auth(host)), 403, "seat-token-required")
    assert_problem(client.post(path, json=move), 401, "missing-token")
    assert view(client, game_id, tokens[waiting])["you"] == waiting
    assert view(client, game_id)["version"] == view(client, game_id, host)["version"]
    r = client.post(path, json=move, headers=auth(tokens[acting]))
    assert r.status_code == 200


def test_only_the_host_token_starts_or_cancels(manhattan_client: Any) -> None:
    client = manhattan_client
    game_id = client.post("/games", json={"players": 2}).get_json()
    game_id, host = game_id["id"], game_id["host_token"]
    seats = [
        client.post(f"/games/{game_id}/players", json={"name": n}).get_json()["token"]
        for n in ("ann", "bob")
    ]
    _, other_host, _ = started_game(client, 2)
    for path, method in ((f"/games/{game_id}/start", "post"), (f"/games/{game_id}", "delete")):
        call = getattr(client, method)
        assert_problem(call(path, headers=auth(seats[0])), 403, "host-token-required")
        assert_problem(call(path, headers=auth(other_host)), 403, "invalid-token")
        assert_problem(call(path), 401, "missing-token")
    assert view(client, game_id)["status"] == "open"
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    assert_problem(
        client.delete(f"/games/{game_id}", headers=auth(seats[1])), 403, "host-token-required"
    )
    assert client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200


def test_tokens_are_long_random_shown_once_and_stored_hashed(
    windcity_client: Any, redis_client: redis.Redis
) -> None:
    client = windcity_client
    issued = []
    game_ids = []
    for _ in range(10):
        game_id, host, tokens = started_game(client, 3)
        issued += [host, *tokens]
        game_ids.append(game_id)
    assert len(set(issued)) == len(issued)
    assert min(_token_bits(t) for t in issued) >= 128
    # nothing served after the join shows a token again
    for game_id in game_ids:
        for token in (None, *issued[:4]):
            headers = auth(token) if token and game_id == game_ids[0] else {}
            for path in ("", "/score", "/log", "/events", "/legal-moves"):
                r = client.get(f"/games/{game_id}{path}", headers=headers)
                text = r.get_data(as_text=True)
                assert not any(t in text for t in issued), path
    text = client.get("/games?limit=100").get_data(as_text=True)
    assert not any(t in text for t in issued)
    # Redis holds hashes only: no raw token anywhere, each token's SHA-256 in its game
    dump: list[Any] = []
    for key in redis_client.scan_iter("*"):
        kind = redis_client.type(key)
        if kind == "string":
            dump.append(stored_text(redis_client, key))
        elif kind == "list":
            dump += redis_client.lrange(key, 0, -1)
        elif kind == "hash":
            dump += [f"{k!s}={v!s}" for k, v in redis_client.hgetall(key).items()]
        elif kind == "stream":
            dump += [str(fields) for _, fields in redis_client.xrange(key)]
        elif kind == "zset":
            dump += redis_client.zrange(key, 0, -1)
    blob = "\n".join(map(str, dump))
    assert not any(t in blob for t in issued)
    assert all(hashlib.sha256(t.encode()).hexdigest() in blob for t in issued)

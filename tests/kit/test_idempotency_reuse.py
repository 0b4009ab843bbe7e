"""An Idempotency-Key names one move: reused by the same token for another move it is
``422 idempotency-key-reused`` and nothing changes (the record keeps a digest of the
move, as Stripe does; here: the move itself, in the game's history)."""

from __future__ import annotations

import json

import pytest

from shared.store import load_doc
from tests.kit.helpers import assert_problem, post_move, started_game, view


def _counts(redis_client, game_id: str) -> tuple[str, ...]:
    """Everything stored for the game: document, last event, history tail and archive."""
    base = f"toy:{{{game_id}}}"
    last = redis_client.xrevrange(f"{base}:events", count=1)
    return (
        redis_client.get(f"{base}:game"),
        str(last),
        redis_client.get(f"{base}:tail"),
        redis_client.get(f"{base}:hist"),
    )


@pytest.fixture
def first_move(toy_client):
    """A running game whose caller made ``call 2`` with the key ``k``."""
    game_id, _, tokens = started_game(toy_client, 3)
    caller = view(toy_client, game_id)["to_act"][0]
    token = tokens[caller]
    first = post_move(
        toy_client, game_id, token, {"type": "call", "value": 2}, **{"Idempotency-Key": "k"}
    )
    assert first.status_code == 200
    return game_id, token, first


@pytest.mark.parametrize(
    "other",
    [
        {"type": "call", "value": 3},  # another value
        {"type": "pick", "value": 2},  # another kind of move
    ],
)
def test_another_move_under_a_used_key_is_422_and_changes_nothing(
    toy_client, redis_client, first_move, other
):
    game_id, token, first = first_move
    before = _counts(redis_client, game_id)
    r = post_move(toy_client, game_id, token, other, **{"Idempotency-Key": "k"})
    body = assert_problem(r, 422, "idempotency-key-reused")
    assert "another move" in body["detail"]
    assert _counts(redis_client, game_id) == before
    # the key still answers its own move with the first answer
    again = post_move(
        toy_client, game_id, token, {"value": 2, "type": "call"}, **{"Idempotency-Key": "k"}
    )
    assert again.status_code == 200 and again.get_data() == first.get_data()


def test_reuse_is_caught_after_a_lost_race(toy_app, toy_client, redis_client):
    """Two requests racing with one key: the second read the game before the first
    wrote, so it decides on the old game; the write script's version check refuses it
    and sends the current game back, where the key's record is found: the same 422."""
    game_id, _, tokens = started_game(toy_client, 3)
    token = tokens[view(toy_client, game_id)["to_act"][0]]
    old = load_doc(redis_client.get(f"toy:{{{game_id}}}:game"))
    key = {"Idempotency-Key": "k"}
    first = post_move(toy_client, game_id, token, {"type": "call", "value": 2}, **key)
    assert first.status_code == 200
    store = toy_app.extensions["game_kit"].games.store
    read_counted = store.read_counted

    reads = []

    def stale(game, with_tail, *args, **kwargs):  # what a racing request read first
        doc, tail, count, key = read_counted(game, with_tail, *args, **kwargs)
        reads.append(game)
        if len(reads) == 1:
            return json.loads(json.dumps(old)), old_tail, count, key
        return doc, tail, count, key

    old_tail = redis_client.get(f"toy:{{{game_id}}}:tail").rsplit("\n", 1)[0]

    store.read_counted = stale
    before = _counts(redis_client, game_id)
    r = post_move(toy_client, game_id, token, {"type": "call", "value": 3}, **key)
    assert_problem(r, 422, "idempotency-key-reused")
    assert _counts(redis_client, game_id) == before
    assert reads == [game_id]  # the stale read lost the compare-and-set: no second read
    store.read_counted = read_counted
    same = post_move(toy_client, game_id, token, {"type": "call", "value": 2}, **key)
    assert same.status_code == 200 and same.get_data() == first.get_data()

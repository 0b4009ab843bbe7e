"""Writes decided on a process's copy of a game, without reading it first
(shared/store/recent_copies.py): two apps on one Redis stand for two worker processes, so each
one's copy is overtaken by the other's writes."""

from __future__ import annotations

import time

from prometheus_client import REGISTRY

from tests.kit.helpers import assert_problem, auth, post_move, sent_to_redis, started_game, view

PICK = {"type": "pick", "value": 2}


def _commands(packed: list[bytes]) -> list[bytes]:
    return [c.split(b"\r\n")[2] for c in packed]


def _copy_writes(outcome: str) -> float:
    found = REGISTRY.get_sample_value(
        "boardgames_writes_from_copy_total", {"game": "toy", "outcome": outcome}
    )
    return found or 0.0


def _two(make_app, **config):
    """Two 'processes' of one service; the game is started through the first."""
    one, two = make_app("toy", **config), make_app("toy", **config)
    a, b = one.test_client(), two.test_client()
    game_id, _, tokens = started_game(a, 3)
    caller = view(a, game_id)["to_act"][0]
    assert post_move(a, game_id, tokens[caller], {"type": "call", "value": 2}).status_code == 200
    for app in (one, two):  # scripts loaded: EVALSHA runs at the first try
        store = app.extensions["game_kit"].games.store
        store._write.sha = store.client.script_load(store._write.script)
    return a, b, game_id, tokens


def test_an_overtaken_copy_is_decided_again_on_the_game_the_script_sends_back(make_app):
    a, b, game_id, tokens = _two(make_app)
    assert post_move(a, game_id, tokens[0], PICK).status_code == 200  # a's copy: 1, 2 to act
    assert post_move(b, game_id, tokens[1], PICK).status_code == 200  # now only 2
    before = view(b, game_id)["version"]
    stale, landed = _copy_writes("stale"), _copy_writes("landed")
    with sent_to_redis() as packed:
        r = post_move(a, game_id, tokens[2], PICK)  # legal on a's copy too, but decided again
    assert r.status_code == 200
    assert _commands(packed)[:2] == [b"EVALSHA", b"EVALSHA"]  # refused, then written: no read
    game = r.get_json()["game"]
    assert game["version"] == before + 1 == view(b, game_id)["version"]
    assert [e["type"] for e in r.get_json()["events"]][-1] == "round_resolved"  # all 3 picked
    assert _copy_writes("stale") == stale + 1 and _copy_writes("landed") == landed


def test_a_refusal_on_an_overtaken_copy_is_reached_again_on_the_current_game(make_app):
    a, b, game_id, tokens = _two(make_app)
    assert post_move(a, game_id, tokens[0], PICK).status_code == 200
    assert post_move(b, game_id, tokens[1], PICK).status_code == 200
    version = view(b, game_id)["version"]
    # seat 1 again: legal on a's copy (it has not picked there), refused on the game
    r = post_move(a, game_id, tokens[1], PICK)
    assert_problem(r, 409, "not-your-turn")
    assert view(b, game_id)["version"] == version
    # the other way round: refused on b's copy (call phase there), legal on the game
    assert post_move(a, game_id, tokens[2], PICK).status_code == 200  # round resolved by a
    caller = view(a, game_id)["to_act"][0]
    with sent_to_redis() as packed:
        r = post_move(b, game_id, tokens[caller], {"type": "call", "value": 1})
    assert r.status_code == 200, r.get_json()
    assert _commands(packed)[:2] == [b"MGET", b"EVALSHA"]  # refused on the copy: read


def test_a_keyed_retry_is_answered_from_the_current_game(make_app):
    a, b, game_id, tokens = _two(make_app)
    key = {"Idempotency-Key": "k1"}
    first = post_move(a, game_id, tokens[0], PICK, **key)
    assert first.status_code == 200
    assert post_move(b, game_id, tokens[1], PICK).status_code == 200
    again = post_move(a, game_id, tokens[0], PICK, **key)  # found on a's copy: not trusted
    assert again.status_code == 200 and again.get_data() == first.get_data()
    reused = post_move(a, game_id, tokens[0], {"type": "pick", "value": 3}, **key)
    assert_problem(reused, 422, "idempotency-key-reused")


def test_copies_are_kept_for_write_from_copy_seconds(make_app):
    for seconds, wait, expected in ((0, 0, b"MGET"), (0.05, 0.1, b"MGET"), (5, 0, b"EVALSHA")):
        app = make_app("toy", WRITE_FROM_COPY_SECONDS=seconds)
        client = app.test_client()
        game_id, _, tokens = started_game(client, 2)
        store = app.extensions["game_kit"].games.store
        store._write.sha = store.client.script_load(store._write.script)
        seat = view(client, game_id)["to_act"][0]
        time.sleep(wait)
        with sent_to_redis() as packed:
            r = post_move(client, game_id, tokens[seat], {"type": "call", "value": 1})
        assert r.status_code == 200
        assert _commands(packed)[0] == expected, (seconds, wait)


def test_a_deleted_game_is_not_written_from_a_copy(make_app):
    app = make_app("toy")
    client = app.test_client()
    game_id, host, tokens = started_game(client, 2)
    seat = view(client, game_id)["to_act"][0]
    assert client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200
    app.extensions["game_kit"].games.store.client.delete(f"toy:{{{game_id}}}:game")
    r = post_move(client, game_id, tokens[seat], {"type": "call", "value": 1})
    assert_problem(r, 404, "game-not-found")

"""The worker's fair share between clients (shared/store/schedule.py): one client's flood
of all-bot games must not hold up another client's bot moves.

Before, every game sat in one earliest-due-first schedule and the worker played each game
it claimed up to 25 moves in a row: 400 all-bot games of one client made another
client's bot move wait 1.6-3.8 s. Now each claim takes at most ``WORKER_CLIENT_BATCH``
games of one client, and the worker plays the clients in turn, one move each.
"""

from __future__ import annotations

import time
from typing import Any

from services.manhattan.app import create_app
from shared.games import history
from shared.games.tokens import hash_token
from shared.store import Claim, client_of
from shared.usecases import seat_ops
from tests.worker.helpers import new_game

FLOOD_GAMES = 250
FLOODER = "addr:192.0.2.7"  # as the HTTP layer names a client without an API key


def _kit(redis_url: str) -> Any:
    return create_app({"REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"}).extensions["game_kit"].games


def _all_bot_game(kit: Any, owner: str, seed: int) -> str:
    doc, host, _ = kit.lifecycle.create({"players": 4, "seed": seed}, owner)
    for _ in range(4):
        seat_ops.add_bot(kit, doc["id"], hash_token(host), "random", None, None)
    kit.lifecycle.start(doc["id"], hash_token(host))
    return str(doc["id"])


def _bot_lags(kit: Any, game_id: str) -> list[int]:
    """The lag (ms) of each bot move: from the write before it to its own."""
    _, _, tail, hist = kit.store.keys(game_id)
    records = history.stored(kit.store.client.get(tail), kit.store.client.get(hist))
    return [
        record[1] - before[1]
        for before, record in zip(records, records[1:], strict=False)
        if history.is_move(record) and record[2] != 0
    ]


def test_another_clients_bot_moves_stay_prompt_under_a_flood(
    clock_manhattan, workers, redis_url, redis_client
):
    """One client (an address) floods the worker with 250 all-bot games; another plays a
    game against a bot over HTTP: every one of that bot's moves comes within 1 s of the
    human's (the old schedule: several seconds), while the flood keeps going."""
    kit = _kit(redis_url)
    workers.start()
    flood = [_all_bot_game(kit, FLOODER, n) for n in range(FLOOD_GAMES)]
    gid, host, (ann,) = new_game("manhattan", clock_manhattan, ["ann"], ["random"])
    host.start(gid)
    assert client_of(kit.writes.load(gid)) == "addr:127.0.0.1"  # the HTTP client's own address
    moves = 0
    deadline = time.monotonic() + 30
    while moves < 8 and time.monotonic() < deadline:
        view = ann.view(gid)
        if view["status"] != "running":
            break
        if 0 not in view["to_act"]:  # the bot is to play: wait for its move
            ann.events(gid, after=view["version"], wait=5)
            continue
        ann.move(gid, ann.legal_moves(gid)[0])
        moves += 1
    for _ in range(100):  # the bot's answer to the last move
        if 0 in ann.view(gid)["to_act"] or ann.view(gid)["status"] != "running":
            break
        time.sleep(0.05)
    lags = _bot_lags(kit, gid)
    still_running = sum(1 for g in flood if kit.writes.load(g)["status"] == "running")
    assert moves >= 6, moves
    assert len(lags) >= moves, lags
    assert max(lags) < 1000, f"the other client's bot moves came {sorted(lags)} ms late"
    assert still_running > FLOOD_GAMES // 2, "the flood ended before it was measured"
    played = sum(len(_bot_lags(kit, g)) for g in flood)
    assert played > 1000, "the worker was not busy with the flood"


# -- the schedule itself (one Redis or a Cluster) -------------------------------------------


def test_a_claim_takes_a_few_games_of_each_client_oldest_client_first(make_app):
    store = make_app("manhattan").extensions["game_kit"].games.store
    now = int(time.time() * 1000)
    for n in range(40):  # one client with 40 due games, the oldest due long ago
        store.lower_due("flooder", f"f{n:02d}", now - 60_000 + n)
    store.lower_due("other", "o1", now - 10)
    store.lower_due("other", "o2", now + 60_000)  # not due yet
    claims = store.claim_all_due(now, 5_000, 50, 4)
    by_client: dict[str, list[str]] = {}
    for claim in claims:
        by_client.setdefault(claim.client, []).append(claim.game_id)
    assert by_client == {"flooder": ["f00", "f01", "f02", "f03"], "other": ["o1"]}
    assert {c.score for c in claims} == {now + 5_000}  # leased: other workers skip them
    assert store.due_score("f00", "flooder") == now + 5_000
    again = store.claim_all_due(now, 5_000, 50, 4)
    assert [c.game_id for c in again] == ["f04", "f05", "f06", "f07"]  # the next four


def test_a_game_put_back_keeps_a_write_that_moved_it(make_app):
    store = make_app("manhattan").extensions["game_kit"].games.store
    now = int(time.time() * 1000)
    store.lower_due("c", "g1", now - 1)
    store.lower_due("c", "g2", now - 1)
    first, second = store.claim_all_due(now, 5_000, 50, 4)
    store.lower_due("c", "g2", now + 100)  # a write moved g2 meanwhile
    assert store.reschedule(first, now + 9_000)
    assert not store.reschedule(second, now + 9_000)  # the write's due time wins
    assert store.due_score("g1", "c") == now + 9_000
    assert store.due_score("g2", "c") == now + 100
    assert store.reschedule(Claim("c", "g1", now + 9_000, first.shard), None)  # dropped
    assert store.due_score("g1", "c") is None


def test_a_client_with_nothing_due_leaves_the_index(make_app, redis_client):
    """The index may say a client is due when it no longer is (a write raised or dropped
    its game's due time): a claim finds nothing and sets the client's entry right."""
    store = make_app("manhattan").extensions["game_kit"].games.store
    now = int(time.time() * 1000)
    store.lower_due("c", "g1", now - 1)
    key, index = store.schedule_keys("c")
    redis_client.zadd(key, {"g1": now + 60_000})  # raised by a write (ZADD, not LT)
    assert redis_client.zscore(index, "c") == now - 1
    assert store.claim_all_due(now, 5_000, 50, 4) == []
    assert redis_client.zscore(index, "c") == now + 60_000
    redis_client.zrem(key, "g1")
    assert store.claim_all_due(now + 60_000, 5_000, 50, 4) == []
    assert redis_client.zscore(index, "c") is None


def test_the_old_schedule_is_moved_to_the_games_clients(make_app, redis_client):
    """Entries of the schedule earlier code kept (``<p>:due:{k}``, every client's) are
    still played, then put under the game's own client."""
    kit = make_app("manhattan").extensions["game_kit"].games
    store = kit.store
    doc, _, _ = kit.lifecycle.create({"players": 2}, "key-1")
    now = int(time.time() * 1000)
    shard = 3
    redis_client.zadd(store.old_shard_key(shard), {doc["id"]: now - 5})
    claims = store.claim_all_due(now, 5_000, 50, 4)
    assert [(c.client, c.game_id, c.shard) for c in claims] == [("", doc["id"], shard)]
    assert redis_client.exists(store.old_shard_key(shard)) == 0
    assert store.reschedule(claims[0], now + 1_000, client_of(doc))
    assert redis_client.exists(store.client_key(shard, "")) == 0
    assert store.due_score(doc["id"], "key-1") == now + 1_000
    # a game without an owner goes to client "" of its own shard
    doc, _, _ = kit.lifecycle.create({"players": 2})
    redis_client.zadd(store.old_shard_key(shard), {doc["id"]: now - 5})
    (claim,) = store.claim_all_due(now, 5_000, 50, 4)
    assert store.reschedule(claim, now + 2_000, client_of(doc))
    assert store.due_score(doc["id"], "") == now + 2_000
    assert redis_client.exists(store.client_key(shard, "")) == 0

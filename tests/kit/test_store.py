"""The store's compare-and-set script, the round trips of a move, and the store as the
bottom layer: it answers a reader behind its capped stream with the history, for the
games layer to rebuild the events from. (That it imports no layer above it is a
contract in pyproject.toml, checked by ``lint-imports``.)"""

from __future__ import annotations

from shared.games.audience import ANYONE
from shared.store import History, HistoryWrite, load_doc, position
from shared.streaming.events import read_events
from tests.kit.helpers import auth, post_move, sent_to_redis, started_game, view


def games_of(app):
    return app.extensions["game_kit"].games


def store_of(app):
    return app.extensions["game_kit"].games.store


def test_a_refused_write_changes_nothing(toy_app, toy_client, redis_client):
    game_id, _, _ = started_game(toy_client, 2)
    store = store_of(toy_app)
    doc, _ = store.read(game_id)
    keys = store.keys(game_id)
    before = {k: redis_client.dump(k) for k in keys}
    new = {**doc, "version": doc["version"] + 1, "status": "finished"}
    event = {"type": "x", "version": new["version"], "id": f"{new['version']}-0"}
    history = HistoryWrite("", "d", "chunk\n", "!30")
    # stale expected version: conflict, and not one key touched
    result = store.write(new, doc["version"] - 1, [event], 60, history)
    assert result.outcome == "conflict" and result.record == str(doc["version"])
    assert {k: redis_client.dump(k) for k in keys} == before
    # creating over an existing game is a conflict too
    assert store.write(new, 0, [event], 60, history).outcome == "conflict"
    assert store.write({**new, "id": "missing0"}, 3, [], 60, history).outcome == "missing"
    # the right version writes everything at once: the stream trimmed to the new
    # version's events, the tail gone, the chunk appended to the archive
    assert store.write(new, doc["version"], [event], 60, history).outcome == "ok"
    assert load_doc(redis_client.get(keys[0]))["status"] == "finished"
    assert [i for i, _ in redis_client.xrange(keys[1])] == [event["id"]]
    assert redis_client.get(keys[2]) is None
    assert redis_client.get(keys[3]).endswith("chunk\n")
    assert all(0 < redis_client.ttl(k) <= 60 for k in (keys[0], keys[3]))
    assert 0 < redis_client.ttl(keys[1]) <= 30  # an ended game's stream: soon gone


def test_a_move_takes_two_round_trips(toy_app, toy_client, monkeypatch):
    """A read (the document and the tail, one MGET) and the write script: two round
    trips, every move."""
    game_id, _, tokens = started_game(toy_client, 2)
    client = toy_app.test_client()
    client.get("/healthz")
    store = store_of(toy_app)
    store._write.sha = store.client.script_load(store._write.script)
    for n, expected in enumerate(([b"MGET", b"EVALSHA"], [b"MGET", b"EVALSHA"])):
        token = tokens[view(toy_client, game_id)["to_act"][0]]
        move = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json["moves"][0]
        with sent_to_redis() as packed:
            r = client.post(
                f"/games/{game_id}/moves",
                json=move,
                headers={**auth(token), "Idempotency-Key": f"rt-{n}"},
            )
        assert r.status_code == 200
        assert [c.split(b"\r\n")[2] for c in packed] == expected
        assert b":game" in packed[0] and b":tail" in packed[0]


def test_every_keyed_move_of_a_long_game_is_one_write(make_app, monkeypatch):
    """Rollovers (the tail compressed into the archive) ride in the move's own write:
    every POST is one MGET (the game and its tail) and one EVALSHA. A retry of an old key
    costs at most two round trips more (the game and the archive), whether its record
    is archived or in the tail."""
    app = make_app("toy", HISTORY_CHUNK_RECORDS=4, HISTORY_STREAM_WRITES=2)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 3, rounds=10)
    store = store_of(app)
    store._write.sha = store.client.script_load(store._write.script)
    posted: list[tuple] = []
    with sent_to_redis() as sent:
        while True:
            game = view(client, game_id)
            if game["status"] != "running":
                break
            seat = game["to_act"][0]
            moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
            move = moves.get_json()["moves"][0]
            key = f"k{len(posted)}"
            sent.clear()
            r = client.post(
                f"/games/{game_id}/moves",
                json=move,
                headers={**auth(tokens[seat]), "Idempotency-Key": key},
            )
            assert r.status_code == 200
            ended = r.get_json()["game"]["status"] != "running"
            packed = list(sent)
            # the read and the write; the end also updates the status sets (in other
            # slots: on Cluster one per node)
            assert b"MGET" in packed[0] and b"EVALSHA" in packed[1], key
            assert len(sent) == 2 or ended and all(b":status:" in c for c in packed[2:]), key
            posted.append((key, seat, move, r.get_data()))
            if len(posted) == 12:  # in progress: the oldest key is archived, the newest not
                for key, seat, move, body in (posted[0], posted[-1]):
                    sent.clear()
                    again = client.post(
                        f"/games/{game_id}/moves",
                        json=move,
                        headers={**auth(tokens[seat]), "Idempotency-Key": key},
                    )
                    assert again.get_data() == body and len(sent) <= 3, (key, len(sent))
    assert len(posted) > 12
    assert store.client.strlen(store.keys(game_id)[3]) > 0  # chunks were archived


def test_a_reader_behind_the_stream_gets_the_history_to_rebuild_from(make_app):
    """The capped stream keeps the last writes only: reading from the start, the store
    answers with the document and history as stored, and the streaming layer gets the
    events rebuilt by the games layer, the same as a reader within the stream gets."""
    app = make_app("toy", HISTORY_STREAM_WRITES=2)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2)
    for _ in range(4):
        token = tokens[view(client, game_id)["to_act"][0]]
        move = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json["moves"][0]
        assert post_move(client, game_id, token, move).status_code == 200
    store = store_of(app)
    doc, _ = store.read(game_id)
    assert doc["events_from"] > 1
    found = store.events(game_id, "0-0", 100)
    assert isinstance(found, History) and found.doc == doc and found.tail
    events = read_events(games_of(app), ANYONE, game_id, "0-0", 100)
    assert [e["version"] for e in events] == sorted(e["version"] for e in events)
    assert events[0]["id"] == "1-0" and events[-1]["version"] == doc["version"]
    within = f"{doc['events_from']}-0"
    rest = [e for e in events if position(e["id"]) > position(within)]
    assert store.events(game_id, within, 100) == rest

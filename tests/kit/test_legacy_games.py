"""Games written by the code before the compact history (a full event stream, a
``moves`` list, an ``idem`` hash, no ``events_from``) keep working after the upgrade:
read as they are, and migrated by their next write. The old layout is written here
directly, key by key, as the old store wrote it."""

from __future__ import annotations

from typing import Any

from shared.games import history
from shared.games import tokens as token_hashes
from shared.games.document import from_store
from shared.games.replay import move_digest
from shared.store import dumps, load_doc
from tests.kit.helpers import auth, post_move, started_game, view


def _to_old_layout(app: Any, redis_client: Any, game_id: str, keyed: list[tuple]) -> None:
    """Rewrite a game's keys as the old store left them."""
    games = app.extensions["game_kit"].games
    base = f"toy:{{{game_id}}}"
    doc = load_doc(redis_client.get(f"{base}:game"))
    records = history.stored(redis_client.get(f"{base}:tail"), redis_client.get(f"{base}:hist"))
    writes = list(history.replay(games.engine, from_store(doc), records))
    redis_client.delete(f"{base}:events", f"{base}:tail", f"{base}:hist")
    for write in writes:
        for event in write.events:
            fields = {k: v for k, v in event.items() if k != "id"}
            redis_client.xadd(f"{base}:events", {"e": dumps(fields)}, id=event["id"])
        if write.move is not None:
            redis_client.rpush(f"{base}:moves", dumps(write.move))
    at = {w.version: history.text_of(w.ms) for w in writes}
    for key, token, move, _, version in keyed:
        field = f"{token_hashes.hash_token(token)[:32]}:{key}"
        record = f"{version} {at[version]} {move_digest(move)}"
        redis_client.hset(f"{base}:idem", field, record)
    del doc["events_from"]
    redis_client.set(f"{base}:game", dumps(doc))


def _play(client: Any, game_id: str, tokens: list[str], keyed: list[tuple], count: int) -> None:
    for _ in range(count):
        game = view(client, game_id)
        if game["status"] != "running":
            return
        seat = game["to_act"][0]
        legal = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        move = legal.get_json()["moves"][-1]
        key = f"key-{len(keyed)}"
        r = post_move(client, game_id, tokens[seat], move, **{"Idempotency-Key": key})
        assert r.status_code == 200
        keyed.append((key, tokens[seat], move, r.get_data(), r.get_json()["game"]["version"]))


def _everything(client: Any, game_id: str) -> tuple[list, dict]:
    events = client.get(f"/games/{game_id}/events?limit=1000").get_json()["events"]
    return events, client.get(f"/games/{game_id}/log").get_json()


def _retries_answer_first(client: Any, game_id: str, keyed: list[tuple]) -> None:
    for key, token, move, body, _ in keyed:
        again = post_move(client, game_id, token, move, **{"Idempotency-Key": key})
        assert again.status_code == 200 and again.get_data() == body, key


def test_a_running_old_game_is_read_as_it_is_then_migrated_by_its_next_write(
    make_app, redis_client
):
    app = make_app("toy", HISTORY_CHUNK_RECORDS=4, HISTORY_STREAM_WRITES=2)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 3, rounds=6)
    keyed: list[tuple] = []
    _play(client, game_id, tokens, keyed, 9)
    events, log = _everything(client, game_id)
    _to_old_layout(app, redis_client, game_id, keyed)
    base = f"toy:{{{game_id}}}"
    assert sorted(redis_client.keys(f"{base}:*")) == sorted(
        f"{base}:{k}" for k in ("game", "events", "moves", "idem")
    )
    assert _everything(client, game_id) == (events, log)  # read through the old layout
    _retries_answer_first(client, game_id, keyed)  # nothing written: still old
    assert redis_client.exists(f"{base}:moves", f"{base}:idem") == 2
    _play(client, game_id, tokens, keyed, 1)  # the migrating write
    assert redis_client.exists(f"{base}:moves", f"{base}:idem") == 0
    doc = load_doc(redis_client.get(f"{base}:game"))
    assert list(doc)[:2] == ["version", "events_from"]
    assert doc["events_from"] == doc["version"] - 1
    assert redis_client.xlen(f"{base}:events") < len(events)  # trimmed
    _retries_answer_first(client, game_id, keyed)
    _play(client, game_id, tokens, keyed, 200)  # to the end
    assert view(client, game_id)["status"] == "finished"
    after_all, final_log = _everything(client, game_id)
    assert after_all[: len(events)] == events  # the old events, rebuilt from the history
    assert final_log["events"] == after_all
    assert [m["version"] for m in final_log["moves"]] == [k[4] for k in keyed]
    _retries_answer_first(client, game_id, keyed)


def test_a_finished_old_game_keeps_its_log_events_and_retries(make_app, redis_client):
    app = make_app("toy")
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2, rounds=2)
    keyed: list[tuple] = []
    _play(client, game_id, tokens, keyed, 100)
    assert view(client, game_id)["status"] == "finished"
    events, log = _everything(client, game_id)
    _to_old_layout(app, redis_client, game_id, keyed)
    assert _everything(client, game_id) == (events, log)
    assert log["moves"] == [
        {"seat": m["seat"], "move": m["move"], "version": m["version"]} for m in log["moves"]
    ] and len(log["moves"]) == len(keyed)
    _retries_answer_first(client, game_id, keyed)
    base = f"toy:{{{game_id}}}"
    assert redis_client.exists(f"{base}:moves", f"{base}:idem") == 2  # never written again

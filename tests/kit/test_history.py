"""The compact history (shared/games/history.py) against what was first written: random
games of the toy engine and both real ones, with clocks, worker-style timeouts, bot
seats, resignations and an Idempotency-Key on every human move. The stream is capped to
the last 2 writes and the tail archived every 4 records, so almost every read goes
through the rebuild."""

from __future__ import annotations

import base64
import json
import random
import uuid
import zlib
from typing import Any

import pytest

from shared.games import history, seats
from shared.games import records as records_module
from shared.games.audience import ANYONE
from shared.streaming.events import sse_stream
from shared.usecases import autoplay
from tests.kit.helpers import auth, post_move, started_game, view

SMALL = {"HISTORY_STREAM_WRITES": 2, "HISTORY_CHUNK_RECORDS": 4, "CLOCK_MIN_TURN_SECONDS": 1}


def _snapshot(redis_client: Any, prefix: str, game_id: str) -> tuple[Any, ...]:
    base = f"{prefix}:{{{game_id}}}"
    return (
        redis_client.get(f"{base}:game"),
        str(redis_client.xrange(f"{base}:events")),
        redis_client.get(f"{base}:tail"),
        redis_client.get(f"{base}:hist"),
    )


class Recorder:
    """Every event and move as the writes first wrote them."""

    def __init__(self, games: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[dict[str, Any]] = []
        self.moves: dict[int, list[dict[str, Any]]] = {}
        store, original = games.store, games.store.write
        next_write = records_module.next_write

        def write(doc: Any, expected: int, events: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(doc, expected, events, *args, **kwargs)
            if result.outcome == "ok":
                self.events += json.loads(json.dumps(events))
            return result

        def recording(settings: Any, old: Any, new: Any, outcome: Any, *args: Any) -> Any:
            self.moves[new["version"]] = json.loads(json.dumps(outcome.moves))
            return next_write(settings, old, new, outcome, *args)

        monkeypatch.setattr(store, "write", write)
        monkeypatch.setattr(records_module, "next_write", recording)

    def applied(self, version: int) -> list[dict[str, Any]]:
        return [m for v in sorted(self.moves) if v <= version for m in self.moves[v]]


def _events(client: Any, game_id: str, after: str | None) -> list[dict[str, Any]]:
    query = "limit=1000" if after is None else f"after={after}&limit=1000"
    return client.get(f"/games/{game_id}/events?{query}").get_json()["events"]


def _check_reads(client: Any, game_id: str, written: list[dict[str, Any]], rng: Any) -> None:
    assert _events(client, game_id, None) == written
    assert _events(client, game_id, "0") == written
    if written:
        at = rng.randrange(len(written))
        assert _events(client, game_id, written[at]["id"]) == written[at + 1 :]
        version = written[at]["version"]  # a bare version: after all of its events
        assert _events(client, game_id, str(version)) == [
            e for e in written if e["version"] > version
        ]


def _same_answer(again: Any, first: bytes, exact: bool) -> None:
    """A retry's answer is the first one. The players' part (deadlines, timeouts, who
    resigned) is the game's current one, as before the history (the kit never rebuilt
    it): byte for byte when nothing changed it (no clock, nobody resigned)."""
    assert again.status_code == 200
    if exact:
        assert again.get_data() == first
    body, answer = again.get_json(), json.loads(first)
    body["game"].pop("players")
    answer["game"].pop("players")
    assert body == answer


CASES = [
    ("toy", "toy", 1, True, 900),
    ("toy", "toy", 2, False, 120),  # the byte cap: often a single write's entry
    ("manhattan", "mh", 3, True, 900),
    ("windcity", "wc", 4, True, 900),
    ("windcity", "wc", 5, False, 400),
]


@pytest.mark.parametrize(("game", "prefix", "seed", "clock", "budget"), CASES)
def test_rebuilt_history_is_what_was_first_written(
    make_app: Any, redis_client: Any, monkeypatch: pytest.MonkeyPatch, game: str, prefix: str,
    seed: int, clock: bool, budget: int,
) -> None:  # fmt: skip
    app = make_app(game, **SMALL, HISTORY_STREAM_BYTES=budget)
    games = app.extensions["game_kit"].games
    client = app.test_client()
    rng = random.Random(seed)
    recorder = Recorder(games, monkeypatch)
    options: dict[str, Any] = {"players": 3, "seed": seed}
    if clock:
        options["clock"] = {"turn_seconds": 1}
    if game == "toy":
        options["rounds"] = 4
    created = client.post("/games", json=options).get_json()
    game_id, host = created["id"], created["host_token"]
    tokens: dict[int, str] = {}
    for name in ("ann", "bob"):
        body = client.post(f"/games/{game_id}/players", json={"name": name}).get_json()
        tokens[body["seat"]] = body["token"]
    bot = "greedy"
    r = client.post(f"/games/{game_id}/players", json={"bot": bot}, headers=auth(host))
    assert r.status_code == 201
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    keys: list[tuple[str, int, dict[str, Any], bytes, int]] = []  # key, seat, move, answer, v
    now = [seats.now_ms()]
    monkeypatch.setattr(seats, "now_ms", lambda: now[0])
    resigned = retried_all = False
    for _ in range(400):
        doc = games.writes.load(game_id)
        if doc["status"] != "running":
            break
        seat = doc["to_act"][0]
        human = seat in tokens and doc["players"][seat].get("status", "active") == "active"
        roll = rng.random()
        if human and not resigned and roll < 0.02:
            r = client.post(f"/games/{game_id}/resign", headers=auth(tokens[seat]))
            assert r.status_code == 200
            resigned = True
        elif human and roll < 0.9:
            view = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
            move = rng.choice(view.get_json()["moves"])
            key = uuid.uuid4().hex
            headers = {**auth(tokens[seat]), "Idempotency-Key": key}
            r = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
            assert r.status_code == 200, r.get_json()
            keys.append((key, seat, move, r.get_data(), r.get_json()["game"]["version"]))
        else:  # the worker: a bot's turn, or a human's deadline passed (a timeout)
            now[0] += 1100 if human else 0
            try:
                autoplay.play_due(games, game_id)
            except autoplay.NothingDue:
                now[0] += 5000
        if rng.random() < 0.3:
            _check_reads(client, game_id, recorder.events, rng)
        if keys and rng.random() < 0.2 or len(keys) == 20 and not retried_all:
            # old keys, in progress: the first answer, nothing applied (once all of them)
            retried_all = len(keys) >= 20
            before = _snapshot(redis_client, prefix, game_id)
            for key, seat, move, answer, _ in keys if len(keys) == 20 else [rng.choice(keys)]:
                headers = {**auth(tokens[seat]), "Idempotency-Key": key}
                again = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
                _same_answer(again, answer, not clock and not resigned)
            assert _snapshot(redis_client, prefix, game_id) == before
    doc = games.writes.load(game_id)
    assert doc["status"] == "finished", "the game did not end in 400 steps"
    _check_reads(client, game_id, recorder.events, rng)
    log = client.get(f"/games/{game_id}/log").get_json()
    assert log["events"] == recorder.events
    assert log["moves"] == recorder.applied(doc["version"])
    before = _snapshot(redis_client, prefix, game_id)
    for key, seat, move, answer, _ in keys:  # every key again, once the game is over
        headers = {**auth(tokens[seat]), "Idempotency-Key": key}
        again = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
        _same_answer(again, answer, not clock and not resigned)
    assert _snapshot(redis_client, prefix, game_id) == before
    assert len(keys) > 5
    assert 0 < redis_client.ttl(f"{prefix}:{{{game_id}}}:events") <= 60
    redis_client.delete(f"{prefix}:{{{game_id}}}:events")  # as when it expires
    _check_reads(client, game_id, recorder.events, rng)
    assert _events(client, game_id, str(doc["version"] - 1)) == [
        e for e in recorder.events if e["version"] == doc["version"]
    ]


def test_an_sse_resume_inside_a_trimmed_write_misses_nothing(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client resuming SSE with a Last-Event-ID inside a write the capped stream no
    longer holds (it saw part of that write's events) gets the rest of that write and
    everything after it: the stream starts with a catch-up read, which rebuilds."""
    app = make_app("toy", HISTORY_STREAM_WRITES=2)
    games = app.extensions["game_kit"].games
    recorder = Recorder(games, monkeypatch)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2, rounds=6)
    checked = 0
    while view(client, game_id)["status"] == "running":
        seat = view(client, game_id)["to_act"][0]
        legal = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        move = legal.get_json()["moves"][0]
        assert post_move(client, game_id, tokens[seat], move).status_code == 200
        doc = games.writes.load(game_id)
        gone = doc["events_from"] - 1  # the newest version the stream dropped
        written = recorder.events
        if doc["status"] == "running" and sum(e["version"] == gone for e in written) >= 2:
            cursor = f"{gone}-0"  # it saw the first event of that write only
            expected = [e["id"] for e in written if _position(e["id"]) > (gone, 0)]
            messages = sse_stream(games, ANYONE, game_id, cursor, False, 0.05, 0.2)
            sent = [m.split("\n")[0][4:] for m in messages if m.startswith("id: ")]
            assert sent == expected
            checked += 1
    assert checked > 0


def _position(event_id: str) -> tuple[int, int]:
    version, n = event_id.split("-")
    return int(version), int(n)


def test_the_stream_holds_one_entry_per_write_within_its_byte_budget(
    make_app: Any, redis_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write is one stream entry under its last event's id; the stream keeps the
    last writes whose entries fit the byte budget (always the newest), and the
    document's events_from is the first version it holds. A wait after an event inside
    a write gets the rest of that write."""
    redis_client.config_set("stream-node-max-bytes", 4096)  # Redis's default: bigger only
    app = make_app("toy", HISTORY_STREAM_WRITES=4, HISTORY_STREAM_BYTES=250)
    games = app.extensions["game_kit"].games
    recorder = Recorder(games, monkeypatch)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 3, rounds=6)
    key = f"toy:{{{game_id}}}:events"
    cut = waited = 0
    while view(client, game_id)["status"] == "running":
        seat = view(client, game_id)["to_act"][0]
        legal = client.get(f"/games/{game_id}/legal-moves", headers=auth(tokens[seat]))
        move = legal.get_json()["moves"][0]
        assert post_move(client, game_id, tokens[seat], move).status_code == 200
        doc = games.writes.load(game_id)
        if doc["status"] != "running":
            break
        entries = redis_client.xrange(key)
        versions = [_position(i)[0] for i, _ in entries]
        assert versions == list(range(doc["events_from"], doc["version"] + 1))
        last = [e["id"] for e in recorder.events if e["version"] == doc["version"]]
        assert entries[-1][0] == last[-1] and list(entries[-1][1]) == ["w"]
        sizes = [len(i) + sum(len(k) + len(v) for k, v in f.items()) for i, f in entries]
        assert len(entries) == 1 or sum(sizes) <= 250
        cut += len(entries) < 4 and doc["version"] >= 4
        if len(last) >= 2:
            rest = games.store.events(game_id, last[0], 100, block_ms=50)
            assert [e["id"] for e in rest] == last[1:]
            assert rest == [e for e in recorder.events if e["id"] in last[1:]]
            waited += 1
    redis_client.config_set("stream-node-max-bytes", 1024)
    assert cut > 0 and waited > 0


def test_a_long_write_is_stored_compressed_and_read_back_the_same() -> None:
    """A write whose events exceed the packing size is one compressed stream entry;
    read back (whole, or after one of its events) its events are byte for byte the
    ones written, versions and ids included, as are an event's own "version" key and
    an entry of one event written by older code."""
    from shared import store

    events = [
        {"type": "scored", "seat": n % 4, "points": n * 7, "note": "é" * 20, "version": 9}
        for n in range(12)
    ]
    events[3] = {"version": 9, "type": "odd", "seat": 1}  # its version not last: kept
    written = [{**e, "id": f"9-{n}"} for n, e in enumerate(events)]
    raw = store._stored_events(written)
    assert raw.startswith("z:") and len(raw) < len(json.dumps(events))
    read = store.parse_entries([("9-11", {"w": raw})])
    assert json.dumps(read) == json.dumps(written)
    assert store.parse_entries([("9-11", {"w": raw})], (9, 4), 3) == written[5:8]
    old = store.parse_entries([("8-2", {"e": '{"type":"x","version":8}'})], (8, 1))
    assert old == [{"type": "x", "version": 8, "id": "8-2"}]


# -- the archive's chunks -------------------------------------------------------------


def _records_of_a_real_game(game: str, seed: int) -> list[str]:
    """The record lines of a random 4-player game of ``game``, as history.py encodes them."""
    engine = __import__(f"services.{game}.rules", fromlist=["ENGINE"]).ENGINE
    rnd = random.Random(seed)
    state, lines, ms = engine.setup(4, {}, seed), [], 1_700_000_000_000
    version = 1
    while not engine.is_over(state):
        seat = rnd.choice(engine.to_act(state))
        move = rnd.choice(engine.legal_moves(state, seat))
        state, _ = engine.apply_move(state, seat, move)
        version += 1
        ms += rnd.randrange(500, 90_000)
        key = history.key_hash(uuid.uuid4().hex)
        record = history.move_record(version, ms, seat, move, key, [], [])
        lines.append(history.encode_line(record, ms - 1000))
    return lines


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_archive_chunks_name_their_dictionary_and_read_back_the_same(game: str) -> None:
    lines = _records_of_a_real_game(game, 5)
    chunks = [lines[at : at + 32] for at in range(0, len(lines), 32)]
    encoded = [history.encode_chunk(chunk) for chunk in chunks]
    assert all(text.startswith("1:") for text in encoded)
    archive = "".join(text + "\n" for text in encoded)
    assert history.decode_hist(archive) == [json.loads(line) for line in lines]
    # the dictionary's gain, on records it was not made from
    plain = [base64.b85encode(zlib.compress("\n".join(c).encode(), 9)) for c in chunks]
    assert sum(map(len, encoded)) < 0.9 * sum(map(len, plain))


def test_chunks_written_before_the_dictionary_still_read() -> None:
    lines = _records_of_a_real_game("manhattan", 6)[:40]
    old = base64.b85encode(zlib.compress("\n".join(lines[:32]).encode(), 9)).decode()
    new = history.encode_chunk(lines[32:])
    assert ":" not in old
    assert history.decode_hist(f"{old}\n{new}\n") == [json.loads(line) for line in lines]

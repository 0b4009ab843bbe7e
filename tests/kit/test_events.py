"""The event stream: long-poll (woken within 100 ms) and Server-Sent Events (resumable)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.kit.helpers import assert_problem, auth, post_move, started_game, view


def call(client, game_id, tokens, value=1):
    token = tokens[view(client, game_id)["to_act"][0]]
    r = post_move(client, game_id, token, {"type": "call", "value": value})
    assert r.status_code == 200
    return r.get_json()


def test_events_list_every_event_in_order_with_ids_and_versions(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    body = toy_client.get(f"/games/{game_id}/events").get_json()
    types = [e["type"] for e in body["events"]]
    assert types == ["game_created", "player_joined", "player_joined", "game_started"]
    assert [e["version"] for e in body["events"]] == [1, 2, 3, 4]
    assert [e["id"] for e in body["events"]] == ["1-0", "2-0", "3-0", "4-0"]
    assert body["last_id"] == "4-0"
    # after an event id, after a version, and paging with limit
    assert (
        toy_client.get(f"/games/{game_id}/events?after=2-0").get_json()["events"][0]["id"] == "3-0"
    )
    assert toy_client.get(f"/games/{game_id}/events?after=3").get_json()["events"][0]["id"] == "4-0"
    page = toy_client.get(f"/games/{game_id}/events?limit=2").get_json()
    assert [e["id"] for e in page["events"]] == ["1-0", "2-0"] and page["last_id"] == "2-0"
    empty = toy_client.get(f"/games/{game_id}/events?after=4-0").get_json()
    assert empty == {"events": [], "last_id": "4-0"}


@pytest.mark.parametrize(
    "query", ["after=x", "after=1-2-3", "wait=31", "wait=-1", "limit=0", "wait=soon", "since=1"]
)
def test_events_reject_bad_queries(toy_client, query):
    game_id, _, _ = started_game(toy_client, 2)
    assert_problem(toy_client.get(f"/games/{game_id}/events?{query}"), 422, "validation-error")


def test_long_poll_is_woken_by_another_players_move_within_100_ms(toy_app, toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    answer: dict[str, Any] = {}

    def wait():
        r = toy_app.test_client().get(f"/games/{game_id}/events?after={version}&wait=10")
        answer["at"] = time.perf_counter()
        answer["body"] = r.get_json()

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.4)  # the waiter is blocked in XREAD by now
    assert "at" not in answer
    moved_at = time.perf_counter()
    call(toy_client, game_id, tokens, 3)
    waiter.join(5)
    latency = answer["at"] - moved_at
    assert latency < 0.1, f"woken after {latency * 1000:.0f} ms"
    assert [e["type"] for e in answer["body"]["events"]] == ["called"]
    assert answer["body"]["events"][0]["value"] == 3


def test_long_poll_times_out_empty_and_never_waits_on_a_finished_game(toy_client):
    game_id, host, _ = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    t = time.perf_counter()
    body = toy_client.get(f"/games/{game_id}/events?after={version}&wait=0.3").get_json()
    assert 0.25 < time.perf_counter() - t < 2
    assert body["events"] == []
    toy_client.delete(f"/games/{game_id}", headers=auth(host))
    t = time.perf_counter()
    body = toy_client.get(f"/games/{game_id}/events?after={version + 1}&wait=5").get_json()
    assert time.perf_counter() - t < 1 and body["events"] == []


def parse_sse(text):
    """SSE messages as dicts (id/event/data) and the comment lines."""
    messages, comments = [], []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line.startswith(":"):
                comments.append(line[1:].strip())
            elif ": " in line:
                key, value = line.split(": ", 1)
                fields[key] = value
        if "id" in fields:
            messages.append(fields)
    return messages, comments


SSE = {"Accept": "text/event-stream"}


def test_sse_streams_new_events_with_heartbeats_until_its_lifetime(make_app, toy_client):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.2, SSE_MAX_SECONDS=1.2)
    game_id, _, tokens = started_game(toy_client, 2)
    timer = threading.Timer(0.5, call, args=(toy_client, game_id, tokens, 2))
    timer.start()
    t = time.perf_counter()
    r = app.test_client().get(f"/games/{game_id}/events?after=4", headers=SSE)
    text = r.get_data(as_text=True)  # the stream is read lazily, here
    elapsed = time.perf_counter() - t
    timer.join()
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache"
    messages, comments = parse_sse(text)
    assert [(m["id"], m["event"]) for m in messages] == [("5-0", "called")]
    assert '"value": 2' in messages[0]["data"]
    assert comments.count("heartbeat") >= 3
    assert 1.1 < elapsed < 3


def test_sse_resumes_from_last_event_id(make_app, toy_client):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.1, SSE_MAX_SECONDS=0.3)
    game_id, _, tokens = started_game(toy_client, 2)
    call(toy_client, game_id, tokens)
    r = app.test_client().get(f"/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "3-0"})
    messages, _ = parse_sse(r.get_data(as_text=True))
    assert [m["id"] for m in messages] == ["4-0", "5-0"]
    # Last-Event-ID wins over the query (the browser resends the original URL)
    r = app.test_client().get(
        f"/games/{game_id}/events?after=0", headers={**SSE, "Last-Event-ID": "4-0"}
    )
    assert [m["id"] for m in parse_sse(r.get_data(as_text=True))[0]] == ["5-0"]
    r = app.test_client().get(f"/games/{game_id}/events", headers={**SSE, "Last-Event-ID": "bogus"})
    assert_problem(r, 422, "validation-error")


def test_sse_of_an_ended_game_closes_after_the_last_event(make_app, toy_client):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.1, SSE_MAX_SECONDS=20)
    game_id, host, _ = started_game(toy_client, 2)
    toy_client.delete(f"/games/{game_id}", headers=auth(host))
    t = time.perf_counter()
    r = app.test_client().get(f"/games/{game_id}/events?after=3", headers=SSE)
    messages, _ = parse_sse(r.get_data(as_text=True))
    assert time.perf_counter() - t < 2
    assert [m["event"] for m in messages] == ["game_started", "game_cancelled"]

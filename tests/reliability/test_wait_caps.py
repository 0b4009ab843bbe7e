"""Caps on waiting clients (long-poll and SSE): per client address (429) and per worker
process (503), both problem+json with Retry-After; slots come back when a wait ends."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from shared.streaming.events import ServerBusy, TooManyWaits, WaitGate
from tests.conftest import wait_until
from tests.kit.helpers import assert_problem, auth, post_move, started_game, view

A, B, C = ({"REMOTE_ADDR": f"10.0.0.{n}"} for n in (1, 2, 3))


def test_gate_counts_per_address_and_in_all() -> None:
    gate = WaitGate(per_address=2, per_process=3, retry_after=7)
    first, second = gate.enter("a"), gate.enter("a")
    with pytest.raises(TooManyWaits) as refused:
        gate.enter("a")
    assert (refused.value.code, refused.value.retry_after) == ("too-many-waits", 7)
    third = gate.enter("b")
    with pytest.raises(ServerBusy) as busy:
        gate.enter("c")
    assert busy.value.code == "server-busy"
    first.release()
    first.release()  # once only
    assert (gate.total, gate.by_address) == (2, {"a": 1, "b": 1})
    with gate.enter("c"):
        assert gate.total == 3
    for slot in (second, third):
        slot.release()
    assert (gate.total, gate.by_address) == (0, {})  # nothing left behind per address


def _gate(app: Flask) -> WaitGate:
    return app.extensions["game_kit"].waits


def test_long_polls_and_streams_over_the_caps_are_refused(make_app: Callable[..., Flask]) -> None:
    app = make_app(
        "toy",
        CORS_ORIGINS="https://play.example",
        EVENTS_MAX_WAITERS_PER_ADDRESS=1,
        EVENTS_MAX_WAITERS_PER_PROCESS=2,
        EVENTS_RETRY_AFTER_SECONDS=4,
    )
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2)
    version = view(client, game_id)["version"]
    url = f"/games/{game_id}/events?after={version}"
    answers: dict[str, Any] = {}

    def wait(name: str, environ: dict[str, str]) -> None:
        r = app.test_client().get(f"{url}&wait=10", environ_base=environ)
        answers[name] = (r.status_code, r.get_json())

    waiters = [threading.Thread(target=wait, args=("a", A))]
    waiters[0].start()
    wait_until(lambda: _gate(app).total == 1, 5, "the first wait")
    # the same address again: refused at once, and with nothing held
    r = client.get(f"{url}&wait=10", environ_base=A)
    body = assert_problem(r, 429, "too-many-waits")
    assert r.headers["Retry-After"] == "4" and "wait=0" in body["detail"]
    r = client.get(url, headers={"Accept": "text/event-stream"}, environ_base=A)
    assert_problem(r, 429, "too-many-waits")
    # from a browser, the same refusal comes from the view, with the CORS headers
    r = client.get(f"{url}&wait=10", headers={"Origin": "https://play.example"}, environ_base=A)
    assert_problem(r, 429, "too-many-waits")
    assert r.headers["Access-Control-Allow-Origin"] == "https://play.example"
    # polls that do not wait are not waits; one asking to wait is refused before it reads
    assert client.get(f"{url}&wait=0", environ_base=A).status_code == 200
    r = client.get(f"/games/{game_id}/events?wait=5", environ_base=A)
    assert_problem(r, 429, "too-many-waits")
    # below the caps, a poll whose events are there does not wait, so holds no slot
    r = client.get(f"/games/{game_id}/events?wait=5", environ_base=C)
    assert r.status_code == 200 and r.get_json()["events"]
    assert _gate(app).total == 1
    # another address still gets a slot; then the process is full for everyone
    waiters.append(threading.Thread(target=wait, args=("b", B)))
    waiters[1].start()
    wait_until(lambda: _gate(app).total == 2, 5, "the second wait")
    r = client.get(f"{url}&wait=10", environ_base=C)
    assert_problem(r, 503, "server-busy")
    assert r.headers["Retry-After"] == "4"
    # a move wakes both; their slots come back
    token = tokens[view(client, game_id)["to_act"][0]]
    assert post_move(client, game_id, token, {"type": "call", "value": 2}).status_code == 200
    for waiter in waiters:
        waiter.join(5)
    assert [answers[n][0] for n in "ab"] == [200, 200]
    assert [e["type"] for e in answers["a"][1]["events"]] == ["called"]
    assert (_gate(app).total, _gate(app).by_address) == (0, {})
    r = client.get(f"{url}&wait=0.2", environ_base=C)
    assert r.status_code == 200


def test_a_stream_holds_its_slot_until_it_closes(make_app: Callable[..., Flask]) -> None:
    app = make_app("toy", EVENTS_MAX_WAITERS_PER_ADDRESS=1, SSE_HEARTBEAT_SECONDS=0.2)
    client = app.test_client()
    game_id, host, _ = started_game(client, 2)
    headers = {"Accept": "text/event-stream"}
    stream = client.get(f"/games/{game_id}/events", headers=headers, buffered=False)
    assert stream.status_code == 200
    first = next(iter(stream.response))
    assert b"retry:" in first
    assert _gate(app).total == 1
    assert_problem(client.get(f"/games/{game_id}/events", headers=headers), 429, "too-many-waits")
    stream.close()  # the client went away: the server closes the response
    assert _gate(app).total == 0
    # a stream that ends by itself (the game is over) gives its slot back too
    client.delete(f"/games/{game_id}", headers=auth(host))
    r = client.get(f"/games/{game_id}/events", headers=headers)
    assert r.status_code == 200 and b"game_cancelled" in r.get_data()
    r.close()  # as the WSGI server does once the body is out
    assert _gate(app).total == 0

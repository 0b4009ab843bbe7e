"""The table chat on the game's event stream (issue 41): a message wakes a long-poll
and comes on SSE, among the game's events, for those who read its channel only; one
cursor resumes both (toy game, real Redis; one check of SSE under gunicorn)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import requests

from tests.kit.helpers import auth, post_move, started_game, view
from tests.kit.test_chat import say
from tests.kit.test_events import SSE, parse_sse
from tests.kit.test_players import new_player
from tests.kit.test_watchers import _play_one


def waiting(app, url: str, headers: dict[str, str]) -> tuple[threading.Thread, dict[str, Any]]:
    answer: dict[str, Any] = {}

    def wait() -> None:
        r = app.test_client().get(url, headers=headers)
        answer["at"] = time.perf_counter()
        answer["body"] = r.get_json()

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.4)  # the waiter is blocked in XREAD by now
    return waiter, answer


def test_a_message_wakes_a_long_poll_and_one_cursor_resumes_events_and_chat(toy_app, toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    version = view(toy_client, game_id)["version"]
    url = f"/games/{game_id}/events?after={version}&wait=10"
    waiter, answer = waiting(toy_app, url, auth(tokens[1]))
    assert "at" not in answer
    said_at = time.perf_counter()
    sent = say(toy_client, game_id, tokens[0], text="your move")
    waiter.join(5)
    assert answer["at"] - said_at < 0.2
    (event,) = answer["body"]["events"]
    assert event == {"id": sent["id"], "type": "chat", "version": version, "message": sent}
    assert answer["body"]["last_id"] == sent["id"]
    # after the message: the next move's events, then the next message
    to_act = view(toy_client, game_id)["to_act"][0]
    moved = post_move(toy_client, game_id, tokens[to_act], {"type": "call", "value": 1})
    assert moved.status_code == 200
    later = say(toy_client, game_id, tokens[0], phrase="oops")
    page = toy_client.get(f"/games/{game_id}/events?after={sent['id']}").get_json()
    assert [e["type"] for e in page["events"]] == ["called", "chat"]
    assert page["events"][0]["id"] == f"{version + 1}-0" and page["last_id"] == later["id"]


def test_a_message_the_reader_does_not_read_never_wakes_it(toy_app, toy_client):
    game_id, _, tokens = started_game(toy_client, 3, spectator_chat=True)
    toy_client.put(f"/games/{game_id}/chat/mutes/1", headers=auth(tokens[0]))
    _, watcher = new_player(toy_client, "Watcher")
    version = view(toy_client, game_id)["version"]
    url = f"/games/{game_id}/events?after={version}&wait=10"
    waiter, answer = waiting(toy_app, url, auth(tokens[0]))
    say(toy_client, game_id, tokens[1], text="muted")
    say(toy_client, game_id, watcher, text="a spectator")
    time.sleep(0.4)
    assert "at" not in answer  # still waiting
    heard = say(toy_client, game_id, tokens[2], text="heard")
    waiter.join(5)
    assert [e["message"]["text"] for e in answer["body"]["events"]] == ["heard"]
    assert answer["body"]["last_id"] == heard["id"]


def test_sse_streams_messages_among_the_events(make_app, toy_client):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.2, SSE_MAX_SECONDS=1.2)
    game_id, _, tokens = started_game(toy_client, 2, spectator_chat=True)
    _, watcher = new_player(toy_client, "Watcher")
    first = say(toy_client, game_id, tokens[0], text="before")

    def later() -> None:
        say(toy_client, game_id, watcher, text="for spectators")
        to_act = view(toy_client, game_id)["to_act"][0]
        post_move(toy_client, game_id, tokens[to_act], {"type": "call", "value": 2})
        say(toy_client, game_id, tokens[1], phrase="your_turn")

    timer = threading.Timer(0.4, later)
    timer.start()
    headers = {**SSE, **auth(tokens[1]), "Accept-Language": "de"}
    r = app.test_client().get(f"/games/{game_id}/events?after=4", headers=headers)
    messages, _ = parse_sse(r.get_data(as_text=True))
    timer.join()
    assert [m["event"] for m in messages] == ["chat", "called", "chat"]
    assert messages[0]["id"] == first["id"] and "before" in messages[0]["data"]
    assert "Du bist am Zug" in messages[2]["data"]
    assert "for spectators" not in r.get_data(as_text=True)
    # a spectator reads its channel too, and resumes after a message's id
    r = app.test_client().get(
        f"/games/{game_id}/events", headers={**SSE, "Last-Event-ID": first["id"]}
    )
    kinds = [m["event"] for m in parse_sse(r.get_data(as_text=True))[0]]
    assert kinds == ["chat", "called", "chat"]


def test_the_chat_long_poll_waits_also_once_the_game_is_over(toy_app, toy_client):
    game_id, host, tokens = started_game(toy_client, 3)
    toy_client.delete(f"/games/{game_id}", headers=auth(host))  # over: the events close
    toy_client.put(f"/games/{game_id}/chat/mutes/1", headers=auth(tokens[0]))
    url = f"/games/{game_id}/chat?wait=10"
    waiter, answer = waiting(toy_app, url, auth(tokens[0]))
    say(toy_client, game_id, tokens[1], text="muted")
    time.sleep(0.3)
    assert "at" not in answer
    said_at = time.perf_counter()
    gg = say(toy_client, game_id, tokens[2], phrase="gg")
    waiter.join(5)
    assert answer["at"] - said_at < 0.2
    assert answer["body"] == {"messages": [gg], "last_id": gg["id"]}
    t = time.perf_counter()
    body = toy_client.get(f"/games/{game_id}/chat?after={gg['id']}&wait=0.3").get_json()
    assert body == {"messages": [], "last_id": gg["id"]} and time.perf_counter() - t >= 0.25


def test_a_delayed_spectator_reads_the_chat_at_its_delayed_position(make_app):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.05, SSE_MAX_SECONDS=1.5)
    client = app.test_client()
    game_id, _, tokens = started_game(client, 2, rounds=3, spectator_delay=1)
    _play_one(client, game_id, tokens)  # the spectator reads the start
    said = say(client, game_id, tokens[0], text="said after a move")
    seat_sees = client.get(f"/games/{game_id}/chat", headers=auth(tokens[1])).get_json()
    assert [m["id"] for m in seat_sees["messages"]] == [said["id"]]
    for url in (f"/games/{game_id}/chat", f"/games/{game_id}/events?after=0"):
        assert "said after a move" not in client.get(url).get_data(as_text=True)
    # waits wake when the game moves the cut, on the chat's long-poll and the events'
    answer: dict[str, Any] = {}

    def poll() -> None:
        r = app.test_client().get(f"/games/{game_id}/chat?wait=5")
        answer.update(body=r.get_json(), at=time.perf_counter())

    def stream() -> None:
        r = app.test_client().get(f"/games/{game_id}/events?after={said['version']}", headers=SSE)
        answer["sse"] = [json.loads(m["data"]) for m in parse_sse(r.get_data(as_text=True))[0]]

    waiters = [threading.Thread(target=poll), threading.Thread(target=stream)]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.4)
    assert "at" not in answer
    moved = time.perf_counter()
    _play_one(client, game_id, tokens)
    for waiter in waiters:
        waiter.join(5)
    assert answer["at"] - moved < 0.5
    assert [m["text"] for m in answer["body"]["messages"]] == ["said after a move"]
    chats = [e["message"]["text"] for e in answer["sse"] if e["type"] == "chat"]
    assert chats == ["said after a move"]


def test_a_delayed_spectators_own_message_tells_no_later_version(make_app):
    """A player without a seat reads the game behind (``spectator_delay``): the answer
    to its message carries the version it may see, not the live one."""
    client = make_app("toy").test_client()
    game_id, _, tokens = started_game(client, 2, rounds=3, spectator_delay=1, spectator_chat=True)
    _, key = new_player(client, "Watcher")
    for _ in range(2):
        _play_one(client, game_id, tokens)
    seen = client.get(f"/games/{game_id}", headers=auth(key)).get_json()["version"]
    live = view(client, game_id, tokens[0])["version"]
    assert seen < live  # (behind: the check below can fail)
    said = say(client, game_id, key, text="hello from the stands")
    assert said["version"] == seen
    assert said["id"] is None  # an id is "<version>-<n>": the live version
    page = client.get(f"/games/{game_id}/chat", headers=auth(key)).get_json()
    assert page["messages"] == [] and int(page["last_id"].partition("-")[0]) <= seen
    # a seat's message, read by that seat, keeps its version
    assert say(client, game_id, tokens[0], text="hi")["version"] == live
    # once its delayed position passes them, they come with their ids, in order
    _play_one(client, game_id, tokens)
    _play_one(client, game_id, tokens)
    later = client.get(f"/games/{game_id}/chat", headers=auth(key)).get_json()["messages"]
    assert [(m["text"], m["id"].partition("-")[0]) for m in later] == [
        ("hello from the stands", str(live)),
        ("hi", str(live)),
    ]


def test_under_gunicorn_an_sse_stream_gets_a_message_as_it_is_said(live_manhattan):
    base = live_manhattan
    with requests.Session() as session:
        made = session.post(f"{base}/games", json={"players": 2}, timeout=10).json()
        game_id = made["id"]
        tokens = [
            session.post(
                f"{base}/games/{game_id}/players", json={"name": f"Live {n}"}, timeout=10
            ).json()["token"]
            for n in range(2)
        ]
        started = session.post(
            f"{base}/games/{game_id}/start", headers=auth(made["host_token"]), timeout=10
        ).json()
    url = f"{base}/games/{game_id}/events?after={started['version']}"
    headers = {**SSE, **auth(tokens[1]), "Accept-Language": "ja"}
    with requests.get(url, headers=headers, stream=True, timeout=10) as stream:
        lines = stream.iter_lines(decode_unicode=True)
        assert next(lines).startswith("retry:")
        said_at = time.perf_counter()
        r = requests.post(
            f"{base}/games/{game_id}/chat", json={"phrase": "hello"}, headers=auth(tokens[0])
        )
        assert r.status_code == 201, r.text
        block: list[str] = []
        for line in lines:
            if line.startswith("id:") or block:
                block.append(line)
            if block and line == "":
                break
        latency = time.perf_counter() - said_at
    event = dict(line.split(": ", 1) for line in block if ": " in line)
    assert event["id"] == r.json()["message"]["id"] and event["event"] == "chat"
    assert json.loads(event["data"])["message"]["phrase_text"] == "こんにちは"
    assert latency < 1.0

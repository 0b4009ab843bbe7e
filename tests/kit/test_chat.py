"""The table chat (issue 41): messages kept with the game, in order and resumable like
events, canned phrases in each reader's language, channels, limits and mutes, on the
chat route and the event stream (toy game, real Redis)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import CLUSTER
from tests.kit.helpers import assert_problem, auth, create, join, sent_to_redis, started_game
from tests.kit.test_players import join_as, new_player


def say(client: FlaskClient, game_id: str, token: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/games/{game_id}/chat", json=body, headers=auth(token))
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json()["message"])


def chat(
    client: FlaskClient, game_id: str, token: str | None = None, query: str = "", **headers: str
) -> dict[str, Any]:
    h = {**(auth(token) if token else {}), **headers}
    r = client.get(f"/games/{game_id}/chat{query}", headers=h)
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_messages_are_read_in_order_and_resumed_after_a_cursor(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    first = say(toy_client, game_id, tokens[0], text="hello there")
    second = say(toy_client, game_id, tokens[1], phrase="gg")
    assert first["channel"] == "players" and first["seat"] == 0 and first["name"] == "player 0"
    assert first["text"] == "hello there" and first["phrase"] is None
    assert (
        second["phrase"] == "gg" and second["phrase_text"] == "Good game" and second["text"] is None
    )
    version = first["version"]
    assert first["id"] == f"{version}-{2**32}" and second["id"] == f"{version}-{2**32 + 1}"
    page = chat(toy_client, game_id)
    assert [m["id"] for m in page["messages"]] == [first["id"], second["id"]]
    assert page["last_id"] == second["id"]
    rest = chat(toy_client, game_id, query=f"?after={first['id']}")
    assert [m["id"] for m in rest["messages"]] == [second["id"]]
    assert chat(toy_client, game_id, query=f"?after={second['id']}")["messages"] == []


def test_a_phrase_is_shown_in_each_readers_language(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    sent = say(toy_client, game_id, tokens[0], phrase="thanks")
    texts = {}
    for language in ("en", "ja", "de-AT"):
        page = chat(toy_client, game_id, tokens[1], **{"Accept-Language": language})
        (message,) = page["messages"]
        assert message["id"] == sent["id"] and message["phrase"] == "thanks"
        texts[language] = message["phrase_text"]
        events = toy_client.get(
            f"/games/{game_id}/events?after={sent['version']}-0",
            headers={"Accept-Language": language},
        ).get_json()["events"]
        assert [e["message"]["phrase_text"] for e in events if e["type"] == "chat"] == [
            texts[language]
        ]
    assert texts == {"en": "Thanks", "ja": "ありがとう", "de-AT": "Danke"}
    phrases = toy_client.get("/chat/phrases", headers={"Accept-Language": "ja"}).get_json()
    assert {"code": "gg", "text": "よい対局でした"} in phrases["phrases"]
    assert len(phrases["phrases"]) == 9
    # every phrase is translated: a text of its own in each language, none left English
    by_language = {
        language: {
            p["code"]: p["text"]
            for p in toy_client.get(
                "/chat/phrases", headers={"Accept-Language": language}
            ).get_json()["phrases"]
        }
        for language in ("en", "ja", "de")
    }
    for code, english in by_language["en"].items():
        assert english != by_language["ja"][code] != by_language["de"][code] != english, code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("hi\u202eereht", "validation-error"),  # a bidi override
        ("\u200bhi", "validation-error"),  # a zero-width space
        ("hi\u0007", "validation-error"),  # a control
        ("a\tb", "validation-error"),
        ("   ", "validation-error"),
        ("line 1\nline 2", "validation-error"),  # one line only
        ("x" * 501, "validation-error"),
        ("", "validation-error"),
    ],
)
def test_text_with_what_a_reader_cannot_see_or_too_long_is_refused(toy_client, text, code):
    game_id, _, tokens = started_game(toy_client, 2)
    r = toy_client.post(f"/games/{game_id}/chat", json={"text": text}, headers=auth(tokens[0]))
    assert_problem(r, 422, code)
    assert chat(toy_client, game_id)["messages"] == []


def test_text_is_kept_as_plain_text_in_nfc(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    xss = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    assert say(toy_client, game_id, tokens[0], text=xss)["text"] == xss
    assert say(toy_client, game_id, tokens[0], text="  cafe\u0301 ")["text"] == "caf\u00e9"
    assert say(toy_client, game_id, tokens[0], text="x" * 500)["text"] == "x" * 500


@pytest.mark.parametrize(
    "body", [{}, {"text": "a", "phrase": "gg"}, {"phrase": "nope"}, {"text": 3}, {"x": 1}]
)
def test_a_message_is_text_or_a_known_phrase(toy_client, body):
    game_id, _, tokens = started_game(toy_client, 2)
    r = toy_client.post(f"/games/{game_id}/chat", json=body, headers=auth(tokens[0]))
    assert_problem(r, 422, "validation-error")


def test_who_may_send(toy_client):
    game_id, host, tokens = started_game(toy_client, 2)
    url = f"/games/{game_id}/chat"
    assert_problem(toy_client.post(url, json={"text": "hi"}), 401, "missing-token")
    r = toy_client.post(url, json={"text": "hi"}, headers=auth(host))
    assert_problem(r, 403, "seat-token-required")
    r = toy_client.post(url, json={"text": "hi"}, headers=auth("not-a-token"))
    assert_problem(r, 403, "invalid-token")
    _, key = new_player(toy_client, "Watcher")
    r = toy_client.post(url, json={"text": "hi"}, headers=auth(key))
    assert_problem(r, 403, "spectator-chat-closed")
    assert_problem(toy_client.post("/games/nope/chat", json={"text": "hi"}), 404, "game-not-found")
    assert chat(toy_client, game_id)["messages"] == []


def test_players_never_read_the_spectators_while_the_game_runs(toy_client):
    game_id, host, tokens = started_game(toy_client, 2, spectator_chat=True)
    watcher_id, key = new_player(toy_client, "Watcher")
    said = say(toy_client, game_id, key, text="seat 0 holds a 6!")
    assert said["channel"] == "spectators" and said["seat"] is None
    assert said["player"] == watcher_id and said["name"] == "Watcher"
    say(toy_client, game_id, tokens[0], text="hi all")
    for reader in (tokens[0], tokens[1], host):
        page = chat(toy_client, game_id, reader)
        assert [m["text"] for m in page["messages"]] == ["hi all"]
        events = toy_client.get(f"/games/{game_id}/events", headers=auth(reader)).get_json()
        assert "seat 0 holds" not in str(events)
        r = toy_client.get(f"/games/{game_id}/chat?channel=spectators", headers=auth(reader))
        assert_problem(r, 403, "chat-channel-hidden")
    for reader in (None, key):
        page = chat(toy_client, game_id, reader)
        assert [m["text"] for m in page["messages"]] == ["seat 0 holds a 6!", "hi all"]
        only = chat(toy_client, game_id, reader, "?channel=players")["messages"]
        assert [m["text"] for m in only] == ["hi all"]
    # once over, everything is public
    assert toy_client.delete(f"/games/{game_id}", headers=auth(host)).status_code == 200
    page = chat(toy_client, game_id, tokens[0])
    assert [m["text"] for m in page["messages"]] == ["seat 0 holds a 6!", "hi all"]


def test_the_chat_keeps_the_newest_messages_of_a_game(make_app):
    client = make_app("toy", CHAT_MAX_MESSAGES=3, RATE_LIMIT_CHAT="").test_client()
    game_id, _, tokens = started_game(client, 2)
    for n in range(5):
        say(client, game_id, tokens[n % 2], text=f"m{n}")
    assert [m["text"] for m in chat(client, game_id)["messages"]] == ["m2", "m3", "m4"]


def test_a_flood_is_refused_with_problem_json_and_nothing_stored(make_app):
    client = make_app("toy", RATE_LIMIT_CHAT="3/10s", RATE_LIMIT_CHAT_ADDRESS="4/10s").test_client()
    game_id, _, tokens = started_game(client, 2)
    for n in range(3):
        say(client, game_id, tokens[0], text=f"m{n}")
    r = client.post(f"/games/{game_id}/chat", json={"text": "flood"}, headers=auth(tokens[0]))
    body = assert_problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 10 and "chat" in body["detail"]
    # the other seat still talks, until the address's own limit
    say(client, game_id, tokens[1], text="me too")
    r = client.post(f"/games/{game_id}/chat", json={"phrase": "gg"}, headers=auth(tokens[1]))
    assert_problem(r, 429, "rate-limited")
    texts = [m["text"] for m in chat(client, game_id)["messages"]]
    assert texts == ["m0", "m1", "m2", "me too"]


def test_a_mute_hides_a_sender_from_the_muter_only(toy_client):
    game_id, _, tokens = started_game(toy_client, 3)
    url = f"/games/{game_id}/chat/mutes"
    r = toy_client.put(f"{url}/1", headers=auth(tokens[0]))
    assert r.status_code == 200 and r.get_json() == {"mutes": ["1"]}
    assert toy_client.put(f"{url}/1", headers=auth(tokens[0])).get_json() == {"mutes": ["1"]}
    say(toy_client, game_id, tokens[1], text="rude")
    say(toy_client, game_id, tokens[2], text="nice")
    assert [m["text"] for m in chat(toy_client, game_id, tokens[0])["messages"]] == ["nice"]
    assert [m["text"] for m in chat(toy_client, game_id, tokens[2])["messages"]] == [
        "rude",
        "nice",
    ]
    events = toy_client.get(f"/games/{game_id}/events", headers=auth(tokens[0])).get_json()
    assert [e["message"]["text"] for e in events["events"] if e["type"] == "chat"] == ["nice"]
    assert toy_client.get(url, headers=auth(tokens[0])).get_json() == {"mutes": ["1"]}
    assert toy_client.delete(f"{url}/1", headers=auth(tokens[0])).get_json() == {"mutes": []}
    assert len(chat(toy_client, game_id, tokens[0])["messages"]) == 2
    assert_problem(toy_client.put(f"{url}/0", headers=auth(tokens[0])), 409, "cannot-mute-yourself")
    r = toy_client.put(f"{url}/7", headers=auth(tokens[0]))
    assert_problem(r, 404, "mute-target-not-found")
    assert_problem(toy_client.put(f"{url}/1"), 401, "missing-token")


def test_a_deleted_players_messages_show_the_placeholder_name(toy_client):
    _, ann = new_player(toy_client, "Ann")
    game_id, host = create(toy_client, players=2)
    join_as(toy_client, game_id, ann, name="Annabel")
    join(toy_client, game_id, "Bob")
    toy_client.post(f"/games/{game_id}/start", headers=auth(host))
    said = say(toy_client, game_id, ann, text="hello from Ann")
    assert said["name"] == "Annabel" and said["player"] is not None
    assert toy_client.delete("/players/me", headers=auth(ann)).status_code == 204
    (message,) = chat(toy_client, game_id)["messages"]
    assert message["name"] == "Deleted player" and message["player"] is None
    events = toy_client.get(f"/games/{game_id}/events").get_data(as_text=True)
    assert "Annabel" not in events


def test_the_chat_expires_with_the_game(toy_client, redis_client):
    game_id, host, tokens = started_game(toy_client, 2)
    say(toy_client, game_id, tokens[0], text="hi")
    toy_client.put(f"/games/{game_id}/chat/mutes/1", headers=auth(tokens[0]))
    chat_key, mutes_key = f"toy:{{{game_id}}}:chat", f"toy:{{{game_id}}}:mutes"
    game_ttl = redis_client.ttl(f"toy:{{{game_id}}}:game")
    assert abs(redis_client.ttl(chat_key) - game_ttl) <= 1
    assert abs(redis_client.ttl(mutes_key) - game_ttl) <= 1
    # the game's next write (here its end) sets them all alike
    toy_client.delete(f"/games/{game_id}", headers=auth(host))
    game_ttl = redis_client.ttl(f"toy:{{{game_id}}}:game")
    assert game_ttl <= 7 * 24 * 3600
    assert abs(redis_client.ttl(chat_key) - game_ttl) <= 1
    assert abs(redis_client.ttl(mutes_key) - game_ttl) <= 1


def test_a_spectators_messages_are_in_its_export_and_erased_with_it(toy_client):
    game_id, _, tokens = started_game(toy_client, 2, spectator_chat=True)
    _, seated = new_player(toy_client, "Sam")
    other_id, other = create(toy_client, players=2)
    join_as(toy_client, other_id, seated, name="Sammy")
    say(toy_client, other_id, seated, text="I sit here")
    watcher_id, watcher = new_player(toy_client, "Wanda")
    said = say(toy_client, game_id, watcher, phrase="good_luck")
    toy_client.put(f"/games/{game_id}/chat/mutes/0", headers=auth(watcher))
    export = toy_client.get("/players/me/export", headers=auth(watcher)).get_json()
    (entry,) = export["chat"]
    assert entry["id"] == game_id and entry["game"] == "toy"
    assert entry["messages"] == [
        {k: said[k] for k in ("id", "channel", "text", "phrase", "at", "version")}
    ]
    mine = toy_client.get("/players/me/export", headers=auth(seated)).get_json()["chat"]
    assert [(c["id"], [m["text"] for m in c["messages"]]) for c in mine] == [
        (other_id, ["I sit here"])
    ]
    assert toy_client.delete("/players/me", headers=auth(watcher)).status_code == 204
    (message,) = chat(toy_client, game_id)["messages"]
    assert message["name"] == "Deleted player" and message["player"] is None
    assert message["phrase"] == "good_luck"
    store = toy_client.application.extensions["game_kit"].games.store
    assert "Wanda" not in str(store.chat_all(game_id)) and watcher_id not in str(
        store.chat_all(game_id)
    )
    assert store.mutes_of(game_id, f"player:{watcher_id}") == []
    assert store.spectated_ids(watcher_id) == []


def test_round_trips_of_a_message_and_of_an_events_read_with_the_chat(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    url, headers = f"/games/{game_id}/chat", auth(tokens[0])
    say(toy_client, game_id, tokens[0], text="warm")  # (scripts loaded)
    toy_client.get(f"/games/{game_id}/events", headers=headers)
    with sent_to_redis() as sent:
        assert toy_client.post(url, json={"text": "hi"}, headers=headers).status_code == 201
    assert len(sent) == 4  # the game, the sender's and the address's limits, the script
    with sent_to_redis() as sent:
        toy_client.get(f"/games/{game_id}/events?after=4", headers=headers)
    # the game; events, chat and the reader's mutes in one pipeline (a cluster's
    # pipeline takes no script: the events' script, then the chat's and mutes' pipeline)
    assert len(sent) == (3 if CLUSTER else 2)


def test_a_players_only_table_has_no_spectators_in_its_chat(toy_client):
    game_id, _, tokens = started_game(toy_client, 2, spectators="players", spectator_chat=True)
    say(toy_client, game_id, tokens[0], text="just us")
    _, key = new_player(toy_client, "Watcher")
    for headers in ({}, auth(key)):
        r = toy_client.get(f"/games/{game_id}/chat", headers=headers)
        assert_problem(r, 403, "spectators-not-allowed")
    r = toy_client.post(f"/games/{game_id}/chat", json={"text": "hi"}, headers=auth(key))
    assert_problem(r, 403, "spectators-not-allowed")
    assert [m["text"] for m in chat(toy_client, game_id, tokens[1])["messages"]] == ["just us"]


def test_the_length_cap_is_a_setting(make_app):
    client = make_app("toy", CHAT_MAX_LENGTH=10).test_client()
    game_id, _, tokens = started_game(client, 2)
    assert say(client, game_id, tokens[0], text="x" * 10)["text"] == "x" * 10
    r = client.post(f"/games/{game_id}/chat", json={"text": "x" * 11}, headers=auth(tokens[0]))
    assert "at most 10 characters" in assert_problem(r, 422, "validation-error")["detail"]

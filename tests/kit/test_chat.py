"""The table chat (issue 41): messages kept with the game, in order and resumable like
events, canned phrases in each reader's language, channels, limits and mutes, on the
chat route and the event stream (toy game, real Redis)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.kit.helpers import auth, started_game


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

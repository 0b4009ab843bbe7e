"""The hot answers skip their marshmallow dump (shared/http/routes.py ``as_built``): each must be
exactly what the route's response schema would have sent, bytes included, at every
step of whole games of both engines, for every audience."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from shared.http import schemas as s


def _dumped(schema: type, body: dict) -> bytes:
    """What flask-smorest sent before: the schema's dump, compact, keys in order."""
    text = json.dumps(schema().dump(body), ensure_ascii=False, separators=(",", ":"))
    return text.encode() + b"\n"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_views_moves_and_legal_moves_are_what_their_schemas_dump(make_app, game):
    client = make_app(game).test_client()
    rng = random.Random(17)
    created = client.post("/games", json={"players": 3, "seed": 5}).get_json()
    game_id, host = created["id"], created["host_token"]
    tokens = [
        client.post(f"/games/{game_id}/players", json={"name": f"p{i}"}).get_json()["token"]
        for i in range(3)
    ]
    view = client.post(f"/games/{game_id}/start", headers=_auth(host)).get_json()
    checked = 0
    while view["status"] == "running":
        for token in [None, *tokens]:
            headers = {} if token is None else _auth(token)
            plain = client.get(f"/games/{game_id}", headers=headers)
            assert plain.data == _dumped(s.ViewSchema, plain.get_json())
            full = client.get(f"/games/{game_id}?include=legal_moves", headers=headers)
            assert full.status_code == 200
            assert full.data == _dumped(s.ViewSchema, full.get_json())
            if token is not None:
                legal = client.get(f"/games/{game_id}/legal-moves", headers=headers)
                assert legal.data == _dumped(s.LegalMovesSchema, legal.get_json())
            checked += 1
        seat = view["to_act"][0]
        moves = client.get(f"/games/{game_id}?include=legal_moves", headers=_auth(tokens[seat]))
        headers = {**_auth(tokens[seat]), "Idempotency-Key": uuid.uuid4().hex}
        move = rng.choice(moves.get_json()["legal_moves"])
        answer = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
        assert answer.status_code == 200
        assert answer.data == _dumped(s.MoveResultSchema, answer.get_json())
        assert answer.headers["ETag"] == f'"{answer.get_json()["game"]["version"]}"'
        assert answer.headers["Content-Type"] == "application/json"
        retried = client.post(f"/games/{game_id}/moves", json=move, headers=headers)
        assert retried.data == _dumped(s.MoveResultSchema, retried.get_json())
        view = answer.get_json()["game"]
    assert view["status"] == "finished" and checked > 50

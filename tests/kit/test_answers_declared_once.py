"""Each answer's fields are declared once: the code that builds an answer and the schema
that documents it (shared/http/schemas/answers.py) cannot drift apart.

Every answer is sent as built (no marshmallow dump that could drop or reorder a field),
so over whole games of both engines, for every kind of answer and every audience:

- its keys are exactly its schema's declared fields, in the declared order (those the
  schema marks optional may be absent), and so are its nested objects';
- its bytes are what the schema's dump would send (the values have the documented types).
"""

from __future__ import annotations

import json
import random
import uuid
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import Schema, fields

from shared.http.schemas import answers as a
from tests.kit.helpers import auth

WEBHOOKS = {"WEBHOOK_ALLOW_PRIVATE": True, "WEBHOOK_SIGNING_KEY": "k"}
HOOK = {"url": "http://127.0.0.1:8089/hook"}


def _check(schema: Schema, value: Any, where: str) -> None:
    """``value`` has exactly ``schema``'s fields, in order, each as its field declares."""
    assert isinstance(value, dict), where
    declared = list(schema.fields)
    assert list(value) == [name for name in declared if name in value], (where, list(value))
    required = [name for name, field in schema.fields.items() if field.required]
    assert all(name in value for name in required), (where, required, list(value))
    for name, field in schema.fields.items():
        if name in value:
            _check_field(field, value[name], f"{where}.{name}")


def _check_field(field: fields.Field, value: Any, where: str) -> None:
    if value is None:
        assert field.allow_none, where
    elif isinstance(field, fields.Nested):
        _check(field.schema, value, where)
    elif isinstance(field, fields.List):
        assert isinstance(value, list), where
        for n, item in enumerate(value):
            _check_field(field.inner, item, f"{where}[{n}]")


class Answers:
    """A client that checks every answer against its schema, and counts the kinds."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.kinds: Counter[str] = Counter()

    def __call__(
        self,
        kind: str,
        schema: type[Schema],
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        **headers: str,
    ) -> Any:
        if token is not None:
            headers |= auth(token)
        kw = {} if body is None else {"json": body}
        r = self.client.open(path, method=method, headers=headers, **kw)
        assert 200 <= r.status_code < 300, (kind, r.get_json())
        answer = r.get_json()
        _check(schema(), answer, kind)
        dumped = json.dumps(schema().dump(answer), ensure_ascii=False, separators=(",", ":"))
        assert r.data == dumped.encode() + b"\n", kind
        assert r.headers["Content-Type"] == "application/json"
        self.kinds[kind] += 1
        return answer


@pytest.mark.parametrize("game", ["manhattan", "windcity"])
def test_every_answer_has_its_schemas_fields_in_order(make_app, game):
    ask = Answers(make_app(game, **WEBHOOKS).test_client())
    rng = random.Random(17)
    created = ask("created", a.CreatedSchema, "POST", "/games", {"players": 3, "seed": 5})
    game_id, host = created["id"], created["host_token"]
    other = ask("created+webhook", a.CreatedSchema, "POST", "/games", {"webhook": HOOK})
    assert "webhook_secret" in other
    tokens = [
        ask("joined", a.JoinedSchema, "POST", f"/games/{game_id}/players", {"name": f"p{i}"})[
            "token"
        ]
        for i in range(3)
    ]
    joined = {"name": "w", "webhook": HOOK}
    seat = ask("joined+webhook", a.JoinedSchema, "POST", f"/games/{other['id']}/players", joined)
    ask("joined bot", a.JoinedSchema, "POST", f"/games/{other['id']}/players", {"bot": "random"},
        other["host_token"])  # fmt: skip
    ask("left", a.ViewSchema, "DELETE", f"/games/{other['id']}/players/me", token=seat["token"])
    ask("listing", a.GameListSchema, "GET", "/games")
    ask("listing", a.GameListSchema, "GET", "/games?status=open&limit=1")
    view = ask("started", a.ViewSchema, "POST", f"/games/{game_id}/start", token=host)
    ask("score", a.ScoreboardSchema, "GET", f"/games/{game_id}/score")
    ask("log", a.LogSchema, "GET", f"/games/{game_id}/log")
    ask("events", a.EventPageSchema, "GET", f"/games/{game_id}/events?limit=5")
    while view["status"] == "running":
        for token in [None, *tokens]:
            ask("view", a.ViewSchema, "GET", f"/games/{game_id}", token=token)
            path = f"/games/{game_id}?include=legal_moves"
            ask("view+legal moves", a.ViewSchema, "GET", path, token=token)
        seat_token = tokens[view["to_act"][0]]
        legal = ask("legal moves", a.LegalMovesSchema, "GET", f"/games/{game_id}/legal-moves",
                    token=seat_token)  # fmt: skip
        key = {"Idempotency-Key": uuid.uuid4().hex}
        move = rng.choice(legal["moves"])
        path = f"/games/{game_id}/moves"
        answer = ask("moved", a.MoveResultSchema, "POST", path, move, seat_token, **key)
        ask("moved again", a.MoveResultSchema, "POST", path, move, seat_token, **key)
        view = answer["game"]
    ask("score", a.ScoreboardSchema, "GET", f"/games/{game_id}/score")
    ask("log", a.LogSchema, "GET", f"/games/{game_id}/log")
    ask("listing", a.GameListSchema, "GET", "/games?status=finished")
    third = ask("created", a.CreatedSchema, "POST", "/games", {"players": 2})
    path = f"/games/{third['id']}"
    seats = [
        ask("joined", a.JoinedSchema, "POST", f"{path}/players", {"name": name})["token"]
        for name in ("a", "b")
    ]
    ask("started", a.ViewSchema, "POST", f"{path}/start", token=third["host_token"])
    ask("resigned", a.ViewSchema, "POST", f"{path}/resign", token=seats[0])
    ask("cancelled", a.ViewSchema, "DELETE", f"/games/{other['id']}", token=other["host_token"])
    assert view["status"] == "finished" and ask.kinds["view"] > 50
    assert len(ask.kinds) == 18, ask.kinds  # every kind of answer the routes give

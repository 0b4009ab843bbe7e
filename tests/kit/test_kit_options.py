"""The kit's options are declared once (shared/games/options.py), and every place that
needs them follows the declaration: each game's ``POST /games`` and ``POST /matches``
schema, what a create stores and a view shows, what a rematch carries, and the quick
match pool key. Each test walks every declared option, so a new one is checked without
a new test; real Redis, the toy game and both services."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from shared.games import Games
from shared.games.options import OPTIONS, KitOption
from shared.http.schemas.options import field_of
from shared.usecases import matches, rematch
from tests.kit.helpers import auth
from tests.kit.test_players import new_player

GAMES = ("toy", "manhattan", "windcity")
HOOKS = {"WEBHOOK_ALLOW_PRIVATE": True, "WEBHOOK_SIGNING_KEY": "k"}
IN_CREATE = [o for o in OPTIONS if o.match != "only"]
IN_MATCH = [o for o in OPTIONS if o.match != "refused"]


def _games(app: Flask) -> Games:
    kit: Games = app.extensions["game_kit"].games
    return kit


def _spec(app: Flask) -> dict[str, Any]:
    with app.test_request_context():
        spec: dict[str, Any] = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return spec


def _request_schema(spec: dict[str, Any], path: str) -> dict[str, Any]:
    body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[1]
    schema: dict[str, Any] = spec["components"]["schemas"][name]
    return schema


@pytest.mark.parametrize("game", GAMES)
def test_every_game_takes_every_kit_option_as_declared(make_app, game):
    """``POST /games`` of each game documents (and so validates) every kit option with
    the field its declaration makes; ``POST /matches`` exactly those a match accepts."""
    spec = _spec(make_app(game))
    created = _request_schema(spec, "/games")["properties"]
    low, high = created["players"]["minimum"], created["players"]["maximum"]
    for option in IN_CREATE:
        assert option.name in created, f"{game}: POST /games lacks {option.name}"
        expected = option.doc.format(minimum=low, maximum=high)
        assert created[option.name]["description"] == expected, (game, option.name)
        if option.doc_default and option.default is not None:
            assert created[option.name]["default"] == option.default, (game, option.name)
    assert next(iter(created)) == "players"
    matched = _request_schema(spec, "/matches")["properties"]
    kit_names = {o.name for o in OPTIONS}
    assert {n for n in matched if n in kit_names} == {o.name for o in IN_MATCH}, game
    own = [n for n in created if n not in kit_names]
    assert [n for n in matched if n not in kit_names] == own, game


def _example(option: KitOption) -> Any:
    return option.example


def _created(app: Flask, body: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    r = app.test_client().post("/games", json=body)
    assert r.status_code == 201, (body, r.get_json())
    answer = r.get_json()
    return answer, _games(app).writes.load(answer["id"])


@pytest.mark.parametrize("option", IN_CREATE, ids=lambda o: o.name)
def test_a_create_stores_and_shows_each_option_as_declared(make_app, option):
    """Each option given to ``POST /games`` is kept in the document in its stored form
    and echoed in the view's ``options`` exactly when declared ``shown``."""
    app = make_app("toy", **HOOKS)
    answer, doc = _created(app, {option.name: _example(option)})
    shown = answer["game"]["options"]
    if option.name == "webhook":  # kept as a registration (id, events) of its URL
        assert doc["webhooks"][0]["url"] == option.example["url"]
    else:
        assert option.read(doc) == option.stored(option.example) is not None
    if option.shown:
        assert shown[option.name] == option.read(doc)
    else:
        assert option.name not in shown
    listed = app.test_client().get("/games").get_json()["games"]
    if listed:  # an unlisted game is in no listing
        assert listed[0]["options"] == shown


def test_a_rematch_carries_the_options_declared_carried(make_app):
    """The next game of a rematch keeps what each carried option kept, and none of the
    others (``start``: a rematch starts when full; ``seed``: a fresh one)."""
    kit = _games(make_app("toy"))
    given = {o.name: o.example for o in IN_CREATE if o.name != "webhook"}
    doc, _, _ = kit.lifecycle.create(given)
    after, _, _ = kit.lifecycle.create(rematch.next_options(doc))
    for option in OPTIONS:
        if option.carried:
            assert option.read(after) == option.read(doc) is not None, option.name
        elif option.name == "start":
            assert after.get("start") == "when_full"
        elif option.name == "seed":
            assert after["seed_chosen"] is False
        else:
            assert option.read(after) is None, option.name


def _match(app: Flask, key: str, body: dict[str, Any]) -> dict[str, Any]:
    r = app.test_client().post("/matches", json=body, headers=auth(key))
    assert r.status_code == 201, (body, r.get_json())
    return dict(r.get_json())


@pytest.mark.parametrize("game", GAMES)
def test_each_option_a_match_takes_is_accepted_and_names_its_pool(make_app, game):
    """Every kit option ``POST /matches`` accepts is accepted by the game (no
    ``invalid-option`` from its engine), and names a pool of its own: the table is
    found in the pool its document names, and that pool is not the defaults' one."""
    app = make_app(game)
    kit = _games(app)
    client = app.test_client()
    _, key = new_player(client, "Plain")
    plain = kit.writes.load(_match(app, key, {})["game_id"])
    for n, option in enumerate(IN_MATCH):
        _, key = new_player(client, f"P{n}")
        table = kit.writes.load(_match(app, key, {option.name: option.example})["game_id"])
        assert option.read(table) == option.stored(option.example) is not None, option.name
        pool = matches.pool_of(table)
        assert pool != matches.pool_of(plain), f"the pool key ignores {option.name}"
        assert table["id"] in kit.store.pooled(pool), option.name


def _pool_name(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("request_options", "stored_as"),
    [
        (
            {"players": 4, "rounds": 3},
            '{"bots":null,"clock":null,"options":{"rounds":3},"players":4}',
        ),
        (
            {"players": 2, "rounds": 3, "takeover": "strong", "bots_after": 30},
            '{"bots":30,"clock":null,"options":{"rounds":3},"players":2}',
        ),
        (
            {"players": 3, "rounds": 1, "clock": {"turn_seconds": 60}, "takeover": "greedy"},
            '{"bots":null,"clock":{"max_timeouts":3,"turn_seconds":60},"options":{"rounds":1},'
            '"players":3,"takeover":"greedy"}',
        ),
    ],
)
def test_pools_keep_their_names(request_options, stored_as):
    """The pools of tables opened before the declaration keep their names (the store
    holds them by name): the canonical JSON is unchanged."""
    assert matches._pool(request_options, "") == _pool_name(stored_as)


def test_every_declared_kind_makes_a_field():
    """Each declaration builds its field (a kind the HTTP layer lacks fails here)."""
    made: list[Callable[..., Any]] = [field_of(o, (2, 4)).deserialize for o in OPTIONS]
    for option, load in zip(OPTIONS, made, strict=True):
        if option.name != "clock":  # its turn_seconds checks the app's settings
            assert load(option.example) == option.example, option.name

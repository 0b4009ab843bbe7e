"""shared/http/schemas/quickload.py: a move schema's quick load gives exactly what
marshmallow's load gives (the same dict, keys in the same order), or leaves the body to
marshmallow; never a value for a body marshmallow refuses."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.http.schemas.fields import Int
from shared.http.schemas.moves import MoveUnion, _instance
from shared.http.schemas.quickload import UNSURE, quick_loader

GAMES = {
    "manhattan": ("services.manhattan.rules", "services.manhattan.schemas:ManhattanMoveSchema"),
    "windcity": ("services.windcity.rules", "services.windcity.schemas:WindCityMoveSchema"),
    "toy": ("tests.kit.toy_engine", "tests.kit.toy_schemas:ToyMoveSchema"),
}
ODD = [None, True, False, 0, -1, 1.5, 2**70, "", "x", "A1", "C7", [], [1], ["A1"], {}, {"a": 1}]


def _union(game: str) -> type[MoveUnion]:
    module, _, name = GAMES[game][1].partition(":")
    union: type[MoveUnion] = getattr(importlib.import_module(module), name)
    return union


def _legal_moves(game: str) -> list[dict[str, Any]]:
    """The distinct moves listed in a random game of ``game`` (some with subsets filled)."""
    engine = importlib.import_module(GAMES[game][0]).ENGINE
    rng, found = random.Random(5), {}
    state = engine.setup(engine.MAX_PLAYERS, {}, 5)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        moves = engine.legal_moves(state, seat)
        for move in rng.sample(moves, min(len(moves), 8)):
            found[repr(move)] = move
        for choice in engine.choices(state, seat):
            values = [o["value"] for o in choice["options"]]
            move = next(m for m in moves if m["type"] == choice["type"])
            filled = {**move, choice["field"]: values[: rng.randint(0, 3)]}
            found[repr(filled)] = filled
        state, _ = engine.apply_move(state, seat, rng.choice(moves))
    return list(found.values())


def _altered(move: dict[str, Any], rng: random.Random) -> list[Any]:
    """``move`` with a field dropped, a field's value changed, a field added..."""
    out: list[Any] = [{**move, "extra": 1}, list(move.items())]
    for key, value in move.items():
        out.append({k: v for k, v in move.items() if k != key})
        out += [{**move, key: odd} for odd in rng.sample(ODD, 5)]
        if isinstance(value, list) and value:
            out.append({**move, key: [*value, value[0]]})
            out.append({**move, key: [rng.choice(ODD), *value[1:]]})
        if isinstance(value, int) and not isinstance(value, bool):
            out += [{**move, key: value + 100}, {**move, key: -value}]
    return out


def _same(member: Schema, body: Any) -> bool:
    """The quick load agrees with marshmallow's on ``body`` (or leaves it to marshmallow)."""
    quick = quick_loader(member)
    assert quick is not None
    got = quick(body)
    try:
        expected = member.load(body)
    except ValidationError:
        assert got is UNSURE, body
        return False
    assert got is UNSURE or (got == expected and list(got) == list(expected)), body
    return got is not UNSURE


@pytest.mark.parametrize("game", list(GAMES))
def test_the_quick_load_is_marshmallows_on_legal_and_altered_moves(game):
    union, rng = _union(game), random.Random(3)
    quick = 0
    moves = _legal_moves(game)
    for move in moves:
        member = _instance(union.TYPES[move["type"]])[0]
        assert _same(member, move), move  # every legal move loads quickly
        quick += 1
        for body in rng.sample(_altered(move, rng), 8):
            _same(member, body)
    assert quick == len(moves) >= 6
    assert all(_instance(m)[1] is not None for m in union.TYPES.values())


def test_what_it_does_not_know_gets_no_quick_load():
    class WithHook(Schema):
        a = Int()

        @validates_schema
        def _check(self, data: dict[str, Any], **_: Any) -> None:
            pass

    class OtherField(Schema):
        a = fields.Float()

    class OtherValidator(Schema):
        a = Int(validate=validate.ContainsOnly([1, 2]))

    class Renamed(Schema):
        a = Int(data_key="b")

    class Plain(Schema):
        a = Int(validate=validate.Range(1, 3, max_inclusive=False))
        b = fields.List(fields.String(validate=validate.OneOf(["x"])), load_default=list)
        c = fields.String(allow_none=True, load_default=None)

    for schema in (WithHook, OtherField, OtherValidator, Renamed):
        assert quick_loader(schema()) is None, schema
    plain = Plain()
    for body in ({"a": 1}, {"a": 3}, {"a": 2, "b": ["x"], "c": None}, {"a": 2, "c": "y"}):
        _same(plain, body)
    assert quick_loader(plain)({"a": 1}) == {"a": 1, "b": [], "c": None}

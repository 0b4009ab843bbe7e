"""The toy game's option and move schemas: all a game adds to the kit besides rules."""

from __future__ import annotations

from marshmallow import Schema, validate

from shared.http.schemas import (
    Int,
    MoveUnion,
    clock_field,
    players_field,
    rated_field,
    seed_field,
    start_field,
    takeover_field,
    type_field,
    visibility_field,
)


class ToyOptionsSchema(Schema):
    players = players_field(2, 4)
    rounds = Int(load_default=3, validate=validate.Range(1, 10))
    seed = seed_field()
    clock = clock_field()
    takeover = takeover_field()
    visibility = visibility_field()
    start = start_field()
    rated = rated_field()


class CallSchema(Schema):
    type = type_field("call")
    value = Int(required=True, validate=validate.Range(1, 3))


class PickSchema(CallSchema):  # the same value, another phase
    type = type_field("pick")


class ToyMoveSchema(MoveUnion):
    TYPES = {"call": CallSchema, "pick": PickSchema}

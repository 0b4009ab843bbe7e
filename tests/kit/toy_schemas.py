"""The toy game's option and move schemas: all a game adds to the kit besides rules."""

from __future__ import annotations

from marshmallow import Schema, validate

from shared.http.schemas import (
    Int,
    KitOptionsSchema,
    MoveUnion,
    type_field,
)


class ToyOptionsSchema(KitOptionsSchema):
    PLAYERS = (2, 4)
    rounds = Int(load_default=3, validate=validate.Range(1, 10))


class CallSchema(Schema):
    type = type_field("call")
    value = Int(required=True, validate=validate.Range(1, 3))


class PickSchema(CallSchema):  # the same value, another phase
    type = type_field("pick")


class ToyMoveSchema(MoveUnion):
    TYPES = {"call": CallSchema, "pick": PickSchema}

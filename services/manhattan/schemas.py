"""Marshmallow schemas of Manhattan's options and moves (the API validates with these
before the engine sees anything; the engine checks the rules)."""

from __future__ import annotations

from marshmallow import Schema, validate

from shared.schemas import (
    Bool,
    Int,
    MoveUnion,
    clock_field,
    int_list,
    players_field,
    seed_field,
    type_field,
)


class ManhattanOptionsSchema(Schema):
    players = players_field(2, 4)
    six_rounds = Bool(
        load_default=False, metadata={"description": "6 rounds of 4 pieces (else 4 of 6)."}
    )
    promo_cards = Bool(load_default=False, metadata={"description": "Use the promotion cards."})
    seed = seed_field()
    clock = clock_field()


class SelectSchema(Schema):
    type = type_field("select")
    pieces = int_list(1, 4, (1, 6), "Floor sizes of the pieces taken for this round.")


class PlaceSchema(Schema):
    type = type_field("place")
    city = Int(required=True, validate=validate.Range(1, 6))
    lot = Int(required=True, validate=validate.Range(1, 9), metadata={"description": "Board lot."})
    floors = Int(required=True, validate=validate.Range(1, 4))


class DiscardSchema(Schema):
    type = type_field("discard")
    lot = Int(required=True, validate=validate.Range(1, 9))


class ForfeitSchema(Schema):
    type = type_field("forfeit")
    floors = Int(required=True, validate=validate.Range(1, 4))


class ManhattanMoveSchema(MoveUnion):
    TYPES = {
        "select": SelectSchema,
        "place": PlaceSchema,
        "discard": DiscardSchema,
        "forfeit": ForfeitSchema,
    }

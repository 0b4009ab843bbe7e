"""Marshmallow schemas of Wind City's options and moves (the API validates with these
before the engine sees anything; the engine checks the rules)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from services.windcity.rules.options import (
    DEFAULTS,
    MAX_PLAYERS,
    MAX_TURNS_RANGE,
    MIN_PLAYERS,
    PLAY_AREAS,
)
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

SQUARE = validate.Regexp(r"^[A-L]([1-9]|1[0-9]|2[0-4])$", error="Not a square (A1..L24).")


def square(**kwargs: Any) -> fields.String:
    metadata = {"example": "C7", **kwargs.pop("metadata", {})}
    return fields.String(validate=SQUARE, metadata=metadata, **kwargs)


def squares(description: str, **kwargs: Any) -> fields.List:
    return fields.List(
        square(), validate=validate.Length(0, 60), metadata={"description": description}, **kwargs
    )


class WindCityOptionsSchema(Schema):
    players = players_field(MIN_PLAYERS, MAX_PLAYERS)
    play_area = fields.String(
        load_default=DEFAULTS["play_area"], validate=validate.OneOf(PLAY_AREAS)
    )
    score_money = Bool(load_default=DEFAULTS["score_money"])
    max_turns = Int(load_default=DEFAULTS["max_turns"], validate=validate.Range(*MAX_TURNS_RANGE))
    seed = seed_field()
    clock = clock_field()


class PlaceHurricaneSchema(Schema):
    type = type_field("place_hurricane")
    square = square(required=True)


class PlaceHouseSchema(Schema):
    type = type_field("place_house")
    square = square(required=True)


class PlanSchema(Schema):
    type = type_field("plan")
    actions = int_list(1, 5, (1, 3), "1-3 different action numbers of the drawn card, in order.")
    kauf = square(
        allow_none=True,
        load_default=None,
        metadata={"description": "Target house of a Kauf action, else null."},
    )
    renew = squares("Insured houses whose insurance is renewed.", load_default=list)


class InsureSchema(Schema):
    type = type_field("insure")
    squares = squares("Your houses to insure now (may be empty).", required=True)


class WindCityMoveSchema(MoveUnion):
    TYPES = {
        "place_hurricane": PlaceHurricaneSchema,
        "place_house": PlaceHouseSchema,
        "plan": PlanSchema,
        "insure": InsureSchema,
    }

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
from shared.http.schemas import (
    Bool,
    EventBase,
    Int,
    KitOptionsSchema,
    MoveUnion,
    event_type,
    int_list,
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


class WindCityOptionsSchema(KitOptionsSchema):
    PLAYERS = (MIN_PLAYERS, MAX_PLAYERS)
    play_area = fields.String(
        load_default=DEFAULTS["play_area"], validate=validate.OneOf(PLAY_AREAS)
    )
    score_money = Bool(load_default=DEFAULTS["score_money"])
    max_turns = Int(load_default=DEFAULTS["max_turns"], validate=validate.Range(*MAX_TURNS_RANGE))


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


# -- what the service answers (documentation only: shared/http/openapi.py) -----------------

REQ: dict = {"required": True}
PHASES = ["hurricane", "houses", "plan", "insure", "over"]
ENDS = ["north_edge", "last_player", "max_turns"]
BANK = "Seat number, or `bank`."


def ints(description: str) -> fields.List:
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


def square_list(description: str) -> fields.List:
    return fields.List(square(), required=True, metadata={"description": description})


class HouseSchema(Schema):
    square = square(required=True)
    owner = fields.Integer(**REQ)
    insured = fields.Boolean(**REQ)
    duplex = fields.Boolean(**REQ)
    beach = fields.Boolean(**REQ)


class ObservatorySchema(Schema):
    square = square(required=True)
    marker = fields.Boolean(
        required=True, metadata={"description": "Its marker is still there to take."}
    )


class SeatSchema(Schema):
    seat = fields.Integer(**REQ)
    money = fields.Integer(**REQ)
    stock = fields.Integer(required=True, metadata={"description": "Houses left to build."})
    houses_on_board = fields.Integer(**REQ)
    in_game = fields.Boolean(**REQ)


class CardActionSchema(Schema):
    kind = fields.String(required=True, metadata={"enum": ["move", "kauf"]})
    dir = fields.String(metadata={"enum": ["N", "S", "E", "W"], "description": "Moves only."})
    steps = fields.Integer(metadata={"description": "Moves only."})
    cost = fields.Integer(**REQ)


class CardSchema(Schema):
    number = fields.Integer(**REQ)
    actions = fields.List(fields.Nested(CardActionSchema), **REQ)


class PlannedSchema(Schema):
    actions = ints("Action numbers, in order.")
    kauf = square(required=True, allow_none=True)
    renew = square_list("Houses whose insurance is renewed.")


class PricedSquareSchema(Schema):
    square = square(required=True)
    price = fields.Integer(**REQ)


class YouSchema(Schema):
    seat = fields.Integer(**REQ)
    card = fields.Nested(
        CardSchema,
        required=True,
        allow_none=True,
        metadata={"description": "Your drawn card while you plan; else `null`."},
    )
    plan = fields.Nested(PlannedSchema, required=True, allow_none=True)
    renewable = fields.List(fields.Nested(PricedSquareSchema), **REQ)
    insurable = fields.List(fields.Nested(PricedSquareSchema), **REQ)


class WindCityStateSchema(Schema):
    phase = fields.String(required=True, metadata={"enum": PHASES})
    turn = fields.Integer(**REQ)
    max_turns = fields.Integer(**REQ)
    options = fields.Nested(WindCityOptionsSchema, **REQ)
    north_edge = fields.Integer(**REQ)
    land_sections = fields.Integer(**REQ)
    quota = fields.Integer(**REQ)
    beach_max = fields.Integer(**REQ)
    first = fields.Integer(**REQ)
    active = fields.Integer(required=True, allow_none=True)
    to_act = ints("Seats expected to act.")
    pending = ints("Seats still to answer the insurance market.")
    hurricane = square(required=True, allow_none=True)
    houses = fields.List(fields.Nested(HouseSchema), **REQ)
    observatories = fields.List(fields.Nested(ObservatorySchema), **REQ)
    players = fields.List(fields.Nested(SeatSchema), **REQ)
    deck_size = fields.Integer(**REQ)
    discard = ints("Card numbers discarded since the last reshuffle.")
    end = fields.String(required=True, allow_none=True, metadata={"enum": ENDS})
    you = fields.Nested(YouSchema, metadata={"description": "Only in a seat's own view."})


class SeatScoreSchema(Schema):
    seat = fields.Integer(**REQ)
    houses = fields.Integer(**REQ)
    beach = fields.Integer(**REQ)
    duplex = fields.Integer(**REQ)
    house_points = fields.Integer(**REQ)
    money = fields.Integer(**REQ)
    money_points = fields.Integer(**REQ)
    total = fields.Integer(**REQ)
    in_game = fields.Boolean(**REQ)


class WindCityScoreSchema(Schema):
    score_money = fields.Boolean(**REQ)
    seats = fields.List(fields.Nested(SeatScoreSchema), **REQ)


class StandingSchema(Schema):
    seat = fields.Integer(**REQ)
    rank = fields.Integer(**REQ)
    total = fields.Integer(**REQ)
    house_points = fields.Integer(**REQ)
    money = fields.Integer(**REQ)
    in_game = fields.Boolean(**REQ)


class WindCityResultSchema(Schema):
    reason = fields.String(required=True, metadata={"enum": ENDS})
    safety_stop = fields.Boolean(**REQ)
    turns = fields.Integer(**REQ)
    standings = fields.List(fields.Nested(StandingSchema), **REQ)
    winners = ints("The seats ranked first.")


def _event(name: str, **fields_: fields.Field) -> type[Schema]:
    """An event schema: ``type`` fixed to ``name`` plus ``fields_``."""
    cls_name = "".join(part.title() for part in name.split("_")) + "Event"
    return type(cls_name, (EventBase,), {"type": event_type(name), **fields_})


def seat_or_bank() -> fields.Raw:
    """A seat number, or ``"bank"``."""
    either = [{"type": "integer"}, {"type": "string", "enum": ["bank"]}]
    return fields.Raw(required=True, metadata={"description": BANK, "oneOf": either})


def _seat() -> fields.Integer:
    return fields.Integer(**REQ)


EVENTS: dict[str, type[Schema]] = {
    "hurricane_placed": _event("hurricane_placed", seat=_seat(), square=square(required=True)),
    "house_placed": _event("house_placed", seat=_seat(), square=square(required=True)),
    "deck_reshuffled": _event("deck_reshuffled", size=fields.Integer(**REQ)),
    "turn_started": _event("turn_started", seat=_seat(), turn=fields.Integer(**REQ)),
    "card_drawn": _event("card_drawn", seat=_seat()),
    "plan_made": _event(
        "plan_made",
        seat=_seat(),
        renew=square_list("Insurance renewed."),
        lapsed=square_list("Insurance lapsed."),
        paid=fields.Integer(**REQ),
    ),
    "insurance_market": _event(
        "insurance_market",
        seller=_seat(),
        pending=ints("Seats that may buy."),
        skipped=ints("Seats with nothing to insure."),
    ),
    "insured": _event(
        "insured", seat=_seat(), squares=square_list("Houses insured."), paid=fields.Integer(**REQ)
    ),
    "payment": _event(
        "payment",
        payer=seat_or_bank(),
        payee=seat_or_bank(),
        amount=fields.Integer(**REQ),
        reason=fields.String(
            required=True,
            metadata={"enum": ["actions", "renewal", "insurance", "observatory", "calm"]},
        ),
    ),
    "turn_revealed": _event(
        "turn_revealed",
        seat=_seat(),
        card=fields.Integer(**REQ),
        card_actions=fields.List(fields.Nested(CardActionSchema), **REQ),
        plan=ints("The action numbers played, in order."),
        kauf=square(required=True, allow_none=True),
    ),
    "hurricane_moved": _event(
        "hurricane_moved",
        seat=_seat(),
        action=fields.Integer(
            required=True, allow_none=True, metadata={"description": "`null` for the rest move."}
        ),
        dir=fields.String(required=True, metadata={"enum": ["N", "S", "E", "W"]}),
        squares=square_list("Squares entered."),
        lost_steps=fields.Integer(**REQ),
        left_board=fields.Boolean(**REQ),
        rest=fields.Boolean(metadata={"description": "Only on the rest move: `true`."}),
    ),
    "house_destroyed": _event(
        "house_destroyed",
        square=square(required=True),
        owner=fields.Integer(**REQ),
        pieces=fields.Integer(**REQ),
    ),
    "observatory_taken": _event("observatory_taken", seat=_seat(), square=square(required=True)),
    "calm_bonus": _event("calm_bonus", seat=_seat()),
    "kauf": _event("kauf", seat=_seat(), square=square(required=True)),
    "kauf_void": _event(
        "kauf_void", seat=_seat(), square=square(required=True), reason=fields.String(**REQ)
    ),
    "bankrupt": _event(
        "bankrupt",
        seat=_seat(),
        owed=fields.Integer(**REQ),
        paid=fields.Integer(**REQ),
        houses_removed=square_list("Houses taken off the board."),
    ),
    "game_over": _event(
        "game_over",
        reason=fields.String(required=True, metadata={"enum": ENDS}),
        result=fields.Nested(WindCityResultSchema, **REQ),
    ),
}
PAYLOADS = {
    "State": WindCityStateSchema,
    "Score": WindCityScoreSchema,
    "Result": WindCityResultSchema,
}

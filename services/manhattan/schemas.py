"""Marshmallow schemas of Manhattan's options and moves (the API validates with these
before the engine sees anything; the engine checks the rules)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.manhattan.rules.promos import PROMO_IDS
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


class ManhattanOptionsSchema(KitOptionsSchema):
    PLAYERS = (2, 4)
    six_rounds = Bool(
        load_default=False, metadata={"description": "6 rounds of 4 pieces (else 4 of 6)."}
    )
    promo_cards = Bool(load_default=False, metadata={"description": "Use the promotion cards."})


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


# -- what the service answers (documentation only: shared/http/openapi.py) -----------------

REQ: dict = {"required": True}
PHASES = ["select", "build", "over"]
PROMOS = list(PROMO_IDS)


def seats(description: str) -> fields.List:
    """One integer per seat, in seat order."""
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


def promo_card(description: str) -> fields.String:
    return fields.String(
        required=True, allow_none=True, metadata={"enum": PROMOS, "description": description}
    )


class PieceSchema(Schema):
    seat = fields.Integer(**REQ)
    floors = fields.Integer(**REQ)


class LotSchema(Schema):
    lot = fields.Integer(**REQ)
    pieces = fields.List(
        fields.Nested(PieceSchema), required=True, metadata={"description": "Bottom to top."}
    )
    height = fields.Integer(**REQ)
    owner = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Seat of the top piece."}
    )


class CitySchema(Schema):
    city = fields.Integer(**REQ)
    name = fields.String(**REQ)
    lots = fields.List(fields.Nested(LotSchema), **REQ)


class StockSchema(Schema):
    one = fields.Integer(data_key="1", **REQ)
    two = fields.Integer(data_key="2", **REQ)
    three = fields.Integer(data_key="3", **REQ)
    four = fields.Integer(data_key="4", **REQ)


class SeatSchema(Schema):
    seat = fields.Integer(**REQ)
    side = fields.String(required=True, metadata={"enum": ["S", "W", "N", "E"]})
    stock = fields.Nested(
        StockSchema, required=True, metadata={"description": "Pieces left in stock by floor count."}
    )
    selected = seats("Floor counts of the pieces selected for this round.")
    hand_size = fields.Integer(**REQ)
    forfeited = seats("Floor counts of the pieces forfeited this round.")
    score = fields.Integer(**REQ)


class RevealedPromoSchema(Schema):
    round = fields.Integer(**REQ)
    card = fields.String(required=True, metadata={"enum": PROMOS})
    scored = promo_card("The card scored for it (Fake News scores another); `null` until scored.")


class PromoSchema(Schema):
    enabled = fields.Boolean(**REQ)
    current = promo_card("This round's card.")
    revealed = fields.List(fields.Nested(RevealedPromoSchema), **REQ)


class HandCardSchema(Schema):
    card = fields.Integer(**REQ)
    lot = fields.Integer(required=True, metadata={"description": "The lot it allows, as you sit."})


class ManhattanStateSchema(Schema):
    phase = fields.String(required=True, metadata={"enum": PHASES})
    round = fields.Integer(**REQ)
    rounds = fields.Integer(**REQ)
    pieces_per_round = fields.Integer(**REQ)
    start_player = fields.Integer(**REQ)
    current_player = fields.Integer(required=True, allow_none=True)
    options = fields.Nested(ManhattanOptionsSchema, required=True)
    cities = fields.List(fields.Nested(CitySchema), **REQ)
    players = fields.List(fields.Nested(SeatSchema), **REQ)
    discard_pile = seats("Cards discarded since the last reshuffle.")
    deck_size = fields.Integer(**REQ)
    discards_this_turn = fields.Integer(
        required=True, metadata={"description": "Discards made this turn (at most 4)."}
    )
    promo = fields.Nested(PromoSchema, **REQ)
    you = fields.Integer(required=True, allow_none=True)
    hand = fields.List(
        fields.Nested(HandCardSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Your cards; `null` for a spectator."},
    )


class CategoriesSchema(Schema):
    buildings = seats("Points per seat.")
    majority = seats("Points per seat.")
    tallest = seats("Points per seat.")
    promo = seats("Points per seat.")


class RoundScoreSchema(Schema):
    round = fields.Integer(**REQ)
    promo = promo_card("The round's promotion card.")
    promo_scored = promo_card("The card scored (Fake News scores another).")
    categories = fields.Nested(CategoriesSchema, **REQ)


class ManhattanScoreSchema(Schema):
    totals = seats("Points so far per seat.")
    rounds = fields.List(fields.Nested(RoundScoreSchema), **REQ)


class StandingSchema(Schema):
    seat = fields.Integer(**REQ)
    rank = fields.Integer(**REQ)
    total = fields.Integer(**REQ)
    tallest = fields.Integer(**REQ)
    majorities = fields.Integer(**REQ)


class ManhattanResultSchema(Schema):
    standings = fields.List(fields.Nested(StandingSchema), **REQ)
    winners = seats("The seats ranked first.")


class DeckReshuffledEvent(EventBase):
    type = event_type("deck_reshuffled")
    size = fields.Integer(**REQ)


class PiecesSelectedEvent(EventBase):
    type = event_type("pieces_selected")
    seat = fields.Integer(**REQ)
    pieces = seats("Floor counts.")


class PiecePlacedEvent(EventBase):
    type = event_type("piece_placed")
    seat = fields.Integer(**REQ)
    card = fields.Integer(**REQ)
    city = fields.Integer(**REQ)
    lot = fields.Integer(**REQ)
    floors = fields.Integer(**REQ)
    height = fields.Integer(**REQ)
    owner = fields.Integer(**REQ)
    previous_owner = fields.Integer(required=True, allow_none=True)


class CardDiscardedEvent(EventBase):
    type = event_type("card_discarded")
    seat = fields.Integer(**REQ)
    card = fields.Integer(**REQ)
    lot = fields.Integer(**REQ)


class PieceForfeitedEvent(EventBase):
    type = event_type("piece_forfeited")
    seat = fields.Integer(**REQ)
    floors = fields.Integer(**REQ)


class RoundScoredEvent(EventBase):
    type = event_type("round_scored")
    round = fields.Integer(**REQ)
    promo = promo_card("The round's promotion card.")
    promo_scored = promo_card("The card scored.")
    categories = fields.Nested(CategoriesSchema, **REQ)
    totals = seats("Points so far per seat.")


class RoundStartedEvent(EventBase):
    type = event_type("round_started")
    round = fields.Integer(**REQ)
    start_player = fields.Integer(**REQ)
    promo = promo_card("The promotion card revealed.")


class GameOverEvent(EventBase):
    type = event_type("game_over")
    result = fields.Nested(ManhattanResultSchema, **REQ)


EVENTS = {
    "deck_reshuffled": DeckReshuffledEvent,
    "pieces_selected": PiecesSelectedEvent,
    "piece_placed": PiecePlacedEvent,
    "card_discarded": CardDiscardedEvent,
    "piece_forfeited": PieceForfeitedEvent,
    "round_scored": RoundScoredEvent,
    "round_started": RoundStartedEvent,
    "game_over": GameOverEvent,
}
PAYLOADS = {
    "State": ManhattanStateSchema,
    "Score": ManhattanScoreSchema,
    "Result": ManhattanResultSchema,
}

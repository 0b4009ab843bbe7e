"""The JSON objects Wind City hands out besides its state, as types: the moves (as
listed; a move that arrives is checked field by field), the public events, and the view,
score and result (docs/windcity.md describes each; the state is :mod:`.state`'s)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .cards import PublicAction
from .options import Options
from .state import EndReason, Phase, Plan

# --- moves -----------------------------------------------------------------------------


class PlaceHurricane(TypedDict):
    type: Literal["place_hurricane"]
    square: str


class PlaceHouse(TypedDict):
    type: Literal["place_house"]
    square: str


class PlanMove(TypedDict):
    type: Literal["plan"]
    actions: list[int]  # 1-3 of the card's actions, 1-based, in the order they happen
    kauf: str | None  # the Kauf target, when a chosen action is Kauf
    renew: list[str]  # own insured houses kept insured (the others lapse)


class InsureMove(TypedDict):
    type: Literal["insure"]
    squares: list[str]  # own uninsured houses to insure


WindCityMove = PlaceHurricane | PlaceHouse | PlanMove | InsureMove
MoveType = Literal["place_hurricane", "place_house", "plan", "insure"]

# --- events (public: never the card or the plan before it is revealed) ------------------
# (fields read only as string keys, which vulture cannot see as used, carry its V107 mark)

Party = int | Literal["bank"]  # a seat, or the bank


class HurricanePlaced(TypedDict):
    type: Literal["hurricane_placed"]
    seat: int
    square: str


class HousePlaced(TypedDict):
    type: Literal["house_placed"]
    seat: int
    square: str


class DeckReshuffled(TypedDict):
    type: Literal["deck_reshuffled"]
    size: int


class TurnStarted(TypedDict):
    type: Literal["turn_started"]
    seat: int
    turn: int


class CardDrawn(TypedDict):
    type: Literal["card_drawn"]
    seat: int


class PlanMade(TypedDict):
    type: Literal["plan_made"]
    seat: int
    renew: list[str]
    lapsed: list[str]
    paid: int


class Payment(TypedDict):
    type: Literal["payment"]
    payer: Party
    payee: Party
    amount: int
    reason: Literal["renewal", "insurance", "observatory", "calm", "actions"]


class InsuranceMarket(TypedDict):
    type: Literal["insurance_market"]
    seller: int
    pending: list[int]
    skipped: list[int]


class Insured(TypedDict):
    type: Literal["insured"]
    seat: int
    squares: list[str]
    paid: int


class TurnRevealed(TypedDict):
    type: Literal["turn_revealed"]
    seat: int
    card: int
    card_actions: list[PublicAction]  # noqa: V107
    plan: list[int]
    kauf: str | None


class KaufVoid(TypedDict):
    type: Literal["kauf_void"]
    seat: int
    square: str | None
    reason: str  # the rule that voids it (resolve.kauf_problem)


class Kauf(TypedDict):
    type: Literal["kauf"]
    seat: int
    square: str


class HouseDestroyed(TypedDict):
    type: Literal["house_destroyed"]
    square: str
    owner: int
    pieces: int


class HurricaneMoved(TypedDict):
    type: Literal["hurricane_moved"]
    seat: int
    action: int | None  # None: coming to rest
    dir: str
    squares: list[str]
    lost_steps: int  # noqa: V107
    left_board: bool  # noqa: V107
    rest: NotRequired[bool]  # present (true) when coming to rest


class ObservatoryTaken(TypedDict):
    type: Literal["observatory_taken"]
    seat: int
    square: str


class CalmBonus(TypedDict):
    type: Literal["calm_bonus"]
    seat: int


class Bankrupt(TypedDict):
    type: Literal["bankrupt"]
    seat: int
    owed: int
    paid: int
    houses_removed: list[str]  # noqa: V107


class GameOver(TypedDict):
    type: Literal["game_over"]
    reason: EndReason
    result: Result


WindCityEvent = (
    HurricanePlaced
    | HousePlaced
    | DeckReshuffled
    | TurnStarted
    | CardDrawn
    | PlanMade
    | Payment
    | InsuranceMarket
    | Insured
    | TurnRevealed
    | KaufVoid
    | Kauf
    | HouseDestroyed
    | HurricaneMoved
    | ObservatoryTaken
    | CalmBonus
    | Bankrupt
    | GameOver
)

# --- view, score, result ---------------------------------------------------------------


class HouseView(TypedDict):
    square: str
    owner: int
    insured: bool
    duplex: bool
    beach: bool


class ObservatoryView(TypedDict):
    square: str
    marker: bool


class PlayerView(TypedDict):
    seat: int
    money: int
    stock: int
    houses_on_board: int
    in_game: bool


class CardView(TypedDict):
    number: int
    actions: list[PublicAction]


class PricedSquare(TypedDict):
    square: str
    price: int


class YouView(TypedDict):
    """The viewing seat's own part of the view: its card and plan (the active seat's
    alone) and the houses it may renew or insure now."""

    seat: int
    card: CardView | None
    plan: Plan | None
    renewable: list[PricedSquare]
    insurable: list[PricedSquare]


class View(TypedDict):
    phase: Phase
    turn: int
    max_turns: int
    options: Options
    north_edge: int
    land_sections: int
    quota: int
    beach_max: int
    first: int
    active: int | None
    to_act: list[int]
    pending: list[int]
    hurricane: str | None
    houses: list[HouseView]
    observatories: list[ObservatoryView]
    players: list[PlayerView]
    deck_size: int
    discard: list[int]
    end: EndReason | None
    you: NotRequired[YouView]  # a seat's view only


class ScoreRow(TypedDict):
    seat: int
    houses: int  # plain houses
    beach: int  # beach houses
    duplex: int
    house_points: int
    money: int
    money_points: int
    total: int
    in_game: bool


class Score(TypedDict):
    score_money: bool
    seats: list[ScoreRow]


class Standing(TypedDict):
    seat: int
    rank: int
    total: int
    house_points: int
    money: int
    in_game: bool


class Result(TypedDict):
    reason: EndReason | None
    safety_stop: bool
    turns: int
    standings: list[Standing]
    winners: list[int]

"""Applying a move: ``apply_move`` (the checks, a copy of the parts the move changes, the
events) and the in-place steps that are the moves' rules.

Each move's rule is written once, as an in-place step on a state that owns the parts it
changes (:func:`choose`, :func:`build`, :func:`toss`, :func:`give_up`). Two paths run it:
``apply_move`` checks the move, copies exactly the parts it changes (so earlier states
stay valid, sharing the rest) and collects the events; :func:`playpath.play` runs the
step on a fork as it is, with no checks and no events (playouts and search). The last
piece of a round ends it (:mod:`.round_end`); what a seat may do now: :mod:`.listing`.
"""

from __future__ import annotations

from bisect import insort

from shared.engine import Event, Move, RuleError
from shared.rng import shuffle

from .board import CITIES, LOTS
from .cards import SIDES_BY_COUNT, UNROTATION
from .listing import floors_needed, placements, stuck_move
from .options import rounds
from .round_end import end_round
from .state import ManhattanState

MOVE_FIELDS = {
    "select": ("pieces",),
    "place": ("city", "lot", "floors"),
    "discard": ("lot",),
    "forfeit": ("floors",),
}
_KEYS = {t: frozenset(("type", *f)) for t, f in MOVE_FIELDS.items()}


def _int(move: Move, key: str, lo: int, hi: int) -> int:
    v = move.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RuleError("bad-move", "{key!r} must be an integer {lo}-{hi}", key=key, lo=lo, hi=hi)
    return v


def _fields_error(kind: str) -> RuleError:
    return RuleError(
        "bad-move",
        "a {kind!r} move has exactly the fields {fields}",
        kind=kind,
        fields=sorted(_KEYS[kind]),
    )


CARD = {n: tuple((0, *UNROTATION[side]) for side in sides) for n, sides in SIDES_BY_COUNT.items()}
"""``[players][seat][lot]``: the printed card that allows board ``lot`` (1-9) from that
seat's side."""


def piece_counts(pieces: list[int]) -> tuple[int, int, int, int]:
    """How many pieces of 1, 2, 3 and 4 floors ``pieces`` holds."""
    return (pieces.count(1), pieces.count(2), pieces.count(3), pieces.count(4))


# The apply path: checks, copies of the parts a move changes, the in-place step, events.


def apply_move(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    """The state after ``move`` and its public events; raises RuleError, changing nothing."""
    phase = state["phase"]
    if phase == "over":
        raise RuleError("game-over", "the game is over")
    if seat != state["current_player"] or type(seat) is not int:
        raise RuleError("not-your-turn", "it is seat {seat}'s turn", seat=state["current_player"])
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move must be an object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise RuleError("unknown-move", "unknown move type {kind!r}", kind=kind)
    if (kind == "select") != (phase == "select"):
        raise RuleError("wrong-phase", "no {kind!r} in the {phase} phase", kind=kind, phase=phase)
    if kind == "place":  # the common move: the same field check, spelled out (cheaper)
        if len(move) != 4 or "city" not in move or "lot" not in move or "floors" not in move:
            raise _fields_error(kind)
        return _place(state, seat, move)
    if move.keys() != _KEYS[kind]:
        raise _fields_error(kind)
    if kind == "select":
        return _select(state, seat, move)
    if kind == "discard":
        return _discard(state, seat, move)
    return _forfeit(state, seat, move)


def _select(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    pieces = move["pieces"]
    if not isinstance(pieces, list):
        raise RuleError("bad-move", "'pieces' must be a list of floor sizes 1-4")
    for p in pieces:
        if type(p) is not int or not 1 <= p <= 4:
            raise RuleError("bad-move", "'pieces' must be a list of floor sizes 1-4")
    k = rounds(state["options"])[1]
    if len(pieces) != k:
        raise RuleError("invalid-selection", "select exactly {k} pieces", k=k)
    counts = piece_counts(pieces)
    for c, h in zip(counts, state["stock"][seat], strict=True):
        if c > h:
            raise RuleError("invalid-selection", "those pieces are not in your stock")
    new = state.copy()
    new["stock"] = list(state["stock"])
    new["selected"] = list(state["selected"])
    events: list[Event] = []
    choose(new, seat, counts, pieces, events)
    return new, events


def _place(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    city, lot, floors = move["city"], move["lot"], move["floors"]
    if not (
        type(city) is int
        and 1 <= city <= CITIES
        and type(lot) is int
        and 1 <= lot <= LOTS
        and type(floors) is int
        and 1 <= floors <= 4
    ):  # the slow checks name the first bad field
        city = _int(move, "city", 1, CITIES)
        lot = _int(move, "lot", 1, LOTS)
        floors = _int(move, "floors", 1, 4)
    card = CARD[state["num_players"]][seat][lot]
    hand = state["hands"][seat]
    if card not in hand:
        raise RuleError("lot-not-on-card", "no card in your hand allows lot {lot}", lot=lot)
    mine = state["selected"][seat]
    if floors not in mine:
        raise RuleError(
            "piece-not-selected", "you have no selected {floors}-floor piece", floors=floors
        )
    i = (city - 1) * LOTS + lot - 1
    building = state["board"][i]
    if building and building[-1] // 10 != seat:
        need = building[0] % 10 if len(building) == 1 else floors_needed(seat, tuple(building))
        if floors < need:
            raise RuleError(
                "insufficient-floors", "you need a piece of at least {need} floors here", need=need
            )
    tall = floors  # the building's height after the move (a loop: no comprehension frame)
    for p in building:
        tall += p % 10
    new = state.copy()
    new["board"] = list(state["board"])
    sel = new["selected"] = list(state["selected"])
    sel[seat] = list(mine)
    hands = new["hands"] = list(state["hands"])
    hands[seat] = list(hand)
    new["discard_pile"] = list(state["discard_pile"])
    new["deck"] = list(state["deck"])
    events: list[Event] = [
        {
            "type": "piece_placed",
            "seat": seat,
            "city": city,
            "lot": lot,
            "floors": floors,
            "card": card,
            "owner": seat,
            "previous_owner": building[-1] // 10 if building else None,
            "height": tall,
        }
    ]
    build(new, seat, i, floors, card, events)
    return new, events


def _discard(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    lot = _int(move, "lot", 1, LOTS)
    if placements(state, seat) or stuck_move(state, seat) != "discard":
        raise RuleError("discard-not-allowed", "you may only discard when you cannot build")
    card = CARD[state["num_players"]][seat][lot]
    if card not in state["hands"][seat]:
        raise RuleError("card-not-in-hand", "no card in your hand allows lot {lot}", lot=lot)
    new = state.copy()
    hands = new["hands"] = list(state["hands"])
    hands[seat] = list(hands[seat])
    new["discard_pile"] = list(state["discard_pile"])
    new["deck"] = list(state["deck"])
    events: list[Event] = [{"type": "card_discarded", "seat": seat, "card": card, "lot": lot}]
    toss(new, seat, card, events)
    return new, events


def _forfeit(state: ManhattanState, seat: int, move: Move) -> tuple[ManhattanState, list[Event]]:
    floors = _int(move, "floors", 1, 4)
    if placements(state, seat) or stuck_move(state, seat) != "forfeit":
        raise RuleError("forfeit-not-allowed", "you may only forfeit when nothing can be built")
    if floors not in state["selected"][seat]:
        raise RuleError(
            "piece-not-selected", "you have no selected {floors}-floor piece", floors=floors
        )
    new = state.copy()
    sel = new["selected"] = list(state["selected"])
    sel[seat] = list(sel[seat])
    new["forfeited"] = list(state["forfeited"])
    events: list[Event] = []
    give_up(new, seat, floors, events)
    return new, events


# The steps: each rule once. ``new`` owns what a step changes in place (apply_move's copy
# or a fork); ``events`` collects the public events, or is None when nobody wants them.


def choose(
    new: ManhattanState,
    seat: int,
    counts: tuple[int, int, int, int],
    pieces: list[int],
    events: list[Event] | None,
) -> None:
    """select: the pieces leave the stock for this round's selection; the next seat
    selects, or the build phase starts."""
    stock = new["stock"]
    have = stock[seat]  # spelled out: cheaper than a comprehension over zip
    stock[seat] = [
        have[0] - counts[0],
        have[1] - counts[1],
        have[2] - counts[2],
        have[3] - counts[3],
    ]
    new["selected"][seat] = chosen = sorted(pieces)
    nxt = (seat + 1) % new["num_players"]
    if nxt == new["start_player"]:
        new["phase"] = "build"
    new["current_player"] = nxt
    if events is not None:
        events.append({"type": "pieces_selected", "seat": seat, "pieces": list(chosen)})


def build(
    new: ManhattanState, seat: int, i: int, floors: int, card: int, events: list[Event] | None
) -> None:
    """place: the piece tops building ``i`` (a new list: states share buildings), the
    card is played and replaced, the turn passes."""
    board = new["board"]
    board[i] = board[i] + [seat * 10 + floors]
    new["selected"][seat].remove(floors)
    _spend(new, seat, card, events)
    _advance(new, seat, events)


def toss(new: ManhattanState, seat: int, card: int, events: list[Event] | None) -> None:
    """discard: a stuck player plays ``card`` for nothing and draws; the turn stays."""
    new["discards_this_turn"] += 1
    _spend(new, seat, card, events)


def give_up(new: ManhattanState, seat: int, floors: int, events: list[Event] | None) -> None:
    """forfeit: a selected piece leaves the game; the turn passes."""
    new["selected"][seat].remove(floors)
    forfeited = new["forfeited"]
    forfeited[seat] = sorted(forfeited[seat] + [floors])
    if events is not None:
        events.append({"type": "piece_forfeited", "seat": seat, "floors": floors})
    _advance(new, seat, events)


def _spend(new: ManhattanState, seat: int, card: int, events: list[Event] | None) -> None:
    """``card`` goes from the hand to the discard pile and the player draws one, after
    reshuffling the discard pile into the deck if the deck is empty."""
    hand = new["hands"][seat]
    hand.remove(card)
    new["discard_pile"].append(card)
    deck = new["deck"]
    if not deck:
        new["rng"], deck = shuffle(new["rng"], new["discard_pile"])
        new["deck"] = deck
        new["discard_pile"] = []
        if events is not None:
            events.append({"type": "deck_reshuffled", "size": len(deck)})
    insort(hand, deck.pop())


_AFTER = {
    n: tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))
    for n in SIDES_BY_COUNT
}
"""``[players][seat]``: every seat clockwise after ``seat``, ending with ``seat`` itself."""


def _advance(new: ManhattanState, seat: int, events: list[Event] | None) -> None:
    """Pass the turn clockwise to the next seat with pieces left, or end the round."""
    new["discards_this_turn"] = 0
    sel = new["selected"]
    for s in _AFTER[new["num_players"]][seat]:
        if sel[s]:
            new["current_player"] = s
            return
    end_round(new, events)

"""Automatic resolution of a turn once every insurance answer is in: movement with
wrap-around, destruction, coming to rest, observatory, calm bonus, Kauf, payment and
bankruptcy (then :func:`turn.end_turn`: the end checks and the next player's draw).

:func:`resolve` walks the plan's actions; each step is a function of its own over a
:class:`.hurricane.Turn`, the resolution in progress (the hurricane's square, what it
touched, the houses, stock and money being changed), the movement in
:mod:`.hurricane`.
"""

from __future__ import annotations

from . import board
from .cards import CARDS, KAUF, PUBLIC_CARDS
from .hurricane import Turn, come_to_rest, move
from .shapes import WindCityEvent
from .state import DUPLEX, House, WindCityState
from .turn import end_turn

OBSERVATORY_MARKER = 5
CALM_BONUS = 3
_NAMES = board.NAMES
_ROW = board.ROW
_NC = board.NCOLS
_BEACH = board.BEACH_ROW
# which of the five printed actions of each card is Kauf
_IS_KAUF = {n: tuple(a[0] == KAUF for a in acts) for n, acts in CARDS.items()}


def resolve(state: WindCityState, events: list[WindCityEvent] | None, owned: bool) -> None:
    """Resolve the active player's turn in place on ``state``: with ``owned`` (a fork)
    its houses, money, stock, observatories and alive flags are edited, else replaced by
    changed copies (``state`` being a fresh copy); ``events`` (``None``: not wanted) gets
    the public events."""
    card_no = state["card"]
    plan = state["plan"]
    hurricane = state["hurricane"]
    assert card_no is not None and plan is not None and hurricane is not None  # (a turn's)
    card = CARDS[card_no]
    actions = plan["actions"]
    turn = Turn(state, events, owned, hurricane)
    if events is not None:
        events.append(
            {
                "type": "turn_revealed",
                "seat": turn.seat,
                "card": card_no,
                "card_actions": [a.copy() for a in PUBLIC_CARDS[card_no]],
                "plan": list(actions),
                "kauf": plan["kauf"],
            }
        )
    is_kauf = _IS_KAUF[card_no]
    last_move = 0
    for i, a in enumerate(actions):
        if not is_kauf[a - 1]:
            last_move = i
    cost = 0
    for i, a in enumerate(actions):
        kind, steps, price = card[a - 1]
        if kind == KAUF:
            if _kauf(turn, plan["kauf"]):
                cost += price
            continue
        cost += price
        move(turn, a, kind, steps)
        if turn.left:
            break
        if i == last_move:
            come_to_rest(turn)
            if turn.left:
                break
            _observatory(turn)
            _calm_bonus(turn)
    _settle(turn, card_no, cost, events)


def _kauf(turn: Turn, sq: str | None) -> bool:
    """The plan's Kauf on ``sq``: made (the house becomes a duplex) or voided."""
    seat = turn.seat
    why = kauf_problem(turn.state, turn.houses, turn.stock, seat, sq, turn.row)
    if why is not None:
        if turn.log:
            turn.append({"type": "kauf_void", "seat": seat, "square": sq, "reason": why})
        return False
    assert sq is not None  # (else "not-your-house")
    turn.own_houses()[sq] = DUPLEX[seat]
    turn.own_stock()[seat] -= 1
    if turn.log:
        turn.append({"type": "kauf", "seat": seat, "square": sq})
    return True


def _observatory(turn: Turn) -> None:
    """Coming to rest on an observatory's square takes its marker: money from the bank."""
    state = turn.state
    sq = _NAMES[turn.row * _NC + turn.col]
    obs = state["observatories"]
    if not obs.get(sq):
        return
    if not turn.owned:
        obs = dict(obs)
        state["observatories"] = obs
    obs[sq] = False
    turn.money[turn.seat] += OBSERVATORY_MARKER
    if turn.log:
        turn.append({"type": "observatory_taken", "seat": turn.seat, "square": sq})
        turn.append(
            {
                "type": "payment",
                "payer": "bank",
                "payee": turn.seat,
                "amount": OBSERVATORY_MARKER,
                "reason": "observatory",
            }
        )


def _calm_bonus(turn: Turn) -> None:
    """Over land without touching a house: the calm bonus from the bank."""
    if not turn.land or turn.touched:
        return
    turn.money[turn.seat] += CALM_BONUS
    if turn.log:
        turn.append({"type": "calm_bonus", "seat": turn.seat})
        turn.append(
            {
                "type": "payment",
                "payer": "bank",
                "payee": turn.seat,
                "amount": CALM_BONUS,
                "reason": "calm",
            }
        )


def _settle(turn: Turn, card_no: int, cost: int, events: list[WindCityEvent] | None) -> None:
    """The turn's outcome into ``state``, the actions paid for (or bankruptcy), the card
    discarded, then :func:`turn.end_turn`."""
    state = turn.state
    seat = turn.seat
    money = turn.money
    state["hurricane"] = None if turn.left else _NAMES[turn.row * _NC + turn.col]
    state["houses"] = turn.houses
    state["stock"] = turn.stock
    state["money"] = money
    have = money[seat]
    paid = have if have < cost else cost
    if paid:
        money[seat] = have - paid
        if turn.log:
            turn.append(
                {
                    "type": "payment",
                    "payer": seat,
                    "payee": "bank",
                    "amount": paid,
                    "reason": "actions",
                }
            )
    if paid < cost:
        if turn.houses_shared:
            state["houses"] = dict(turn.houses)
        _bankrupt(state, seat, cost, paid, events, turn.owned)
    state["discard"] = state["discard"] + [card_no]
    state["card"] = None
    state["plan"] = None
    state["pending"] = []
    end_turn(state, turn.left, events)


def kauf_problem(
    state: WindCityState,
    houses: dict[str, House],
    stock: list[int],
    seat: int,
    sq: str | None,
    hrow: int,
) -> str | None:
    """Why a Kauf on ``sq`` is void right now, or None if it is legal."""
    if stock[seat] < 1:
        return "no-stock"
    if sq is None:
        return "not-your-house"
    h = houses.get(sq)
    if h is None or h.owner != seat:
        return "not-your-house"
    if h.pieces != 1:
        return "already-duplex"
    if h.insured:
        return "insured"
    if _ROW[sq] == _BEACH:
        return "beach-house"
    if hrow > state["north"] - 3:
        return "last-rows"
    if _ROW[sq] <= hrow:
        return "behind-hurricane"
    return None


def _bankrupt(
    state: WindCityState,
    seat: int,
    owed: int,
    paid: int,
    events: list[WindCityEvent] | None,
    owned: bool,
) -> None:
    """``seat`` leaves the game; its houses go back to its stock (``state``'s houses are
    already its own; stock and alive are copied first unless ``owned``)."""
    houses = state["houses"]
    gone = board.sort_squares(sq for sq, h in houses.items() if h.owner == seat)
    stock = state["stock"] if owned else list(state["stock"])
    for sq in gone:
        stock[seat] += houses[sq].pieces
        del houses[sq]
    state["stock"] = stock
    alive = state["alive"] if owned else list(state["alive"])
    alive[seat] = False
    state["alive"] = alive
    if events is not None:
        events.append(
            {"type": "bankrupt", "seat": seat, "owed": owed, "paid": paid, "houses_removed": gone}
        )

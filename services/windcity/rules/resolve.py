"""Automatic resolution of a turn once every insurance answer is in: movement with
wrap-around, destruction, coming to rest, observatory, calm bonus, Kauf, payment and
bankruptcy (then :func:`turn.end_turn`: the end checks and the next player's draw).

One function with local variables (no per-step method calls): this runs once per turn
and was the engine's hottest path.
"""

from __future__ import annotations

from collections.abc import Callable

from . import board
from .cards import CARDS, KAUF, PUBLIC_CARDS
from .shapes import WindCityEvent
from .state import DUPLEX, House, WindCityState
from .turn import end_turn

OBSERVATORY_MARKER = 5
CALM_BONUS = 3
_NAMES = board.NAMES
_POS = board.POS
_ROW = board.ROW
_NC = board.NCOLS
_BEACH = board.BEACH_ROW
_SEA_LAST = board.SEA_LAST_ROW
_DELTA = board.DELTA
_PATHS = board.PATHS
# card number -> index (0-based) of its last non-Kauf action in a plan is per plan, but
# which of the five printed actions is Kauf is per card:
_IS_KAUF = {n: tuple(a[0] == KAUF for a in acts) for n, acts in CARDS.items()}


def resolve(state: WindCityState, events: list[WindCityEvent] | None, owned: bool) -> None:
    """Resolve the active player's turn in place on ``state``: with ``owned`` (a fork)
    its houses, money, stock, observatories and alive flags are edited, else replaced by
    changed copies (``state`` being a fresh copy); ``events`` (``None``: not wanted) gets
    the public events."""
    seat = state["active"]
    card_no = state["card"]
    plan = state["plan"]
    hurricane = state["hurricane"]
    assert card_no is not None and plan is not None and hurricane is not None  # (a turn's)
    card = CARDS[card_no]
    actions = plan["actions"]
    kauf_sq = plan["kauf"]
    log = events is not None
    append: Callable[[WindCityEvent], None] = events.append if events is not None else _ignore
    if log:
        append(
            {
                "type": "turn_revealed",
                "seat": seat,
                "card": card_no,
                "card_actions": [a.copy() for a in PUBLIC_CARDS[card_no]],
                "plan": list(actions),
                "kauf": kauf_sq,
            }
        )
    north = state["north"]
    # houses and stock are copied before their first change unless owned
    old_houses: dict[str, House] | None
    old_stock: list[int] | None
    old_houses = houses = state["houses"]
    old_stock = stock = state["stock"]
    if owned:
        old_houses = old_stock = None
    col, row = _POS[hurricane]
    touched = False  # entered a square holding a house (insured or not)
    land = False  # entered a land square
    money = state["money"] if owned else list(state["money"])
    is_kauf = _IS_KAUF[card_no]
    last_move = 0
    for i, a in enumerate(actions):
        if not is_kauf[a - 1]:
            last_move = i
    last_dir = "N"
    cost = 0
    left = False
    for i, a in enumerate(actions):
        kind, steps, price = card[a - 1]
        if kind == KAUF:
            why = kauf_problem(state, houses, stock, seat, kauf_sq, row)
            if why is not None:
                if log:
                    append({"type": "kauf_void", "seat": seat, "square": kauf_sq, "reason": why})
                continue
            assert kauf_sq is not None  # (else "not-your-house")
            if houses is old_houses:
                houses = dict(houses)
            houses[kauf_sq] = DUPLEX[seat]
            if stock is old_stock:
                stock = list(stock)
            stock[seat] -= 1
            if log:
                append({"type": "kauf", "seat": seat, "square": kauf_sq})
            cost += price
            continue
        cost += price
        path = _PATHS.get((col, row, kind, steps, north))
        if path is None:
            path = board.path(col, row, kind, steps, north)
        entered, lost, left, col, row, crossed_land = path
        if entered:
            last_dir = kind
            if crossed_land:
                land = True
            for sq in entered:
                h = houses.get(sq)
                if h is not None:
                    touched = True
                    if not h.insured:
                        if houses is old_houses:
                            houses = dict(houses)
                        del houses[sq]
                        if stock is old_stock:
                            stock = list(stock)
                        stock[h.owner] += h.pieces
                        if log:
                            append(
                                {
                                    "type": "house_destroyed",
                                    "square": sq,
                                    "owner": h.owner,
                                    "pieces": h.pieces,
                                }
                            )
        if log:
            append(
                {
                    "type": "hurricane_moved",
                    "seat": seat,
                    "action": a,
                    "dir": kind,
                    "squares": list(entered),
                    "lost_steps": lost,
                    "left_board": left,
                }
            )
        if left:
            break
        if i != last_move:
            continue
        # Come to rest: step on past insured houses.
        h = houses.get(_NAMES[row * _NC + col])
        if h is not None and h.insured:
            d = last_dir
            rest: list[str] = []
            while True:
                if d == "E" or d == "W":
                    base = row * _NC
                    for c in range(_NC):
                        hc = houses.get(_NAMES[base + c])
                        if hc is None or not hc.insured:
                            break
                    else:
                        d = "N"  # a whole row of insured houses: lapping it would never end
                dc, dr = _DELTA[d]
                r = row + dr
                if r > north:
                    left = True
                    break
                if r < 1:  # cannot happen (no houses in the sea); never loop on row 1
                    break
                row = r
                col = (col + dc) % _NC
                sq = _NAMES[r * _NC + col]
                if r > _SEA_LAST:
                    land = True
                h = houses.get(sq)
                rest.append(sq)
                if h is None:
                    break
                touched = True
                if not h.insured:
                    if houses is old_houses:
                        houses = dict(houses)
                    del houses[sq]
                    if stock is old_stock:
                        stock = list(stock)
                    stock[h.owner] += h.pieces
                    if log:
                        append(
                            {
                                "type": "house_destroyed",
                                "square": sq,
                                "owner": h.owner,
                                "pieces": h.pieces,
                            }
                        )
                    break
            if log and (rest or left):  # else only a refused step south of row 1
                append(
                    {
                        "type": "hurricane_moved",
                        "seat": seat,
                        "action": None,
                        "dir": d,
                        "squares": rest,
                        "lost_steps": 0,
                        "left_board": left,
                        "rest": True,
                    }
                )
            if left:
                break
        # Observatory and calm bonus.
        sq = _NAMES[row * _NC + col]
        obs = state["observatories"]
        if obs.get(sq):
            if not owned:
                obs = dict(obs)
                state["observatories"] = obs
            obs[sq] = False
            money[seat] += OBSERVATORY_MARKER
            if log:
                append({"type": "observatory_taken", "seat": seat, "square": sq})
                append(
                    {
                        "type": "payment",
                        "payer": "bank",
                        "payee": seat,
                        "amount": OBSERVATORY_MARKER,
                        "reason": "observatory",
                    }
                )
        if land and not touched:
            money[seat] += CALM_BONUS
            if log:
                append({"type": "calm_bonus", "seat": seat})
                append(
                    {
                        "type": "payment",
                        "payer": "bank",
                        "payee": seat,
                        "amount": CALM_BONUS,
                        "reason": "calm",
                    }
                )
    # Off the board (None) once it has left the north edge.
    state["hurricane"] = None if left else _NAMES[row * _NC + col]
    state["houses"] = houses
    state["stock"] = stock
    state["money"] = money
    have = money[seat]
    paid = have if have < cost else cost
    if paid:
        money[seat] = have - paid
        if log:
            append(
                {
                    "type": "payment",
                    "payer": seat,
                    "payee": "bank",
                    "amount": paid,
                    "reason": "actions",
                }
            )
    if paid < cost:
        if houses is old_houses:
            state["houses"] = dict(houses)
        _bankrupt(state, seat, cost, paid, events, owned)
    state["discard"] = state["discard"] + [card_no]
    state["card"] = None
    state["plan"] = None
    state["pending"] = []
    end_turn(state, left, events)


def _ignore(event: WindCityEvent) -> None:
    """``append`` when no events are wanted (every call site checks ``log`` first)."""


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

"""Automatic resolution of a turn once every insurance answer is in: movement with
wrap-around, destruction, coming to rest, observatory, calm bonus, Kauf, payment and
bankruptcy, then the end checks and the next player's draw.

One function with local variables (no per-step method calls): this runs once per turn
and was the engine's hottest path.
"""

from __future__ import annotations

from typing import Any

from . import board
from .cards import CARDS, KAUF, PUBLIC_CARDS
from .turn import start_turn
from .views import result

OBSERVATORY_MARKER = 5
CALM_BONUS = 3
_NAMES = board.NAMES
_POS = board.POS
_ROW = board.ROW
_NC = board.NCOLS
_BEACH = board.BEACH_ROW
_SEA_LAST = board.SEA_LAST_ROW
_DELTA = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
# card number -> index (0-based) of its last non-Kauf action in a plan is per plan, but
# which of the five printed actions is Kauf is per card:
_IS_KAUF = {n: tuple(a[0] == KAUF for a in acts) for n, acts in CARDS.items()}


def resolve(state: dict[str, Any], events: list[dict[str, Any]] | None, owned: bool) -> None:
    """Resolve the active player's turn in place on ``state``: with ``owned`` (a fork)
    its houses, money, stock, observatories and alive flags are edited, else replaced by
    changed copies (``state`` being a fresh copy); ``events`` (``None``: not wanted) gets
    the public events."""
    seat = state["active"]
    card_no = state["card"]
    card = CARDS[card_no]
    plan = state["plan"]
    actions = plan["actions"]
    kauf_sq = plan["kauf"]
    log = events is not None
    append = events.append if events is not None else _ignore
    if log:
        append(
            {
                "type": "turn_revealed",
                "seat": seat,
                "card": card_no,
                "card_actions": list(map(dict, PUBLIC_CARDS[card_no])),
                "plan": list(actions),
                "kauf": kauf_sq,
            }
        )
    north = state["north"]
    # houses and stock are copied before their first change unless owned
    old_houses = houses = state["houses"]
    old_stock = stock = state["stock"]
    if owned:
        old_houses = old_stock = None
    col, row = _POS[state["hurricane"]]
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
            if houses is old_houses:
                houses = dict(houses)
            houses[kauf_sq] = [seat, 2, False]
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
            path = _path(col, row, kind, steps, north)
        entered, lost, left, col, row, crossed_land = path
        if entered:
            last_dir = kind
            if crossed_land:
                land = True
            for sq in entered:
                h = houses.get(sq)
                if h is not None:
                    touched = True
                    if not h[2]:
                        if houses is old_houses:
                            houses = dict(houses)
                        del houses[sq]
                        if stock is old_stock:
                            stock = list(stock)
                        stock[h[0]] += h[1]
                        if log:
                            append(
                                {
                                    "type": "house_destroyed",
                                    "square": sq,
                                    "owner": h[0],
                                    "pieces": h[1],
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
        if h is not None and h[2]:
            d = last_dir
            rest: list[str] = []
            while True:
                if d == "E" or d == "W":
                    base = row * _NC
                    for c in range(_NC):
                        hc = houses.get(_NAMES[base + c])
                        if hc is None or not hc[2]:
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
                if not h[2]:
                    if houses is old_houses:
                        houses = dict(houses)
                    del houses[sq]
                    if stock is old_stock:
                        stock = list(stock)
                    stock[h[0]] += h[1]
                    if log:
                        append(
                            {"type": "house_destroyed", "square": sq, "owner": h[0], "pieces": h[1]}
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
    _end_or_next(state, left, events)


Path = tuple[tuple[str, ...], int, bool, int, int, bool]
_PATHS: dict[tuple[int, int, str, int, int], Path] = {}
"""(column, row, direction, steps, northern row) -> the move's path, as :func:`_path`
found it: the board is fixed, so a move crosses the same squares every time."""


def _path(col: int, row: int, kind: str, steps: int, north: int) -> Path:
    """Where ``steps`` steps towards ``kind`` from (``col``, ``row``) go: the squares
    entered, the steps lost south of row 1, whether it left the north edge (and stopped
    there), the column and row it ends on, and whether it entered a land square."""
    key = (col, row, kind, steps, north)
    dc, dr = _DELTA[kind]
    squares = []
    lost = 0
    left = land = False
    for _ in range(steps):
        r = row + dr
        if r < 1:
            lost += 1
            continue
        if r > north:
            left = True
            break
        row = r
        col = (col + dc) % _NC
        squares.append(_NAMES[r * _NC + col])
        if r > _SEA_LAST:
            land = True
    path = _PATHS[key] = (tuple(squares), lost, left, col, row, land)
    return path


def _ignore(event: dict[str, Any]) -> None:
    """``append`` when no events are wanted (every call site checks ``log`` first)."""


def kauf_problem(
    state: dict[str, Any], houses: dict[str, Any], stock: list[int], seat: int, sq: str, hrow: int
) -> str | None:
    """Why a Kauf on ``sq`` is void right now, or None if it is legal."""
    if stock[seat] < 1:
        return "no-stock"
    h = houses.get(sq)
    if h is None or h[0] != seat:
        return "not-your-house"
    if h[1] != 1:
        return "already-duplex"
    if h[2]:
        return "insured"
    if _ROW[sq] == _BEACH:
        return "beach-house"
    if hrow > state["north"] - 3:
        return "last-rows"
    if _ROW[sq] <= hrow:
        return "behind-hurricane"
    return None


def _bankrupt(
    state: dict[str, Any],
    seat: int,
    owed: int,
    paid: int,
    events: list[dict[str, Any]] | None,
    owned: bool,
) -> None:
    """``seat`` leaves the game; its houses go back to its stock (``state``'s houses are
    already its own; stock and alive are copied first unless ``owned``)."""
    houses = state["houses"]
    gone = board.sort_squares(sq for sq, h in houses.items() if h[0] == seat)
    stock = state["stock"] if owned else list(state["stock"])
    for sq in gone:
        stock[seat] += houses[sq][1]
        del houses[sq]
    state["stock"] = stock
    alive = state["alive"] if owned else list(state["alive"])
    alive[seat] = False
    state["alive"] = alive
    if events is not None:
        events.append(
            {"type": "bankrupt", "seat": seat, "owed": owed, "paid": paid, "houses_removed": gone}
        )


def _end_or_next(state: dict[str, Any], left: bool, events: list[dict[str, Any]] | None) -> None:
    alive = state["alive"]
    reason = None
    if left:
        reason = "north_edge"
    elif sum(alive) <= 1:
        reason = "last_player"
    elif state["turn"] >= state["options"]["max_turns"]:
        reason = "max_turns"
    if reason is not None:
        finish(state, reason, events)
        return
    n = state["num_players"]
    nxt = (state["active"] + 1) % n
    while not alive[nxt]:
        nxt = (nxt + 1) % n
    start_turn(state, nxt, events)


def finish(state: dict[str, Any], reason: str, events: list[dict[str, Any]] | None) -> None:
    """End the game now (the result is computed from the final state on demand)."""
    state["phase"] = "over"
    state["end"] = reason
    state["pending"] = []
    if events is not None:
        events.append({"type": "game_over", "reason": reason, "result": result(state)})

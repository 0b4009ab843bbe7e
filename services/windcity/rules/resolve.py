"""Automatic resolution of a turn once every insurance answer is in: movement with
wrap-around, destruction, coming to rest, observatory, calm bonus, Kauf, payment and
bankruptcy, then the end checks and the next player's draw."""

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
_NC = board.NCOLS
_BEACH = board.BEACH_ROW
_DELTA = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


class _Turn:
    """Mutable scratch for one resolution; owns fresh copies of what it changes."""

    __slots__ = ("state", "seat", "houses", "stock", "events", "col", "row", "touched", "land")

    def __init__(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.state = state
        self.seat = state["active"]
        self.houses = dict(state["houses"])
        self.stock = state["stock"]
        self.events = events
        self.col, self.row = _POS[state["hurricane"]]
        self.touched = False  # entered a square holding a house (insured or not)
        self.land = False  # entered a land square

    def enter(self, sq: str) -> None:
        if self.row > 4:
            self.land = True
        h = self.houses.get(sq)
        if h is None:
            return
        self.touched = True
        if not h[2]:
            del self.houses[sq]
            if self.stock is self.state["stock"]:
                self.stock = list(self.stock)
            self.stock[h[0]] += h[1]
            self.events.append(
                {"type": "house_destroyed", "square": sq, "owner": h[0], "pieces": h[1]}
            )

    def step(self, d: str, north: int) -> str | None:
        """One step; returns the square entered, '' if lost (south of row 1), None if the
        hurricane left the north edge."""
        dc, dr = _DELTA[d]
        row = self.row + dr
        if row < 1:
            return ""
        if row > north:
            return None
        self.row = row
        self.col = (self.col + dc) % _NC
        sq = _NAMES[row * _NC + self.col]
        self.enter(sq)
        return sq

    def insured_here(self) -> bool:
        h = self.houses.get(_NAMES[self.row * _NC + self.col])
        return h is not None and h[2]

    def row_all_insured(self) -> bool:
        houses = self.houses
        base = self.row * _NC
        for c in range(_NC):
            h = houses.get(_NAMES[base + c])
            if h is None or not h[2]:
                return False
        return True


def resolve(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Resolve the active player's turn in place on the fresh copy ``state``."""
    events: list[dict[str, Any]] = []
    seat = state["active"]
    card_no = state["card"]
    card = CARDS[card_no]
    plan = state["plan"]
    actions = plan["actions"]
    kauf_sq = plan["kauf"]
    events.append(
        {
            "type": "turn_revealed",
            "seat": seat,
            "card": card_no,
            "card_actions": [dict(a) for a in PUBLIC_CARDS[card_no]],
            "plan": list(actions),
            "kauf": kauf_sq,
        }
    )
    north = state["north"]
    t = _Turn(state, events)
    money = list(state["money"])
    last_move = 0
    for i, a in enumerate(actions):
        if card[a - 1][0] != KAUF:
            last_move = i
    last_dir = "N"
    cost = 0
    left = False
    for i, a in enumerate(actions):
        kind, steps, price = card[a - 1]
        if kind == KAUF:
            if _kauf(state, t, kauf_sq):
                cost += price
            continue
        cost += price
        entered: list[str] = []
        lost = 0
        for _ in range(steps):
            sq = t.step(kind, north)
            if sq is None:
                left = True
                break
            if sq == "":
                lost += 1
            else:
                entered.append(sq)
                last_dir = kind
        events.append(
            {
                "type": "hurricane_moved",
                "seat": seat,
                "action": a,
                "dir": kind,
                "squares": entered,
                "lost_steps": lost,
                "left_board": left,
            }
        )
        if left:
            break
        if i == last_move:
            left = _come_to_rest(t, last_dir, north)
            if left:
                break
            _observatory_and_calm(state, t, money)
    # Off the board (None) once it has left the north edge.
    state["hurricane"] = None if left else _NAMES[t.row * _NC + t.col]
    state["houses"] = t.houses
    state["stock"] = t.stock
    state["money"] = money
    _pay(state, seat, cost, events)
    state["discard"] = state["discard"] + [card_no]
    state["card"] = None
    state["plan"] = None
    state["pending"] = []
    _end_or_next(state, left, events)
    return events


def _come_to_rest(t: _Turn, d: str, north: int) -> bool:
    """Step on past insured houses; returns True if that left the north edge."""
    entered: list[str] = []
    left = False
    while t.insured_here():
        if d in "EW" and t.row_all_insured():
            d = "N"  # a whole row of insured houses: lapping it would never end
        sq = t.step(d, north)
        if sq is None:
            left = True
            break
        if sq == "":  # cannot happen (no houses in the sea); never loop on row 1
            break
        entered.append(sq)
    if entered or left:
        t.events.append(
            {
                "type": "hurricane_moved",
                "seat": t.seat,
                "action": None,
                "dir": d,
                "squares": entered,
                "lost_steps": 0,
                "left_board": left,
                "rest": True,
            }
        )
    return left


def _observatory_and_calm(state: dict[str, Any], t: _Turn, money: list[int]) -> None:
    sq = _NAMES[t.row * _NC + t.col]
    seat = t.seat
    if state["observatories"].get(sq):
        obs = dict(state["observatories"])
        obs[sq] = False
        state["observatories"] = obs
        money[seat] += OBSERVATORY_MARKER
        t.events.append({"type": "observatory_taken", "seat": seat, "square": sq})
        t.events.append(
            {
                "type": "payment",
                "payer": "bank",
                "payee": seat,
                "amount": OBSERVATORY_MARKER,
                "reason": "observatory",
            }
        )
    if t.land and not t.touched:
        money[seat] += CALM_BONUS
        t.events.append({"type": "calm_bonus", "seat": seat})
        t.events.append(
            {
                "type": "payment",
                "payer": "bank",
                "payee": seat,
                "amount": CALM_BONUS,
                "reason": "calm",
            }
        )


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
    if board.ROW[sq] == _BEACH:
        return "beach-house"
    if hrow > state["north"] - 3:
        return "last-rows"
    if board.ROW[sq] <= hrow:
        return "behind-hurricane"
    return None


def _kauf(state: dict[str, Any], t: _Turn, sq: str) -> bool:
    seat = t.seat
    why = kauf_problem(state, t.houses, t.stock, seat, sq, t.row)
    if why is not None:
        t.events.append({"type": "kauf_void", "seat": seat, "square": sq, "reason": why})
        return False
    t.houses[sq] = [seat, 2, False]
    if t.stock is state["stock"]:
        t.stock = list(t.stock)
    t.stock[seat] -= 1
    t.events.append({"type": "kauf", "seat": seat, "square": sq})
    return True


def _pay(state: dict[str, Any], seat: int, cost: int, events: list[dict[str, Any]]) -> None:
    money = state["money"]
    have = money[seat]
    paid = min(have, cost)
    if paid:
        money[seat] = have - paid
        events.append(
            {"type": "payment", "payer": seat, "payee": "bank", "amount": paid, "reason": "actions"}
        )
    if paid < cost:
        _bankrupt(state, seat, cost, paid, events)


def _bankrupt(
    state: dict[str, Any], seat: int, owed: int, paid: int, events: list[dict[str, Any]]
) -> None:
    houses = state["houses"]
    gone = board.sort_squares(sq for sq, h in houses.items() if h[0] == seat)
    stock = list(state["stock"])
    for sq in gone:
        stock[seat] += houses[sq][1]
        del houses[sq]
    state["stock"] = stock
    alive = list(state["alive"])
    alive[seat] = False
    state["alive"] = alive
    events.append(
        {"type": "bankrupt", "seat": seat, "owed": owed, "paid": paid, "houses_removed": gone}
    )


def _end_or_next(state: dict[str, Any], left: bool, events: list[dict[str, Any]]) -> None:
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
    events.extend(start_turn(state, nxt))


def finish(state: dict[str, Any], reason: str, events: list[dict[str, Any]]) -> None:
    """End the game now (the result is computed from the final state on demand)."""
    state["phase"] = "over"
    state["end"] = reason
    state["pending"] = []
    events.append({"type": "game_over", "reason": reason, "result": result(state)})

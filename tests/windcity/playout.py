"""Helpers for the Wind City rules tests: constructed states and checked random playouts."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from services.windcity import rules as E
from services.windcity.rules import board
from services.windcity.rules.cards import CARDS, DECK, KAUF
from services.windcity.rules.parts import insurable, kauf_targets, renewable
from services.windcity.rules.placement import check_house, tally
from services.windcity.rules.state import House, typed
from shared.engine import RuleError


def build(
    n: int = 4,
    houses: Mapping[str, Sequence[Any]] | None = None,
    hurricane: str = "F1",
    card: int = 2,
    active: int = 0,
    money: list[int] | None = None,
    options: dict[str, Any] | None = None,
    turn: int = 1,
    alive: list[bool] | None = None,
) -> dict[str, Any]:
    """A state in the plan phase with exactly the given board (``houses``: square ->
    [owner, pieces, insured]); stocks hold the rest."""
    st = E.setup(n, options or {}, 1)
    st.pop("tally", None)  # setup-only bookkeeping
    board_houses = {sq: House(*h) for sq, h in (houses or {}).items()}
    stock = [12] * n
    for h in board_houses.values():
        stock[h.owner] -= h.pieces
    st.update(
        phase="plan",
        turn=turn,
        first=0,
        active=active,
        hurricane=hurricane,
        houses=board_houses,
        stock=stock,
        money=list(money) if money else [40] * n,
        card=card,
        deck=[c for c in DECK if c != card],
        discard=[],
        alive=list(alive) if alive else [True] * n,
    )
    return st


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def moved_squares(events: list[dict]) -> list[str]:
    """Every square the hurricane entered, in order, across all hurricane_moved events."""
    return [sq for e in events if e["type"] == "hurricane_moved" for sq in e["squares"]]


def answer_all(st: dict, events: list[dict] | None = None) -> tuple[dict, list[dict]]:
    """Every pending seat answers with no insurance; returns the state and all events."""
    events = list(events or [])
    while st["phase"] == "insure":
        st, ev = E.apply_move(st, st["pending"][0], {"type": "insure", "squares": []})
        events += ev
    return st, events


def pieces(st: dict, seat: int) -> int:
    return sum(h.pieces for h in st["houses"].values() if h.owner == seat)


def random_move(st: dict, seat: int, rnd: random.Random) -> dict:
    """A random legal move composed directly (any subset), not from legal_moves."""
    phase = st["phase"]
    if phase == "hurricane":
        return {"type": "place_hurricane", "square": board.name(rnd.randrange(12), 1)}
    if phase == "houses":
        return {"type": "place_house", "square": _placement(st, seat, rnd)}
    if phase == "plan":
        card = CARDS[st["card"]]
        while True:
            acts = rnd.sample(range(1, 6), rnd.randint(1, 3))
            if any(card[a - 1][0] != KAUF for a in acts):
                break
        kauf = None
        if any(card[a - 1][0] == KAUF for a in acts):
            targets = kauf_targets(typed(st), seat)
            if not targets:
                acts = [a for a in acts if card[a - 1][0] != KAUF]
            else:
                kauf = rnd.choice(targets)
        renew, budget = [], st["money"][seat]
        for sq, price in renewable(typed(st), seat):
            if sq != kauf and price <= budget and rnd.random() < 0.5:
                renew.append(sq)
                budget -= price
        return {"type": "plan", "actions": acts, "kauf": kauf, "renew": renew}
    squares, budget = [], st["money"][seat]
    for sq, price in insurable(typed(st), seat):
        if price <= budget and rnd.random() < 0.4:
            squares.append(sq)
            budget -= price
    return {"type": "insure", "squares": squares}


def _placement(st: dict, seat: int, rnd: random.Random) -> str:
    """A random square that passes every placement rule (tried against check_house)."""
    state = typed(st)
    t = tally(state)
    while True:
        sq = rnd.choice(_LAND[st["num_players"]])
        try:
            check_house(state, seat, sq, t)
        except RuleError:
            continue
        return sq


_LAND = {
    n: [sq for sq, (_, r) in board.POS.items() if 5 <= r <= board.north_edge(n, "used_sections")]
    for n in range(2, 6)
}


class Checker:
    """Invariants checked after every move of a playout."""

    def __init__(self, st: dict) -> None:
        self.n = st["num_players"]
        self.ledger = list(st["money"])  # rebuilt from payment events only

    def check(self, before: dict, after: dict, events: list[dict], seat: int, move: dict) -> None:
        on_board = [0] * self.n
        for h in after["houses"].values():
            on_board[h.owner] += h.pieces
        assert [b + s for b, s in zip(on_board, after["stock"], strict=True)] == [12] * self.n
        for e in events:
            assert isinstance(e, dict) and isinstance(e.get("type"), str)
            if e["type"] == "payment":
                assert e["amount"] > 0
                if e["payer"] != "bank":
                    self.ledger[e["payer"]] -= e["amount"]
                if e["payee"] != "bank":
                    self.ledger[e["payee"]] += e["amount"]
        assert self.ledger == after["money"], (self.ledger, after["money"])
        assert all(m >= 0 for m in after["money"])
        hur = after["hurricane"]
        if hur is not None:
            assert hur not in after["houses"]
        # Insured at resolution time = insured before, minus lapses, plus purchases.
        insured = {sq for sq, h in before["houses"].items() if h.insured}
        for e in events:
            if e["type"] == "plan_made":
                insured -= set(e["lapsed"])
            elif e["type"] == "insured":
                insured |= set(e["squares"])
            elif e["type"] == "house_destroyed":
                assert e["square"] not in insured
            elif e["type"] == "turn_started":
                break
        for e in events:  # nothing hidden before the reveal
            if e["type"] in ("card_drawn", "plan_made", "insured", "turn_started"):
                assert "card" not in e and "actions" not in e and "kauf" not in e
        if after["phase"] == "over":
            assert events[-1]["type"] == "game_over"


def play_game(seed: int, n: int, options: dict[str, Any]) -> dict:
    """A complete random game checked by :class:`Checker` after every move; returns the
    final state. Moves mix listed ones and :func:`random_move` (renewal and insurance
    subsets the listing leaves to the client); what every engine owes (listed moves
    apply, refusals change nothing, JSON, replay) is tests/contract/'s job."""
    rnd = random.Random(seed)
    st = E.setup(n, options, seed)
    checker = Checker(st)
    moves = 0
    while not E.is_over(st):
        seats = E.to_act(st)
        assert seats
        seat = rnd.choice(seats)
        listed = E.legal_moves(st, seat) if rnd.random() < 0.5 else []
        move = rnd.choice(listed) if listed else random_move(st, seat, rnd)
        new, events = E.apply_move(st, seat, move)
        checker.check(st, new, events, seat, move)
        st = new
        moves += 1
        assert moves < 5000
    assert E.to_act(st) == [] and E.result(st) is not None
    return st

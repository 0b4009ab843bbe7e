"""Hidden information as a property: the active seat's card and plan, the deck order and
the RNG state never change what any other seat (or a spectator) sees."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st_

from services.windcity import rules as E
from services.windcity.rules.cards import CARDS, KAUF
from services.windcity.rules.parts import kauf_targets
from services.windcity.rules.state import typed

from .playout import random_move


def midgame(seed: int, n: int, extra: int, opts: dict) -> dict | None:
    """A state in the plan or insure phase, reached by a random playout."""
    rnd = random.Random(seed)
    st = E.setup(n, opts, seed)
    while not E.is_over(st):
        if st["phase"] in ("plan", "insure") and extra <= 0:
            return st
        if st["phase"] in ("plan", "insure"):
            extra -= 1
        seat = rnd.choice(E.to_act(st))
        st, _ = E.apply_move(st, seat, random_move(st, seat, rnd))
    return None


def other_plan(st: dict, card: int, rnd: random.Random) -> dict:
    """A different secret plan for ``card`` with the same public renewals."""
    acts = CARDS[card]
    targets = kauf_targets(typed(st), st["active"])
    while True:
        order = rnd.sample(range(1, 6), rnd.randint(1, 3))
        kinds = [acts[a - 1][0] for a in order]
        if all(k == KAUF for k in kinds) or (KAUF in kinds and not targets):
            continue
        kauf = rnd.choice(targets) if KAUF in kinds else None
        return {"actions": order, "kauf": kauf, "renew": list(st["plan"]["renew"])}


def variant(st: dict, rnd: random.Random) -> dict:
    """Same public state; another card for the active seat, deck order, RNG and plan."""
    v = dict(st)
    pool = [st["card"], *st["deck"]]
    rnd.shuffle(pool)
    v["card"], v["deck"] = pool[0], pool[1:]
    v["rng"] = rnd.getrandbits(64)
    if st["plan"] is not None:
        v["plan"] = other_plan(st, v["card"], rnd)
    return v


@settings(max_examples=80, deadline=None)
@given(
    seed=st_.integers(0, 10_000),
    n=st_.integers(2, 5),
    extra=st_.integers(0, 12),
    full=st_.booleans(),
    vseed=st_.integers(0, 2**32),
)
def test_other_seats_see_nothing_hidden(seed, n, extra, full, vseed):
    st = midgame(seed, n, extra, {"play_area": "full"} if full else {})
    if st is None:
        return
    rnd = random.Random(vseed)
    v = variant(st, rnd)
    active = st["active"]
    for seat in [None, *range(n)]:
        if seat == active:
            continue
        assert E.view(v, seat) == E.view(st, seat)
        if seat is not None:
            assert E.legal_moves(v, seat) == E.legal_moves(st, seat)
    assert E.to_act(v) == E.to_act(st)
    assert E.score(v) == E.score(st)
    # control: the active seat does see its own card
    mine = E.view(v, active)["you"]
    assert mine["card"]["number"] == v["card"]
    if v["card"] != st["card"]:
        assert E.view(v, active) != E.view(st, active)


def test_view_contents():
    st = midgame(3, 4, 0, {})
    active = st["active"]
    v = E.view(st, active)
    assert v["you"]["card"]["number"] == st["card"] and v["you"]["plan"] is None
    assert len(v["you"]["card"]["actions"]) == 5
    for seat in range(4):
        if seat != active:
            assert E.view(st, seat)["you"]["card"] is None
    spectator = E.view(st, None)
    assert "you" not in spectator and spectator["deck_size"] == 24
    flat = repr(spectator)
    for secret in ("rng", "'deck'", "seed"):
        assert secret not in flat
    plan = {"type": "plan", "actions": [1, 2], "kauf": None, "renew": []}
    card = CARDS[st["card"]]
    if card[0][0] == KAUF or card[1][0] == KAUF:
        return
    st2, ev = E.apply_move(st, active, plan)
    if st2["phase"] == "insure":
        assert E.view(st2, active)["you"]["plan"]["actions"] == [1, 2]
        other = st2["pending"][0]
        assert E.view(st2, other)["you"]["plan"] is None
        ins = E.view(st2, other)["you"]["insurable"]
        mine = [sq for sq, h in st2["houses"].items() if h.owner == other and not h.insured]
        assert sorted(i["square"] for i in ins) == sorted(mine)

"""Wind City's bot strategies: ``choose(view, legal, rng) -> move``.

``view`` is the service's game view of the bot's seat (``state`` being
:func:`views.view`), ``legal`` its legal moves; a strategy sees only what the seat may
see. Shared by the CLI's ``bot`` command and the worker.

The greedy plan search simulates where a plan takes the hurricane (:func:`wc_simulate`)
on the public board; it is a simplified model of ``resolve`` (no Kauf resolution, no
payments) that the strategy uses only to rank plans.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


_WC_COLS = "ABCDEFGHIJKL"
_WC_DELTA = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def _sq(col: int, row: int) -> str:
    return f"{_WC_COLS[col]}{row}"


@functools.cache
def _pos(square: str) -> tuple[int, int]:
    """A square's column index and row (cached: the playouts ask for a few hundred)."""
    return _WC_COLS.index(square[0]), int(square[1:])


def _house_value(h: Json) -> int:
    return 20 if h.get("duplex") or h.get("beach") else 10


def wc_simulate(state: Json, seat: int, actions: list[int], renew: set[str]) -> Json:
    """Where a plan takes the hurricane, by the rules' movement, rest and bonus steps.

    Returns ``{"destroyed": {seat: points}, "lost": [squares], "cost", "left", "bonus",
    "row"}``. Houses of ``seat`` that are insured now lose their cover unless in
    ``renew`` (the plan's lapse).
    """
    card = state["you"]["card"]["actions"]
    north = state["north_edge"]
    houses = {}
    for h in state["houses"]:
        insured = h["insured"] and (h["owner"] != seat or h["square"] in renew)
        houses[h["square"]] = (h["owner"], _house_value(h), insured)
    col, row = _pos(state["hurricane"])
    destroyed: dict[int, int] = {}
    lost: list[str] = []
    touched = land = left = False
    cost = 0
    last_dir = "N"
    obs = {o["square"] for o in state["observatories"] if o.get("marker")}

    def enter(c: int, r: int) -> None:
        nonlocal touched, land
        if r > 4:
            land = True
        h = houses.get(_sq(c, r))
        if h is None:
            return
        touched = True
        if not h[2]:
            destroyed[h[0]] = destroyed.get(h[0], 0) + h[1]
            lost.append(_sq(c, r))
            del houses[_sq(c, r)]

    for a in actions:
        act = card[a - 1]
        cost += act.get("cost", 0)
        if act.get("kind") == "kauf":
            continue
        d = act["dir"]
        last_dir = d
        dc, dr = _WC_DELTA[d]
        for _ in range(act["steps"]):
            if row + dr < 1:
                continue
            if row + dr > north:
                left = True
                break
            col, row = (col + dc) % 12, row + dr
            enter(col, row)
        if left:
            break
    d = last_dir
    guard = 0
    while not left and houses.get(_sq(col, row), (0, 0, False))[2] and guard < 60:
        guard += 1
        if d in "EW" and all(houses.get(_sq(c, row), (0, 0, False))[2] for c in range(12)):
            d = "N"
        dc, dr = _WC_DELTA[d]
        if row + dr > north:
            left = True
            break
        if row + dr < 1:
            break
        col, row = (col + dc) % 12, row + dr
        enter(col, row)
    bonus = 0
    if not left:
        if _sq(col, row) in obs:
            bonus += 5
        if land and not touched:
            bonus += 3
    return {
        "destroyed": destroyed,
        "lost": lost,
        "cost": cost,
        "left": left,
        "bonus": bonus,
        "row": row,
    }


def _wc_totals(state: Json) -> dict[int, int]:
    pts = {p["seat"]: p["money"] for p in state["players"]}
    for h in state["houses"]:
        pts[h["owner"]] = pts.get(h["owner"], 0) + _house_value(h)
    return pts


def _me(state: Json, seat: int) -> Json:
    return next(p for p in state["players"] if p["seat"] == seat)


def _wc_plan(state: Json, seat: int, legal: list[Json], rng: random.Random) -> Json:
    """The plan with the best simulated outcome (see :func:`greedy`)."""
    me = _me(state, seat)
    money = me["money"]
    renew_price = {r["square"]: r["price"] for r in state["you"].get("renewable", [])}
    totals = _wc_totals(state)
    lead = totals[seat] - max((v for s, v in totals.items() if s != seat), default=0)
    alive = [p["seat"] for p in state["players"] if p.get("in_game", True) and p["seat"] != seat]
    north = state["north_edge"]
    best, best_v = legal[0], float("-inf")
    seen: set[tuple[tuple[int, ...], Any]] = set()
    for m in legal:
        key = (tuple(m["actions"]), m.get("kauf"))
        if key in seen:
            continue
        seen.add(key)
        # Renew only the covered houses of ours that this very plan would destroy.
        base = wc_simulate(state, seat, m["actions"], set())
        renew = [sq for sq in base["lost"] if sq in renew_price and sq != m.get("kauf")]
        renew_cost = sum(renew_price[sq] for sq in renew)
        if renew_cost and renew_cost <= money:
            outcome = wc_simulate(state, seat, m["actions"], set(renew))
        else:
            renew, renew_cost, outcome = [], 0, base
        spend = outcome["cost"] + renew_cost
        if spend > money + outcome["bonus"]:
            continue  # never go bankrupt on purpose
        v = -outcome["destroyed"].get(seat, 0) + outcome["bonus"] - spend
        v += 0.3 * sum(outcome["destroyed"].get(s, 0) for s in alive)
        if m.get("kauf") and me.get("stock", 0) > 0:
            krow = int(m["kauf"][1:])
            if krow > outcome["row"] and outcome["row"] < north - 2:
                v += 10
            else:
                v += outcome["cost"] - spend  # void Kauf is not paid; no gain either
        if outcome["left"]:
            v += 50 if lead - outcome["destroyed"].get(seat, 0) > 0 else -50
        v += rng.random() * 0.01
        if v > best_v:
            best_v = v
            best = {"type": "plan", "actions": m["actions"], "kauf": m.get("kauf"), "renew": renew}
    return best


def _wc_insure(state: Json, seat: int) -> Json:
    """Insure only our houses right in the hurricane's way (a few squares north of it).

    Insurance is paid to the active opponent, so it is a double loss unless the house
    is likely to be hit; against random and greedy play covering only houses within two
    rows north and one column of the hurricane wins far more games than covering
    everything in reach (measured with ``clients/cli/evaluate.py``).
    """
    budget = _me(state, seat)["money"] - 4  # keep something for our own turn's actions
    if not state.get("hurricane"):
        return {"type": "insure", "squares": []}
    hc, hr = _pos(state["hurricane"])
    picks, spent = [], 0
    for item in state["you"].get("insurable", []):
        c, r = _pos(item["square"])
        dc = min((c - hc) % 12, (hc - c) % 12)
        if 0 <= r - hr <= 2 and dc <= 1 and spent + item["price"] <= budget:
            picks.append(item["square"])
            spent += item["price"]
    return {"type": "insure", "squares": picks}


def _wc_place_house(state: Json, seat: int, legal: list[Json], rng: random.Random) -> Json:
    hc = _pos(state["hurricane"])[0] if state.get("hurricane") else 0
    mine_beach = sum(1 for h in state["houses"] if h["owner"] == seat and h["beach"])

    def value(m: Json) -> float:
        c, r = _pos(m["square"])
        dc = min((c - hc) % 12, (hc - c) % 12)
        v = r * 0.5 + dc
        if r == 5:
            v += 8 if mine_beach < 2 else -4
        return v + rng.random()

    return max(legal, key=value)


def greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Plans that spare our houses, hit others', take bonuses and stay solvent; insure
    only houses right in the hurricane's way; build far from it.
    """
    state = view["state"]
    seat = view["you"]
    kind = legal[0]["type"]
    if kind == "plan" and state.get("you", {}).get("card"):
        return _wc_plan(state, seat, legal, rng)
    if kind == "insure":
        return _wc_insure(state, seat)
    if kind == "place_house":
        return _wc_place_house(state, seat, legal, rng)
    return rng.choice(legal)


BOTS: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy}

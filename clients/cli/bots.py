"""Bot strategies, the loop that plays a seat over HTTP, and bot-only games.

A strategy is ``choose(view, legal, rng) -> move``: ``view`` is the service's game view
(``{"you", "to_act", "state", ...}``), ``legal`` the seat's legal moves. Strategies are
pure functions of what the seat may see, so they run the same against the service and
against an in-process engine (``clients/cli/evaluate.py``).

The server's worker plays bot seats with the same strategies from the rules packages
(``services/<game>/rules/bots.py``); this HTTP-only client may not import server code
(``tests/cli/test_boundary.py``), so it keeps its own copy: change both together.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from .client import GameClient, client_for, is_over, my_turn
from .errors import Conflict, PreconditionFailed, UnprocessableEntity

Json = dict[str, Any]
Strategy = Callable[[Json, list[Json], random.Random], Json]


def random_strategy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """A uniformly random legal move."""
    return rng.choice(legal)


# ----------------------------------------------------------------------------- Manhattan


def _mh_board(state: Json) -> list[list[tuple[int, int]]]:
    """54 buildings (index (city-1)*9 + lot-1), each a bottom-to-top list of (seat, floors)."""
    board: list[list[tuple[int, int]]] = [[] for _ in range(54)]
    for city in state["cities"]:
        for lot in city["lots"]:
            board[(city["city"] - 1) * 9 + lot["lot"] - 1] = [
                (p["seat"], p["floors"]) for p in lot["pieces"]
            ]
    return board


def mh_points(heights: list[int], owners: list[int | None], n: int) -> list[int]:
    """Points each seat would score if the round ended now (tallest 3, majority 2, 1/building)."""
    pts = [0] * n
    best = max(heights)
    if best and heights.count(best) == 1:
        pts[owners[heights.index(best)]] += 3  # type: ignore[index]
    for c in range(6):
        counts = [0] * n
        for o in owners[c * 9 : c * 9 + 9]:
            if o is not None:
                counts[o] += 1
                pts[o] += 1
        most = max(counts)
        if most and counts.count(most) == 1:
            pts[counts.index(most)] += 2
    return pts


def _exposure(building: list[tuple[int, int]], seat: int, n: int) -> float:
    """How easily an opponent could take ``building`` (its pieces) from ``seat`` (0 = safe)."""
    mine = sum(f for s, f in building if s == seat)
    worst = 0.0
    for other in range(n):
        if other == seat:
            continue
        theirs = sum(f for s, f in building if s == other)
        need = mine - theirs
        if need <= 4:
            worst = max(worst, (5 - max(need, 1)) / 4)
    return worst


def manhattan_greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
    """Place where the position's score lead grows most; select a balanced set of pieces.

    A placement is valued by (my points − best opponent's points) if the round were
    scored right after it, minus a small price for big pieces (they are worth keeping
    for take-overs) and for leaving the building easy to take back.
    """
    state = view["state"]
    seat = view["you"]
    kinds = {m["type"] for m in legal}
    if "place" in kinds:
        board = _mh_board(state)
        n = len(state["players"])
        heights = [sum(f for _, f in b) for b in board]
        owners: list[int | None] = [b[-1][0] if b else None for b in board]
        best, best_v = legal[0], float("-inf")
        for m in legal:
            if m["type"] != "place":
                continue
            i = (m["city"] - 1) * 9 + m["lot"] - 1
            h, o = heights.copy(), owners.copy()  # the board right after this placement
            h[i], o[i] = h[i] + m["floors"], seat
            pts = mh_points(h, o, n)
            lead = pts[seat] - max(p for s, p in enumerate(pts) if s != seat)
            risk = _exposure(board[i] + [(seat, m["floors"])], seat, n)
            v = lead - 0.25 * m["floors"] - 0.6 * risk + rng.random() * 0.01
            if v > best_v:
                best, best_v = m, v
        return best
    if "select" in kinds:
        me = state["players"][seat]
        stock = {int(k): v for k, v in me["stock"].items()}
        left = sum(stock.values()) or 1
        k = len(legal[0]["pieces"])
        ideal = {f: stock[f] * k / left for f in stock}

        def cost(m: Json) -> float:
            return sum(abs(m["pieces"].count(f) - ideal[f]) for f in ideal) - 0.05 * sum(
                m["pieces"]
            )

        return min(legal, key=cost)
    if "forfeit" in kinds:
        return min(legal, key=lambda m: m.get("floors", 0))
    return rng.choice(legal)


# ----------------------------------------------------------------------------- Wind City


_WC_COLS = "ABCDEFGHIJKL"
_WC_DELTA = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def _sq(col: int, row: int) -> str:
    return f"{_WC_COLS[col]}{row}"


def _pos(square: str) -> tuple[int, int]:
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
    """The plan with the best simulated outcome (see :func:`windcity_greedy`)."""
    me = _me(state, seat)
    money = me["money"]
    renew_price = {r["square"]: r["price"] for r in state["you"].get("renewable", [])}
    totals = _wc_totals(state)
    lead = totals[seat] - max((v for s, v in totals.items() if s != seat), default=0)
    alive = [p["seat"] for p in state["players"] if p.get("in_game", True) and p["seat"] != seat]
    north = state["north_edge"]
    best, best_v = legal[0], float("-inf")
    seen: set[tuple] = set()
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


def windcity_greedy(view: Json, legal: list[Json], rng: random.Random) -> Json:
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


STRATEGIES: dict[str, dict[str, Strategy]] = {
    "manhattan": {"random": random_strategy, "greedy": manhattan_greedy},
    "windcity": {"random": random_strategy, "greedy": windcity_greedy},
}


def strategy(game: str, name: str) -> Strategy:
    """The strategy ``name`` ("random" or "greedy") for ``game``."""
    try:
        return STRATEGIES[game][name]
    except KeyError:
        raise ValueError(f"no strategy {name!r} for {game!r}") from None


def play_seat(
    client: GameClient,
    game_id: str,
    choose: Strategy,
    *,
    rng: random.Random | None = None,
    on_move: Callable[[Json, Json], None] | None = None,
    turn_timeout: float | None = 300.0,
    poll_wait: float = 10.0,
) -> Json:
    """Play the client's seat (``client.token``) until the game ends; return the final view.

    Waits for each turn with :meth:`GameClient.wait_for_turn`; ``on_move(move, answer)``
    is called after every move made.
    """
    rng = rng or random.Random()

    def wait(view: Json | None = None) -> Json:
        return client.wait_for_turn(game_id, timeout=turn_timeout, poll_wait=poll_wait, view=view)

    fallback = False  # after our own choice was refused, play a listed move instead
    view = wait()
    while not is_over(view):
        if not my_turn(view):
            view = wait(view)
            continue
        legal = client.legal_moves(game_id)
        if not legal:
            view = wait()
            continue
        move = rng.choice(legal) if fallback else choose(view, legal, rng)
        try:
            answer = client.move(game_id, move, if_match=view.get("version"))
        except (Conflict, PreconditionFailed, UnprocessableEntity):
            fresh = client.view(game_id)  # the game moved on under us, or the move was bad
            fallback = fresh.get("version") == view.get("version")
            view = fresh
            continue
        fallback = False
        if on_move:
            on_move(move, answer)
        view = answer.get("game") or client.view(game_id)
    return view


def start_bots(
    game: str, url: str | None, gid: str, strategies: list[str], errors: list[BaseException]
) -> list[threading.Thread]:
    """Join one bot per strategy to an open game and start a thread playing each seat.

    The threads are daemons, so a bot's exception is appended to ``errors`` for the caller.
    """
    threads = []
    for i, name in enumerate(strategies):
        bot = client_for(game, url)
        bot.join(gid, f"{name}-bot-{i + 1}")
        choose = strategy(game, name)

        def run(bot: GameClient = bot, choose: Strategy = choose, i: int = i) -> None:
            try:
                play_seat(bot, gid, choose, rng=random.Random(i))
            except BaseException as exc:
                errors.append(exc)

        t = threading.Thread(target=run, name=f"bot-{game}-{i}", daemon=True)
        threads.append(t)
        t.start()
    return threads


def run_demo_game(
    game: str, url: str | None, seed: int | None, strategies: list[str]
) -> tuple[Json, Json]:
    """Create a game, seat one bot per strategy, start it, wait for the end: (view, score)."""
    host = client_for(game, url)
    gid = host.create(len(strategies), **({"seed": seed} if seed is not None else {}))["id"]
    errors: list[BaseException] = []
    threads = start_bots(game, url, gid, strategies, errors)
    host.start(gid)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return host.view(gid), host.score(gid)

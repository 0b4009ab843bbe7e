"""Playouts for the search: every seat to act plays until the end (or a horizon), then the
seat's reward is read.

Two policies, both seeing only a playout state (itself a redeal for the searching seat):

* **random**: a uniformly random listed move (``legal_actions``), the cheapest;
* **guided**: the game's ``greedy`` strategy (``engine.BOTS``) on that seat's view, asked
  to choose among ``k`` listed moves sampled at random (all of them when fewer), and a
  random listed move with probability ``epsilon``. Greedy is a good model of how the
  opponents (and the bot itself later) play, and choosing among a few sampled moves costs
  a fraction of a full greedy call: a playout is ~10 times dearer than a random one but
  judges a position far better (see docs/bots.md).

A greedy pick that is not a listed move (a filled-in subset: Wind City's insurance of
several squares, a plan's renewals) is applied with ``apply_move`` (checked) and the
playout goes on on a fork of the result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from shared.engine import Engine, Move, RuleError, State, Strategy


def reward(
    engine: Engine,
    state: State,
    seat: int,
    extra: dict[int, float] | None = None,
    scale: float = 0.0,
) -> float:
    """The seat's reward in [0, 1]: half its win share, half its rank share; from the
    final result when over, else from the public score totals (plus ``extra``)."""
    result = None if scale else engine.result(state)
    if result is not None:
        standings = result["standings"]
        n = len(standings)
        winners = result.get("winners") or []
        win = 1 / len(winners) if seat in winners else 0.0
        rank = next((s["rank"] for s in standings if s["seat"] == seat), n)
        return 0.5 * win + 0.5 * (n - rank) / max(n - 1, 1)
    totals = score_totals(engine.score(state))
    if extra:
        totals = {s: t + extra.get(s, 0.0) for s, t in totals.items()}
    if not totals:
        return 0.5
    mine = totals.get(seat, 0)
    if scale:
        lead = mine - max((t for s, t in totals.items() if s != seat), default=mine)
        below = sum(1 for s, t in totals.items() if s != seat and t < mine)
        ties = sum(1 for s, t in totals.items() if s != seat and t == mine)
        rank = (below + ties / 2) / max(len(totals) - 1, 1)
        return 0.5 / (1 + math.exp(-lead / scale)) + 0.5 * rank
    above = sum(1 for s, t in totals.items() if s != seat and t > mine)
    ties = sum(1 for s, t in totals.items() if s != seat and t == mine)
    n = len(totals)
    win = 1 / (ties + 1) if above == 0 else 0.0
    return 0.5 * win + 0.5 * (n - 1 - above - ties / 2) / max(n - 1, 1)


def score_totals(score: dict[str, Any]) -> dict[int, float]:
    """Each seat's total from :meth:`Engine.score`: ``{"totals": [...]}`` (Manhattan) or
    ``{"seats": [{"seat", "total"}]}`` (Wind City)."""
    if isinstance(score.get("totals"), list):
        return dict(enumerate(score["totals"]))
    seats = score.get("seats")
    if isinstance(seats, list):
        return {s["seat"]: s.get("total", 0) for s in seats if "seat" in s}
    return {}


def run(
    engine: Engine,
    state: State,
    rng: random.Random,
    horizon: int = 0,
    choose: Strategy | None = None,
    k: int = 6,
    epsilon: float = 0.0,
    scorings: int = 0,
    project: float = 0.0,
    guided_moves: int = 0,
    cut: int = 0,
) -> tuple[State, dict[int, float] | None]:
    """Moves by every seat to act from ``state`` (a fork, changed in place), to the end or
    ``horizon`` moves: random ones, or ``choose`` (greedy) among ``k`` sampled listed moves
    (``0``: among all of them; random with probability ``epsilon``). The state where it
    stopped and the projected extra points per seat (``None``: none), for any seat's
    :func:`reward`. With ``guided_moves``, only the first that many moves are ``choose``'s,
    the rest random (cheap: greedy's model near the root, random play to the cut-off).
    With ``cut``, it stops after that many moves where the engine has an estimate
    (:meth:`Engine.estimate`): the extra points are then ``1 + project`` times the board's
    points as if scored now (this round's scoring, and the rounds to come)."""
    moves = 0
    to_act = engine.to_act
    actions = engine.legal_actions
    play = engine.play
    seen = 0
    last = score_totals(engine.score(state)) if scorings else {}
    gain: dict[int, float] = {}
    while True:
        if scorings:
            now = score_totals(engine.score(state))
            if now != last:
                gain = {s: t - last.get(s, 0) for s, t in now.items()}
                last = now
                seen += 1
                if seen >= scorings:
                    break
        acting = to_act(state)
        if not acting or (horizon and moves >= horizon):
            break
        if cut and moves >= cut:
            points = engine.estimate(state)
            if points is not None:  # judged by the board now, as if scored
                return state, {s: (1 + project) * p for s, p in enumerate(points)}
        listed: Sequence[Move] = ()
        mover = -1
        for mover in acting:
            listed = actions(state, mover)
            if listed:
                break
        if not listed:
            break
        moves += 1
        if (
            choose is None
            or len(listed) == 1
            or (guided_moves and moves > guided_moves)
            or (epsilon and rng.random() < epsilon)
        ):
            play(state, mover, listed[int(rng.random() * len(listed))])
            continue
        options = list(listed) if not k or len(listed) <= k else rng.sample(list(listed), k)
        view = {"you": mover, "to_act": acting, "state": engine.view(state, mover)}
        pick = choose(view, options, rng)
        same = next((o for o in options if o is pick), None)
        if same is None:
            same = next((o for o in options if o == pick), None)
        if same is not None:
            play(state, mover, same)
            continue
        try:
            new, _ = engine.apply_move(state, mover, pick)
        except RuleError:
            play(state, mover, options[0])
            continue
        state = engine.fork(new)
    extra = {s: project * g for s, g in gain.items()} if project else None
    return state, extra

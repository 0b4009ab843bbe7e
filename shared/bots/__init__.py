"""Bots by level for any engine: ``decide(engine, state, seat, level, seed) -> move``.

Holds the levels a host or player may ask for (:data:`LEVELS`): ``random`` and ``greedy``
are the engine's own strategies (``engine.BOTS``) given the seat's view; ``medium`` and
``strong`` search (determinized Monte Carlo search over :meth:`Engine.redeal` with
greedy-guided playouts: information-set MCTS in Manhattan, sequential halving in Wind
City, see :mod:`shared.bots.ismcts`, :mod:`shared.bots.search`,
:mod:`shared.bots.playout` and docs/bots.md). Pure like the rules: this package imports
only shared/engine.py, shared/rng.py and the standard library (no I/O, no clock except
the search's optional time cap). It sits below the games layer, which plays a bot seat
with it; the worker, the environments (shared/rl) and benches import it too, the rules
never (they import only the engine contract and the RNG).

A decision is a function of what the seat may see and the seed: the search starts from
``engine.redeal(state, seat, salt)`` (salts drawn from the seed), never from ``state``'s
hidden parts, so two states that differ only in what the seat cannot see get the same
move (tests/bots/test_hidden.py), as long as the iteration budget, not the time cap,
ends the search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from shared.bots.ismcts import ismcts
from shared.bots.search import Plan, search
from shared.engine import Engine, Move, State

ViewOf = Callable[[State, int], dict[str, Any]]
"""Builds the view a strategy gets for a seat (shaped as a seat's view, ``Answers.view``)."""


@dataclass(frozen=True)
class Level:
    """A bot level: ``strategy`` (a name in ``engine.BOTS``), or a search ``plan`` (its
    budget), with per-game overrides in ``games`` (by ``engine.NAME``)."""

    strategy: str | None = None
    plan: Plan | None = None
    games: dict[str, Plan] = field(default_factory=dict)

    def plan_for(self, game: str) -> Plan | None:
        """The search plan for ``game`` (``None``: a strategy level)."""
        return self.games.get(game, self.plan)


def _plans(ms: float, manhattan: int, windcity: int, width: int, sampled: int) -> Level:
    """A search level at a time cap of ``ms`` and at most ``manhattan``/``windcity``
    iterations (about that cap's CPU on an idle core): Manhattan, information-set MCTS
    whose playouts are greedy's own replies (among every listed move) for 5 moves, then
    cut and judged by the board as if scored now (``Engine.estimate``, 2.5 times: this
    round's scoring and the rounds to come), or at the round's end if it comes first;
    Wind City, sequential halving with guided playouts 24 moves ahead (the smooth score
    lead)."""
    base = Plan(windcity, ms, width, sampled, guided=True, k=4)
    return Level(
        plan=base,
        games={
            "manhattan": replace(
                base, iterations=manhattan, scorings=1, project=1.5, tree=1, k=0, cut=5
            ),
            "windcity": replace(base, k=8, horizon=24, scale=15.0, margin=0.75),
        },
    )


LEVELS: dict[str, Level] = {
    "random": Level(strategy="random"),
    "greedy": Level(strategy="greedy"),
    "medium": _plans(25.0, 40, 28, 4, 1),
    "strong": _plans(100.0, 80, 110, 6, 2),
}
"""Every level by name, weakest first, with its budget per decision."""

SEARCH_LEVELS = tuple(name for name, level in LEVELS.items() if level.strategy is None)


def seat_view(engine: Engine, state: State, seat: int) -> dict[str, Any]:
    """The service-shaped view a strategy reads (``you``, ``to_act``, ``state``), as
    :meth:`shared.games.answers.Answers.view` gives a seat, from the engine alone."""
    return {
        "game": engine.NAME,
        "status": "finished" if engine.is_over(state) else "running",
        "you": seat,
        "to_act": engine.to_act(state),
        "state": engine.view(state, seat),
    }


def decide(
    engine: Engine,
    state: State,
    seat: int,
    level: str,
    seed: int,
    *,
    view: ViewOf | None = None,
    iterations: int | None = None,
    ms: float | None = None,
) -> Move:
    """The move of ``seat`` (one of ``engine.legal_moves(state, seat)``) at ``level``.

    ``view`` builds a strategy's view (default :func:`seat_view`); ``iterations`` and
    ``ms`` override the level's search budget (``ms=0``: no time cap). Deterministic for
    a given view of the seat and seed while the iterations bound the search.
    """
    spec = LEVELS[level]
    legal = engine.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal move")
    if len(legal) == 1:
        return legal[0]
    shown = view(state, seat) if view else seat_view(engine, state, seat)
    rng = random.Random(seed)
    plan = spec.plan_for(engine.NAME)
    if plan is None:
        choose = engine.BOTS.get(spec.strategy or "random") or engine.BOTS.get("random")
        return choose(shown, legal, rng) if choose else rng.choice(legal)
    if iterations is not None:
        plan = replace(plan, iterations=iterations)
    if ms is not None:
        plan = replace(plan, ms=ms or None)
    find = ismcts if plan.tree else search
    return find(engine, state, seat, legal, plan, seed, shown)

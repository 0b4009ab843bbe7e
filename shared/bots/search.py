"""Determinized Monte Carlo search from one seat, over :meth:`Engine.redeal`.

The search sees the game only through determinizations: each one is
``engine.redeal(state, seat, salt)`` with a salt drawn from the seed, so everything the
seat cannot see (other hands, deck order, the RNG) is redrawn, and what it can see (its
view, its legal moves) is kept. The real hidden parts of ``state`` are never read.

How a decision is made (an anytime best-arm search, game-agnostic):

1. **Candidates.** The engine's ``greedy`` strategy ranks the root's legal moves: asked
   again without its last pick, it names the next one, up to ``width`` moves (under a
   share of the time cap), and a few others are sampled from the rest. One move only:
   no search.
2. **Sequential halving with common random numbers.** Each round plays every remaining
   candidate on the same determinizations with the same playout seeds, so candidates
   are compared on equal luck, then keeps the better half, until one is left or the
   budget runs out: ``iterations`` playouts, or what fits in the time cap (the first
   determinization times a playout; the search stops before a playout that would end
   more than half a playout's time past the cap). Greedy's pick always stays in, and is
   played unless another candidate beat it on the same determinizations by ``margin``
   standard errors of the paired difference (noise alone rarely overturns the heuristic).
3. **Playouts** (:mod:`shared.bots.playout`) from a fork of the determinization after the
   candidate: every seat to act (several at once: Wind City's insurance answers, each in
   turn) plays a random listed move, or (``guided``) greedy's choice among ``k`` sampled
   listed moves, to the end, to ``horizon`` moves, or to the ``scorings``-th change of
   the public score totals (Manhattan: the end of the round).
4. **Reward** of the seat: ``0.5 * win share + 0.5 * rank share`` from
   :meth:`Engine.result` (ties split), or from the score totals where the playout stops
   (plus ``project`` times the last scoring's gain); with ``scale``, the win share is
   replaced by ``sigmoid(lead / scale)`` of the score lead (a finer signal than won/lost).

Moves with subset fields (:class:`~shared.engine.Choice`) are searched as listed, plus
greedy's filled-in pick; a candidate that is not a listed move is applied with
``apply_move`` (checked) and forked, the listed ones with ``play``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from shared.bots.playout import reward, run
from shared.engine import Engine, Move, RuleError, State, Strategy


@dataclass(frozen=True)
class Plan:
    """How much a search does: at most ``iterations`` playouts (each of one candidate on
    one determinization), at most ``ms`` of wall clock (``None``: no cap), ``width``
    candidates ranked by greedy plus ``sampled`` random ones; greedy's pick is kept unless
    beaten by ``margin`` standard errors. Playouts: random, or ``guided`` (greedy among
    ``k`` sampled moves, ``0``: among all; a random one with probability ``epsilon``);
    they stop after ``horizon`` moves (``0``: no limit), at the ``scorings``-th change of
    the score totals (``0``: no limit), where the totals plus ``project`` times the last
    change judge, or after ``cut`` moves (``0``: no cut) where the engine estimates the
    board (:meth:`Engine.estimate`, ``1 + project`` times); ``scale`` (``0``: off) turns
    the score lead into a smooth reward."""

    iterations: int
    ms: float | None = None
    width: int = 6
    sampled: int = 2
    horizon: int = 0
    margin: float = 1.0
    guided: bool = False
    k: int = 6
    epsilon: float = 0.0
    scorings: int = 0
    project: float = 0.0
    scale: float = 0.0
    tree: int = 0
    c: float = 0.7
    widen: float = 0.0
    widen_below: float = 1.0
    guided_moves: int = 0
    cut: int = 0


def _key(move: Move, fields: set[str]) -> tuple[tuple[str, str], ...]:
    """A move without its subset fields, to match a filled-in pick to its listed move."""
    return tuple(sorted((k, repr(v)) for k, v in move.items() if k not in fields))


def candidates(
    engine: Engine,
    state: State,
    seat: int,
    legal: list[Move],
    plan: Plan,
    rng: random.Random,
    view: dict[str, Any],
    deadline: float | None,
) -> list[Move]:
    """Up to ``plan.width`` moves in greedy's order, then ``plan.sampled`` random others."""
    choose = engine.BOTS.get("greedy")
    fields = {c["field"] for c in engine.choices(state, seat)}
    left = list(legal)
    picked: list[Move] = []
    while choose is not None and left and len(picked) < plan.width:
        if picked and deadline is not None and time.perf_counter() > deadline:
            break
        pick = choose(view, list(left), random.Random(rng.getrandbits(32)))
        key = _key(pick, fields)
        rest = [m for m in left if _key(m, fields) != key]
        if len(rest) == len(left):  # not one of the listed moves: stop ranking
            picked.append(pick)
            break
        picked.append(pick)
        left = rest
    if left and plan.sampled:
        picked += rng.sample(left, min(plan.sampled, len(left)))
    return picked or [rng.choice(legal)]


def root_indices(legal: list[Move], pool: list[Move]) -> list[int | None]:
    """Each candidate's index among ``legal`` (``None``: a filled-in pick, not listed)."""
    where = {id(m): i for i, m in enumerate(legal)}
    indices: list[int | None] = []
    for move in pool:
        index = where.get(id(move))
        if index is None:
            index = next((i for i, m in enumerate(legal) if m == move), None)
        indices.append(index)
    return indices


class Root(NamedTuple):
    """A search's root: the candidates it weighs (greedy's pick first), their indices
    among the listed moves, its random stream, its deadline, and greedy when the plan
    guides the playouts."""

    pool: list[Move]
    indices: list[int | None]
    rng: random.Random
    deadline: float | None
    choose: Strategy | None


def open_root(
    engine: Engine,
    state: State,
    seat: int,
    legal: list[Move],
    plan: Plan,
    seed: int,
    view: dict[str, Any],
) -> Root:
    """The :class:`Root` of a decision that may take ``plan.ms`` (a quarter of it to
    rank the candidates)."""
    start = time.perf_counter()
    deadline = None if plan.ms is None else start + plan.ms / 1000
    rank_deadline = None if plan.ms is None else start + plan.ms / 4000
    rng = random.Random(seed)
    pool = candidates(engine, state, seat, legal, plan, rng, view, rank_deadline)
    choose = engine.BOTS.get("greedy") if plan.guided else None
    return Root(pool, root_indices(legal, pool), rng, deadline, choose)


def rollout(
    engine: Engine, state: State, rng: random.Random, plan: Plan, choose: Strategy | None
) -> tuple[State, dict[int, float] | None]:
    """:func:`shared.bots.playout.run` from ``state`` (a fork) as ``plan`` sets it."""
    return run(
        engine,
        state,
        rng,
        plan.horizon,
        choose,
        plan.k,
        plan.epsilon,
        plan.scorings,
        plan.project,
        plan.guided_moves,
        plan.cut,
    )


def after_move(engine: Engine, world: State, seat: int, move: Move, index: int | None) -> State:
    """A fork of ``world`` with ``move`` played (listed: by index; else checked)."""
    if index is not None:
        state = engine.fork(world)
        engine.play(state, seat, engine.legal_actions(state, seat)[index])
        return state
    new, _ = engine.apply_move(world, seat, move)
    return engine.fork(new)


def search(
    engine: Engine,
    state: State,
    seat: int,
    legal: list[Move],
    plan: Plan,
    seed: int,
    view: dict[str, Any],
) -> Move:
    """The move the search prefers among ``legal`` (see the module's docstring)."""
    pool, indices, rng, deadline, choose = open_root(engine, state, seat, legal, plan, seed, view)
    if len(pool) == 1:
        return pool[0]
    alive = list(range(len(pool)))
    scores: list[list[float]] = [[] for _ in pool]  # per determinization, aligned
    budget = plan.iterations
    rounds = max(1, math.ceil(math.log2(len(pool))))
    done = 0
    per = 1  # the first determinization times a playout: the budget is what fits
    began = probe = time.perf_counter()
    while len(alive) > 1 and done < budget:
        for _ in range(per):
            salt = rng.getrandbits(63)
            play_seed = rng.getrandbits(63)
            world = engine.redeal(state, seat, salt)
            for c in alive:
                try:
                    after = after_move(engine, world, seat, pool[c], indices[c])
                except RuleError:
                    scores[c].append(-1.0)
                    continue
                end, extra = rollout(engine, after, random.Random(play_seed), plan, choose)
                scores[c].append(reward(engine, end, seat, extra, plan.scale))
                done += 1
                if deadline is not None:
                    now = time.perf_counter()
                    if now + 0.5 * (now - began) / done > deadline:  # half a playout's time
                        budget = done
                        break
            if done >= budget:
                break
        if done >= budget:
            break
        if probe:
            if deadline is not None:
                now = time.perf_counter()
                each = (now - probe) / max(done, 1)
                budget = min(budget, done + int((deadline - now) / max(each, 1e-6)))
            probe = 0.0
            per = max(1, budget // (len(alive) * rounds) - 1)
            continue
        # Keep the better half; greedy's pick (0) stays as the reference.
        alive.sort(key=lambda c: (c != 0, -_mean(scores[c]), c))
        keep = max(2, (len(alive) + 1) // 2)
        alive = [0, *sorted(alive[1:], key=lambda c: (-_mean(scores[c]), c))[: keep - 1]]
        rounds = max(rounds - 1, 1)
        per = max(1, (budget - done) // (len(alive) * rounds))
    return pool[_choose(scores, alive, plan.margin)]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _choose(scores: list[list[float]], alive: list[int], margin: float) -> int:
    """Greedy's pick (0) unless a candidate beats it on the same determinizations by
    ``margin`` standard errors of the paired difference."""
    best, best_z = 0, margin
    base = scores[0]
    for c in alive:
        if c == 0:
            continue
        diffs = [a - b for a, b in zip(scores[c], base, strict=False)]
        n = len(diffs)
        if n < 2:
            continue
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        z = mean / math.sqrt(var / n) if var > 0 else (math.inf if mean > 0 else 0.0)
        if z > best_z:
            best, best_z = c, z
    return best

"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) from one seat.

Every iteration draws one determinization, ``engine.redeal(state, seat, salt)`` (salt
from the seed): the game as the seat may believe it to be, its own view and legal moves
kept, everything hidden redrawn. The iteration then walks one tree of information sets
shared by all determinizations:

1. **Root.** The root's children are the candidates of :func:`shared.bots.search.candidates`
   (greedy's ranking, ``width`` moves, plus ``sampled`` others: progressive widening by a
   prior, since Manhattan lists ~50 moves and Wind City up to ~1,000). With ``widen`` the
   children open one by one in greedy's order, ``ceil(widen * sqrt(visits))`` of them.
   UCB1 (``c``) picks one; every candidate is available in every determinization (a
   redeal keeps the seat's legal moves).
2. **Below the root** (``tree`` > 1: levels of the tree), the seat to act in this
   determinization moves. A node's children are moves (matched by value); a child's
   *availability* counts the iterations in which its move was legal, and UCB reads
   ``ln(availability)`` instead of the parent's visits (moves that are rarely legal are
   not over-explored). A node expands at most ``ceil(widen_below * sqrt(visits))``
   children, each the playout policy's pick (greedy among ``k`` sampled listed moves);
   once full it picks among its available children. One node is added per iteration.
3. **Playout** (:func:`shared.bots.playout.run`) from there, cut off where the plan says
   (Manhattan: the end of the round, projected; Wind City: after ``horizon`` moves),
   judged by :func:`shared.bots.playout.reward` for every seat; each node on the path
   is credited with the reward of the seat that made its move.
4. **Choice**: the most visited root child (ties: the better mean, then greedy's order),
   unless its mean is not ``margin`` standard errors above greedy's pick's: then greedy's
   pick (few iterations are noisy; ``margin`` 0 trusts the visits).

The budget: ``iterations``, or what fits in the time cap (checked before each iteration:
none starts that would end more than half an iteration past the cap).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any, cast

from shared.bots.playout import reward, score_totals
from shared.bots.search import Plan, after_move, open_root, rollout
from shared.engine import Engine, Move, RuleError, State


class Node:
    """A move's statistics: visits, the mover's reward sum, availability, children."""

    __slots__ = ("avail", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 0
        self.children: dict[tuple[Any, ...], Node] = {}


def _key(move: Move) -> tuple[Any, ...]:
    """A hashable key of a listed move (its fields by value)."""
    return tuple(
        (k, v if isinstance(v, (int, str, float, bool, type(None))) else repr(v))
        for k, v in sorted(move.items())
    )


def _ucb(node: Node, parent: int, c: float) -> float:
    if not node.visits:
        return math.inf
    return node.total / node.visits + c * math.sqrt(math.log(max(parent, 1)) / node.visits)


def _root_pick(root: list[Node], n: int, open_: int, c: float) -> int:
    best, best_v = 0, -math.inf
    for i in range(open_):
        v = _ucb(root[i], n, c)
        if v > best_v:
            best, best_v = i, v
    return best


def _policy_pick(
    engine: Engine, state: State, mover: int, listed: Sequence[Move], plan: Plan, rng: random.Random
) -> Move:
    """The playout policy's move among ``listed``: greedy among ``k`` sampled ones."""
    choose = engine.BOTS.get("greedy") if plan.guided else None
    if choose is None:
        return listed[int(rng.random() * len(listed))]
    k = plan.k
    options = list(listed) if not k or len(listed) <= k else rng.sample(list(listed), k)
    view = {"you": mover, "to_act": engine.to_act(state), "state": engine.view(state, mover)}
    pick = choose(view, options, rng)
    return next((o for o in options if o is pick or o == pick), options[0])


def _descend(
    engine: Engine, state: State, node: Node, plan: Plan, rng: random.Random
) -> list[tuple[Node, int]]:
    """Walk and grow the tree below a root child on ``state`` (changed in place): the
    nodes visited with the seat that moved into each."""
    path: list[tuple[Node, int]] = []
    depth = 1
    while depth < plan.tree:
        acting = engine.to_act(state)
        mover, listed = -1, cast(Sequence[Move], ())
        for mover in acting:
            listed = engine.legal_actions(state, mover)
            if listed:
                break
        if not listed:
            break
        if len(listed) == 1:
            engine.play(state, mover, listed[0])
            continue
        keys = [_key(m) for m in listed]
        present = {k: i for i, k in enumerate(keys)}
        for k, child in node.children.items():
            if k in present:
                child.avail += 1
        room = math.ceil(plan.widen_below * math.sqrt(node.visits + 1))
        best: Node | None = None
        if len(node.children) >= room:
            best_v, k = -math.inf, keys[0]
            for key, ch in node.children.items():
                if key in present:
                    v = _ucb(ch, ch.avail, plan.c)
                    if v > best_v:
                        best, best_v, k = ch, v, key
        if best is None:  # room to grow, or nothing known is legal here: the policy's move
            k = _key(_policy_pick(engine, state, mover, listed, plan, rng))
            best = node.children.get(k)
            if best is None:
                best = node.children[k] = Node()
                best.avail = 1
                engine.play(state, mover, listed[present[k]])
                path.append((best, mover))
                return path
        child = best
        engine.play(state, mover, listed[present[k]])
        path.append((child, mover))
        node = child
        depth += 1
    return path


def ismcts(
    engine: Engine,
    state: State,
    seat: int,
    legal: list[Move],
    plan: Plan,
    seed: int,
    view: dict[str, Any],
) -> Move:
    """The move SO-ISMCTS prefers among ``legal`` (see the module's docstring)."""
    pool, indices, rng, deadline, choose = open_root(engine, state, seat, legal, plan, seed, view)
    if len(pool) == 1:
        return pool[0]
    root = [Node() for _ in pool]
    began = time.perf_counter()
    done = 0
    while done < plan.iterations:
        if deadline is not None and done:
            now = time.perf_counter()
            if now + 0.5 * (now - began) / done > deadline:
                break
        salt = rng.getrandbits(63)
        dice = random.Random(rng.getrandbits(63))
        world = engine.redeal(state, seat, salt)
        open_ = len(pool)
        if plan.widen:
            open_ = min(len(pool), max(2, math.ceil(plan.widen * math.sqrt(done + 1))))
        c = _root_pick(root, done, open_, plan.c)
        done += 1
        try:
            after = after_move(engine, world, seat, pool[c], indices[c])
        except RuleError:
            root[c].visits += 1
            continue
        path = [(root[c], seat)]
        if plan.tree > 1:
            path += _descend(engine, after, root[c], plan, dice)
        end, extra = rollout(engine, after, dice, plan, choose)
        seats = {m for _, m in path}
        if len(seats) == 1:
            values = {seat: reward(engine, end, seat, extra, plan.scale)}
        else:
            seats |= set(score_totals(engine.score(end)))
            values = {s: reward(engine, end, s, extra, plan.scale) for s in seats}
        for node, mover in path:
            value = values.get(mover, 0.5)
            node.visits += 1
            node.total += value
            node.squares += value * value
    return pool[_choose(root, plan.margin)]


def _choose(root: list[Node], margin: float) -> int:
    """The most visited root child (ties: the better mean, then greedy's order), if it
    beats greedy's pick (0) by ``margin`` standard errors of the difference of their
    means (``0``: always); else greedy's pick."""
    best = max(
        range(len(root)),
        key=lambda i: (root[i].visits, root[i].total / max(root[i].visits, 1), -i),
    )
    if best == 0 or margin <= 0:
        return best
    a, b = root[best], root[0]
    if a.visits < 2 or b.visits < 2:
        return 0

    def mean_var(n: Node) -> tuple[float, float]:
        mean = n.total / n.visits
        return mean, max(n.squares / n.visits - mean * mean, 0.0) / (n.visits - 1)

    (ma, va), (mb, vb) = mean_var(a), mean_var(b)
    spread = math.sqrt(va + vb)
    return best if ma - mb > margin * spread or (spread == 0 and ma > mb) else 0

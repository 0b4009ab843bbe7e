"""Analysis of a finished game: each seat's chance to win after every move, and each
seat's three biggest drops with the move the bot would have preferred.

Pure like the rest of the package (the engine contract, :func:`shared.bots.decide` and
the standard library): :func:`analyse` takes the game's seats, options, seed and moves
and returns plain JSON; the worker runs it (shared/worker/analysing.py) and stores it.

The method (docs/bots.md "Analysis after the game"):

- **Chances.** After every move, ``playouts`` games are played to the end from
  ``engine.redeal(state, None, salt)``: the position as a spectator saw it, with every
  hidden part (hands, deck order, the RNG) redrawn, so that no estimate knows what luck
  hid. Every seat plays the engine's ``greedy`` strategy among at most ``k`` sampled
  listed moves. A seat's chance is its share of the wins (ties share).
- **Drops.** A move's drop for its seat is the seat's chance before it minus its chance
  after it. For each seat's three biggest drops the bot (``level``, ``iterations``, no
  time cap) decides from the seat's own view at that moment (``decide``: a redeal for
  the seat, never the true hidden state); the played and the preferred move are then
  judged the same way, ``judge`` playouts each from ``engine.redeal(state, seat, salt)``
  (what that seat knew), and ``by`` is the preferred one's chance minus the played one's.

Everything is drawn from one seed: the same game gives the same analysis.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from shared.bots import decide, seat_view
from shared.engine import Engine, Move, RuleError, State


@dataclass(frozen=True)
class Budget:
    """What one analysis may spend: playouts per position (``playouts``, fewer when the
    game has more than ``total // playouts`` moves, at least 2), playouts per judged move
    (``judge``), the bot's level and iterations for a preferred move, the sampled
    moves a playout's greedy choice looks at (``k``)."""

    playouts: int = 8
    total: int = 1200
    judge: int = 24
    level: str = "medium"
    iterations: int = 64
    k: int = 4


def _step(engine: Engine, state: State, seat: int, move: Move) -> State:
    """``state`` (a fork, changed in place) after ``move``; a move that is not a listed
    one (a filled-in subset) is applied with ``apply_move`` (checked)."""
    try:
        engine.play(state, seat, move)
        return state
    except (RuleError, KeyError, ValueError):
        new, _ = engine.apply_move(state, seat, move)
        return engine.fork(new)


def playout(engine: Engine, state: State, rng: random.Random, k: int) -> list[int]:
    """The winners of a greedy game from ``state`` (a fork, changed)."""
    greedy = engine.BOTS.get("greedy")
    while not engine.is_over(state):
        acting = engine.to_act(state)
        mover, listed = -1, []
        for mover in acting:
            listed = list(engine.legal_actions(state, mover))
            if listed:
                break
        if not listed:
            break
        options = listed if len(listed) <= k else rng.sample(listed, k)
        pick = options[0]
        if greedy is not None and len(options) > 1:
            pick = greedy(seat_view(engine, state, mover), options, rng)
        state = _step(engine, state, mover, pick)
    result = engine.result(state) or {}
    return list(result.get("winners") or [])


def _shares(winners: list[int], seats: int) -> list[float]:
    return [1 / len(winners) if s in winners else 0.0 for s in range(seats)]


def chances(
    engine: Engine, state: State, seats: int, rng: random.Random, count: int, k: int
) -> list[float]:
    """Each seat's chance to win from ``state`` as a spectator sees it."""
    if engine.is_over(state):
        return _shares(list((engine.result(state) or {}).get("winners") or []), seats)
    total = [0.0] * seats
    for _ in range(count):
        start = engine.fork(engine.redeal(state, None, rng.getrandbits(31)))
        for s, share in enumerate(_shares(playout(engine, start, rng, k), seats)):
            total[s] += share
    return [round(t / count, 4) for t in total]


def judged(
    engine: Engine, state: State, seat: int, move: Move, rng: random.Random, count: int, k: int
) -> float:
    """``seat``'s chance after ``move`` from ``state``, as the seat could judge it: from
    redeals for the seat (what it knew), never the true hidden state."""
    won = 0.0
    for _ in range(count):
        start = engine.fork(engine.redeal(state, seat, rng.getrandbits(31)))
        after = _step(engine, start, seat, move)
        winners = playout(engine, after, rng, k)
        won += 1 / len(winners) if seat in winners else 0.0
    return round(won / count, 4)


def preferred(
    engine: Engine, state: State, seat: int, played: Move, seed: int, budget: Budget
) -> dict[str, Any]:
    """The bot's move for ``seat`` at ``state`` (its view only) and by how much the seat
    could judge it better than ``played``."""
    best = decide(engine, state, seat, budget.level, seed, iterations=budget.iterations, ms=0)
    if best == played:
        return {"preferred": best, "by": 0.0}
    rng = random.Random(seed)
    mine = judged(engine, state, seat, played, rng, budget.judge, budget.k)
    theirs = judged(engine, state, seat, best, rng, budget.judge, budget.k)
    return {"preferred": best, "by": round(theirs - mine, 4)}


def states(
    engine: Engine, seats: int, options: dict[str, Any], seed: int, moves: list[dict[str, Any]]
) -> list[State]:
    """The game's states: at the start and after each move ``{seat, move}``."""
    state = engine.setup(seats, dict(options), seed)
    out = [state]
    for entry in moves:
        state, _ = engine.apply_move(state, entry["seat"], entry["move"])
        out.append(state)
    return out


def analyse(
    engine: Engine,
    seats: int,
    options: dict[str, Any],
    seed: int,
    moves: list[dict[str, Any]],
    salt: int,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """The analysis of a finished game (moves as its log lists them: ``seat``, ``move``
    and ``version``); deterministic for ``salt``."""
    budget = budget or Budget()
    played = states(engine, seats, options, seed, moves)
    per = max(2, min(budget.playouts, budget.total // max(1, len(played))))
    rng = random.Random(salt)
    curve = [chances(engine, s, seats, rng, per, budget.k) for s in played]
    rows = []
    for i, entry in enumerate(moves):
        seat = entry["seat"]
        drop = curve[i][seat] - curve[i + 1][seat]
        choice = len(engine.legal_moves(played[i], seat)) > 1
        rows.append((seat, drop, i, choice))
    drops: list[dict[str, Any]] = []
    for seat in range(seats):
        mine = sorted((r for r in rows if r[0] == seat and r[3] and r[1] > 0), key=lambda r: -r[1])
        found = []
        for _, drop, i, _ in mine[:3]:
            entry = moves[i]
            better = preferred(engine, played[i], seat, entry["move"], salt + i, budget)
            found.append(
                {
                    "index": i + 1,
                    "version": entry.get("version"),
                    "move": entry["move"],
                    "before": curve[i][seat],
                    "after": curve[i + 1][seat],
                    "drop": round(drop, 4),
                    **better,
                }
            )
        drops.append({"seat": seat, "drops": found})
    return {
        "seats": seats,
        "moves": len(moves),
        "chances": [
            {"index": i, "version": moves[i - 1].get("version") if i else None, "chances": c}
            for i, c in enumerate(curve)
        ],
        "drops": drops,
        "method": {**asdict(budget), "playouts": per},
    }

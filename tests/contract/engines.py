"""Every engine the contract suite runs over, with the games to play it with.

A third game adds one line here (its ``ENGINE``, its app name and a few option sets)
and gets every contract check for free.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from services.manhattan import rules as manhattan
from services.windcity import rules as windcity
from shared.engine import Choice, Engine, Event, Move, State
from tests.kit import toy_engine


@dataclass(frozen=True)
class Case:
    """One engine and the (players, options) setups the suite plays."""

    engine: Engine
    app: str  # the name make_app knows
    setups: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    defaults: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per move type, the fields a move may omit and the value omitting one means."""

    def __str__(self) -> str:
        return self.engine.NAME


CASES = [
    Case(
        manhattan.ENGINE,
        "manhattan",
        [(2, {}), (3, {"promo_cards": True}), (4, {"six_rounds": True})],
    ),
    Case(
        windcity.ENGINE,
        "windcity",
        [(2, {"max_turns": 12}), (3, {"play_area": "full", "max_turns": 10}), (5, {})],
        {"plan": {"kauf": None, "renew": []}},
    ),
    Case(toy_engine.ENGINE, "toy", [(2, {}), (3, {"rounds": 4}), (4, {"rounds": 1})]),
]


def canonical(value: Any) -> str:
    """One text per JSON value (keys sorted): equal values, equal texts."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def fill(move: Move, choice: Choice, rng: random.Random, over_budget: bool = False) -> Move:
    """``move`` with a random subset its choice allows in the choice's field (or, with
    ``over_budget``, one that costs more than the budget; ``{}`` when none does)."""
    options = [
        o for o in choice["options"] if o["value"] != move.get(choice.get("exclude_field", ""))
    ]
    rng.shuffle(options)
    taken, total = [], 0
    for option in options:
        if over_budget or total + option["price"] <= choice["budget"]:
            taken.append(option["value"])
            total += option["price"]
    if over_budget and total <= choice["budget"]:
        return {}
    return {**move, choice["field"]: taken}


def allowed(
    move: Move, listed: list[Move], choices: list[Choice], defaults: dict[str, dict[str, Any]]
) -> bool:
    """Whether the contract says ``move`` is legal: listed, or a listed move with its
    subset field filled as a choice allows (after filling in omitted ``defaults``)."""
    move = {**defaults.get(move.get("type"), {}), **move}
    if canonical(move) in {canonical(m) for m in listed}:
        return True
    for choice in choices:
        name = choice["field"]
        if move.get("type") != choice["type"] or not isinstance(move.get(name), list):
            continue
        base = canonical({**move, name: []})
        if base not in {canonical(m) for m in listed}:
            continue
        prices = {o["value"]: o["price"] for o in choice["options"]}
        taken = move[name]
        excluded = move.get(choice.get("exclude_field", ""))
        if (
            all(isinstance(v, str) and v in prices and v != excluded for v in taken)
            and len(set(taken)) == len(taken)
            and sum(prices[v] for v in taken) <= choice["budget"]
        ):
            return True
    return False


def playout(
    engine: Engine, players: int, options: dict[str, Any], seed: int, steps: int = 2000
) -> list[tuple[State, int, Move, State, list[Event]]]:
    """A game played by a seeded random policy that also fills subset choices:
    ``(state, seat, move, next state, events)`` per move, at most ``steps``."""
    rng = random.Random(seed)
    state = engine.setup(players, dict(options), seed)
    history: list[tuple[State, int, Move, State, list[Event]]] = []
    while not engine.is_over(state) and len(history) < steps:
        seat = rng.choice(engine.to_act(state))
        move = rng.choice(engine.legal_moves(state, seat))
        for choice in engine.choices(state, seat):
            if choice["type"] == move["type"] and rng.random() < 0.5:
                move = fill(move, choice, rng)
        after, events = engine.apply_move(state, seat, move)
        history.append((state, seat, move, after, events))
        state = after
    return history

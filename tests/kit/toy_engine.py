"""A tiny game for testing the kit without Manhattan or Wind City.

"Odd guess", 2-4 players, ``rounds`` rounds. Each seat holds a secret card (1-9, dealt
from a seeded RNG; only its holder sees it). A round has two phases:

1. ``call``: the caller (rotating) announces a number: ``{"type": "call", "value": 1..3}``.
2. ``pick``: every seat picks at the same time, in secret:
   ``{"type": "pick", "value": 1..3}`` (several seats act at once). When the last pick
   arrives the round resolves: seats whose pick equals the call score their card, the
   picks are revealed in the ``round_resolved`` event and new cards are dealt.

It is pure (no I/O) and satisfies ``shared.engine.Engine``; with ``toy_schemas`` it
proves that a game needs only rules + schemas to get a service from the kit.
"""

from __future__ import annotations

import copy
from typing import Any

from shared import rng
from shared.engine import Choice, Engine, RuleError, Strategy, play_by_apply

NAME = "toy"
MIN_PLAYERS = 2
MAX_PLAYERS = 4


def _deal(state: dict[str, Any]) -> None:
    cards = []
    for _ in range(state["players"]):
        state["rng"], out = rng.next_u64(state["rng"])
        cards.append(1 + out % 9)
    state["cards"] = cards


def setup(num_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise RuleError("invalid-option", "2-4 players")
    unknown = set(options) - {"rounds"}
    if unknown:
        raise RuleError("invalid-option", f"unknown options {sorted(unknown)}")
    rounds = options.get("rounds", 3)
    if not isinstance(rounds, int) or not 1 <= rounds <= 10:
        raise RuleError("invalid-option", "rounds must be 1-10")
    state: dict[str, Any] = {
        "players": num_players,
        "rounds": rounds,
        "round": 1,
        "phase": "call",
        "caller": seed % num_players,
        "called": None,
        "picks": [None] * num_players,
        "scores": [0] * num_players,
        "history": [],
        "rng": rng.seed_state(seed),
    }
    _deal(state)
    return state


def to_act(state: dict[str, Any]) -> list[int]:
    if is_over(state):
        return []
    if state["phase"] == "call":
        return [state["caller"]]
    return [s for s, pick in enumerate(state["picks"]) if pick is None]


def legal_moves(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    kind = "call" if state["phase"] == "call" else "pick"
    return [{"type": kind, "value": v} for v in (1, 2, 3)]


def apply_move(
    state: dict[str, Any], seat: int, move: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if seat not in to_act(state):
        raise RuleError("not-your-turn", f"seat {seat} is not to act")
    expected = "call" if state["phase"] == "call" else "pick"
    if not isinstance(move, dict):
        raise RuleError("bad-move", "a move is a JSON object")
    if move.get("type") != expected:
        raise RuleError("wrong-phase", f"expected a {expected} move")
    if set(move) != {"type", "value"}:
        raise RuleError("bad-move", "a move has exactly a type and a value")
    value = move.get("value")
    if type(value) is not int or value not in (1, 2, 3):
        raise RuleError("bad-value", "value must be 1-3")
    new = copy.deepcopy(state)
    if expected == "call":
        new["called"] = value
        new["phase"] = "pick"
        return new, [{"type": "called", "seat": seat, "value": value}]
    new["picks"][seat] = value
    events: list[dict[str, Any]] = [{"type": "picked", "seat": seat}]
    if all(p is not None for p in new["picks"]):
        gains = [new["cards"][s] if p == new["called"] else 0 for s, p in enumerate(new["picks"])]
        new["scores"] = [a + b for a, b in zip(new["scores"], gains, strict=True)]
        new["history"].append(gains)
        events.append(
            {
                "type": "round_resolved",
                "round": new["round"],
                "picks": new["picks"],
                "cards": new["cards"],
                "gains": gains,
            }
        )
        new["round"] += 1
        new["phase"] = "call"
        new["called"] = None
        new["picks"] = [None] * new["players"]
        new["caller"] = (new["caller"] + 1) % new["players"]
        _deal(new)
    return new, events


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    return {
        "round": state["round"],
        "rounds": state["rounds"],
        "phase": state["phase"],
        "caller": state["caller"],
        "called": state["called"],
        "picked": [s for s, p in enumerate(state["picks"]) if p is not None],
        "scores": state["scores"],
        "my_card": None if seat is None else state["cards"][seat],
        "my_pick": None if seat is None else state["picks"][seat],
    }


def score(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "players": [
            {"seat": s, "total": t, "rounds": [h[s] for h in state["history"]]}
            for s, t in enumerate(state["scores"])
        ]
    }


def is_over(state: dict[str, Any]) -> bool:
    return bool(state["round"] > state["rounds"])


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    if not is_over(state):
        return None
    scores = state["scores"]
    best = max(scores)
    return {
        "scores": scores,
        "winners": [s for s, t in enumerate(scores) if t == best],
        "standings": [
            {"seat": s, "score": t, "rank": 1 + sum(1 for o in scores if o > t)}
            for s, t in sorted(enumerate(scores), key=lambda st: -st[1])
        ],
    }


def redeal(state: dict[str, Any], seat: int | None, salt: int) -> dict[str, Any]:
    """The other seats' secret cards and picks redrawn from ``salt`` (who has picked is
    public, so a pick stays a pick)."""
    new = copy.deepcopy(state)
    s = rng.seed_state(salt)
    for other in range(state["players"]):
        if other == seat:
            continue
        s, card = rng.below(s, 9)
        new["cards"][other] = 1 + card
        if new["picks"][other] is not None:
            s, pick = rng.below(s, 3)
            new["picks"][other] = 1 + pick
    new["rng"] = s
    return new


class ToyEngine:
    """The toy game as an object: a third game needs exactly these members."""

    NAME = NAME
    BOTS: dict[str, Strategy] = {}
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS

    def setup(self, num_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
        return setup(num_players, options, seed)

    def to_act(self, state: dict[str, Any]) -> list[int]:
        return to_act(state)

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return legal_moves(state, seat)

    def choices(self, state: dict[str, Any], seat: int) -> list[Choice]:
        return []

    def apply_move(
        self, state: dict[str, Any], seat: int, move: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return apply_move(state, seat, move)

    def fork(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        """The toy game lists fresh moves anyway; it has no cheaper way."""
        return legal_moves(state, seat)

    def play(self, state: dict[str, Any], seat: int, move: dict[str, Any]) -> None:
        play_by_apply(apply_move, state, seat, move)

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def score(self, state: dict[str, Any]) -> dict[str, Any]:
        return score(state)

    def is_over(self, state: dict[str, Any]) -> bool:
        return is_over(state)

    def estimate(self, state: dict[str, Any]) -> list[float] | None:
        return None

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        return result(state)

    def upgrade(self, state: dict[str, Any]) -> dict[str, Any]:
        """The toy game's layout never changed."""
        return state

    def stored(self, state: dict[str, Any]) -> dict[str, Any]:
        """The toy game's state is plain JSON data."""
        return state

    def redeal(self, state: dict[str, Any], seat: int | None, salt: int) -> dict[str, Any]:
        return redeal(state, seat, salt)


ENGINE: Engine = ToyEngine()

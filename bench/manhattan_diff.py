"""Differential check of this checkout's Manhattan engine against another checkout's.

Run: ``python -m bench.manhattan_diff --against CHECKOUT [--games N] [--seed S]``
(e.g. ``--against /work/main``). Plays N random games (2, 3 and 4 players, every
option set, options sometimes omitted) and N/5 games from crowded boards where seats
get stuck (discard, forfeit), through both engines side by side, and stops at the
first difference in: setup states, to_act, is_over, every seat's legal_moves,
apply_move's state and events (key order included), refusals of mutated and off-list
moves (code and message), views, score and result. This checkout's playout path rides
along: legal_actions on one fork per game equals legal_moves, play on it equals
apply_move, a fork of the fork is its own, and no state apply_move made changes later.
For rules refactors that must change nothing; not a benchmark.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections import Counter
from types import ModuleType
from typing import Any

from bench.manhattan_engine import load_rules
from services.manhattan import rules
from shared.engine import Move, RuleError, State
from tests.manhattan.playout import crowded

ENGINE = rules.ENGINE


def text(value: Any) -> str:
    return json.dumps(value)  # key order kept: stricter than ==


def outcome(m: ModuleType, state: State, seat: int, move: Any) -> tuple[str, str, str]:
    """What apply_move does with ``move``: the new state and events, or the refusal."""
    try:
        new, events = m.apply_move(state, seat, move)
    except RuleError as e:
        return ("refused", e.code, e.message)
    return ("applied", text(new), text(events))


def mutations(move: Move, rng: random.Random) -> list[Any]:
    """Moves near ``move`` and off the list: mostly illegal, some legal."""
    out: list[Any] = [
        {**move, "extra": 1},
        {**move, "type": "nope"},
        [move],
        None,
        {"type": "select", "pieces": [1]},
        {"type": "select", "pieces": [rng.randint(1, 4) for _ in range(rng.choice((4, 6)))]},
        {"type": "place", "city": rng.randint(1, 6), "lot": rng.randint(1, 9), "floors": 1},
        {"type": "place", "city": True, "lot": 1, "floors": 1},
        {"type": "discard", "lot": rng.randint(0, 10)},
        {"type": "forfeit", "floors": rng.randint(0, 5)},
    ]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        if isinstance(value, int):
            out += [{**move, key: value + rng.choice((-2, -1, 1, 2, 9))}, {**move, key: str(value)}]
            out.append({**move, key: float(value)})
        elif isinstance(value, list):
            out += [{**move, key: value[:-1]}, {**move, key: [*value, *value[:1]]}]
            out += [{**move, key: [0] * len(value)}, {**move, key: tuple(value)}]
    return out


def game(ref: ModuleType, start: State, rng: random.Random, seen: Counter) -> None:
    """One game from ``start`` through both engines (and this one's fork), compared."""
    theirs, ours = copy.deepcopy(start), copy.deepcopy(start)
    mine = ENGINE.fork(ours)
    made: list[tuple[State, str]] = []
    n = ours["num_players"]
    while True:
        assert text(theirs) == text(ours) == text(mine), "states differ"
        assert ref.to_act(theirs) == rules.to_act(ours) == ENGINE.to_act(mine)
        assert ref.is_over(theirs) == rules.is_over(ours) == ENGINE.is_over(mine)
        if rng.random() < 0.05 or rules.is_over(ours):
            for seat in [None, *range(n)]:
                assert text(ref.view(theirs, seat)) == text(rules.view(ours, seat))
            assert text(ref.score(theirs)) == text(rules.score(ours))
            assert text(ref.result(theirs)) == text(rules.result(ours))
        for other in range(n):
            listed = text(ref.legal_moves(theirs, other))
            assert listed == text(rules.legal_moves(ours, other))
            assert listed == text(list(ENGINE.legal_actions(mine, other)))
        if rules.is_over(ours):
            break
        seat = rules.to_act(ours)[0]
        legal = rules.legal_moves(ours, seat)
        actions = ENGINE.legal_actions(mine, seat)
        kinds = {m["type"] for m in legal}
        before, listed = text(ours), text(list(actions))
        if rng.random() < 0.1 or kinds & {"discard", "forfeit"}:
            tries = mutations(rng.choice(legal), rng) + rng.sample(legal, min(6, len(legal)))
            for move in tries:
                assert outcome(ref, theirs, seat, move) == outcome(rules, ours, seat, move), move
            other = (seat + 1) % n
            assert outcome(ref, theirs, other, legal[0]) == outcome(rules, ours, other, legal[0])
            seen["compared refusals and off-list moves"] += len(tries) + 1
        k = rng.randrange(len(legal))
        new_theirs, events_theirs = ref.apply_move(theirs, seat, legal[k])
        new_ours, events_ours = rules.apply_move(ours, seat, legal[k])
        assert text(new_theirs) == text(new_ours), legal[k]
        assert text(events_theirs) == text(events_ours), legal[k]
        assert text(ours) == before, "apply_move changed its state"
        seen[legal[k]["type"]] += 1
        if rng.random() < 0.1:
            branch, origin = ENGINE.fork(mine), text(mine)
            ENGINE.play(branch, seat, actions[k])
            assert text(branch) == text(new_ours) and text(mine) == origin
        ENGINE.play(mine, seat, actions[k])
        assert text(list(actions)) == listed, "play changed a listed move"
        made.append((ours, before))
        theirs, ours = new_theirs, new_ours
    for old, was in made:
        assert text(old) == was, "a state apply_move made changed later"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--against", metavar="CHECKOUT", required=True)
    ap.add_argument("--games", type=int, default=2400)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    cmd = "python -m bench.manhattan_diff " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: {cmd.strip()}")
    ref = load_rules(args.against)
    rng = random.Random(args.seed)
    configs = [
        (n, {"six_rounds": six, "promo_cards": promo})
        for n in (2, 3, 4)
        for six in (False, True)
        for promo in (False, True)
    ]
    seen: Counter = Counter()
    start = time.perf_counter()
    for g in range(args.games):
        n, options = configs[g % len(configs)]
        if g % 4 == 0:
            options = {k: v for k, v in options.items() if v}  # omitted options too
        game(ref, rules.setup(n, options, rng.getrandbits(64)), rng, seen)
    stuck = args.games // 5
    for i in range(stuck):
        n = 2 + i % 3
        board = crowded(n, i % n, rng.sample(range(1, 10), 9), rng.randint(0, 3), rng)
        game(ref, board, rng, seen)
    print(
        f"{args.games} random games and {stuck} from crowded boards, all equal "
        f"({time.perf_counter() - start:.0f} s): {dict(seen)}"
    )


if __name__ == "__main__":
    main()

"""Differential check of this checkout's Wind City engine against another checkout's.

Run: ``python -m bench.windcity_diff --against CHECKOUT [--games N] [--seed S]``
(e.g. ``--against /work/main``). Plays N random games (2 to 5 players, every option set,
options sometimes omitted; one in five from a poor start, where seats cannot pay, skip
the insurance market and go bankrupt) through both engines side by side, and stops at
the first difference in: setup states and setup refusals, to_act, is_over, every seat's
legal_moves and choices, apply_move's state and events (key order included), refusals of
mutated, off-list, over-budget and wrong-seat moves (code and message), views, score,
result, the bots' picks, redeal, and upgrade of stored documents (JSON round trips and
the short names of old documents). The moves are listed ones and subset moves filled
from choices (renewals, insurance), the insurance market's seats answering in random
order; the games go on now and then from a state loaded back from JSON, as the service
does. This checkout's playout path rides along: legal_actions on a fork equals
legal_moves, play on it equals apply_move, a fork of the fork is its own, a listing
survives play, and no state apply_move made changes later. For rules refactors that must
change nothing; not a benchmark.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from services.windcity import rules
from services.windcity.rules import board
from shared.engine import Choice, Engine, Move, RuleError, State

ENGINE = rules.ENGINE
OPTIONS: list[dict[str, Any]] = [
    {"play_area": area, "score_money": money, "max_turns": turns}
    for area in ("used_sections", "full")
    for money in (True, False)
    for turns in (100, 10, 1000, 37)
]
OLD_NAMES = {"num_players": "n", "options": "opts", "observatories": "obs"}
"""Today's field name -> its name in documents stored before issue 13."""
SQUARES = list(board.POS)


def load_rules(checkout: str) -> ModuleType:
    """The Wind City rules package of another checkout, imported under its own name (its
    ``shared`` imports resolve to this checkout's, which the engines only use for the RNG
    and the contract types)."""
    path = Path(checkout, "services", "windcity", "rules", "__init__.py")
    spec = importlib.util.spec_from_file_location(
        "against_windcity_rules", path, submodule_search_locations=[str(path.parent)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no Wind City rules at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def text(value: Any) -> str:
    return json.dumps(value)  # key order kept: stricter than ==


def outcome(engine: Engine, state: State, seat: Any, move: Any) -> tuple[str, ...]:
    """What apply_move does with ``move``: the new state and events, or the refusal."""
    try:
        new, events = engine.apply_move(state, seat, move)
    except RuleError as e:
        return ("refused", e.code, e.message)
    return ("applied", text(new), text(events))


def setup_outcome(engine: Engine, n: Any, options: Any, seed: Any) -> tuple[str, ...]:
    try:
        return ("made", text(engine.setup(n, options, seed)))
    except RuleError as e:
        return ("refused", e.code, e.message)


def filled(move: Move, choice: Choice, rng: random.Random, over_budget: bool = False) -> Move:
    """``move`` with a random subset of its choice's options in the choice's field, within
    the budget (or, with ``over_budget``, all of them: refused when they cost more)."""
    excluded = move.get(choice.get("exclude_field", ""))
    options = [o for o in choice["options"] if o["value"] != excluded]
    rng.shuffle(options)
    taken, total = [], 0
    for o in options:
        if over_budget or (total + o["price"] <= choice["budget"] and rng.random() < 0.6):
            taken.append(o["value"])
            total += o["price"]
    return {**move, choice["field"]: taken}


def mutations(move: Move, state: State, rng: random.Random) -> list[Any]:
    """Moves near ``move`` and off the list: mostly illegal, some legal."""
    sq = rng.choice(SQUARES)
    out: list[Any] = [
        {**move, "extra": 1},
        {**move, "type": "nope"},
        {**move, "type": 3},
        [move],
        None,
        {},
        {"type": "place_hurricane", "square": board.name(rng.randrange(12), rng.choice((1, 2)))},
        {"type": "place_house", "square": sq},
        {"type": "place_house", "square": rng.choice(list(state["houses"]) or SQUARES)},
        {"type": "plan", "actions": rng.sample(range(1, 6), rng.randint(1, 3))},
        {"type": "plan", "actions": [1], "kauf": sq, "renew": [sq]},
        {"type": "insure", "squares": [sq]},
        {"type": "insure", "squares": rng.sample(list(state["houses"]) or SQUARES, 1)},
    ]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        out += [{**move, key: None}, {**move, key: 7}, {**move, key: "Z99"}, {**move, key: True}]
        if isinstance(value, str):
            out += [{**move, key: sq}, {**move, key: value.lower()}, {**move, key: [value]}]
        elif isinstance(value, list):
            out += [{**move, key: value[:-1]}, {**move, key: [*value, *value[:1]]}]
            out += [{**move, key: tuple(value)}, {**move, key: [*value, sq]}]
            out += [{**move, key: [[v] for v in value] or [["A5"]]}, {**move, key: [0]}]
            if key == "actions":
                out += [{**move, key: [*value, 6]}, {**move, key: [True]}, {**move, key: []}]
                out += [{**move, key: [1, 2, 3, 4]}, {**move, key: value[::-1]}]
                out += [{**move, key: [float(a) for a in value]}]
    return out


def seats_to_try(n: int, rng: random.Random) -> list[Any]:
    """Every seat, and seats that are none."""
    return [*range(n), -1, n, True, None, "0", rng.randrange(n)]


class Game:
    """One game through both engines (and this one's fork), compared at every step."""

    def __init__(self, ref: ModuleType, rng: random.Random, seen: Counter[str]) -> None:
        self.ref = ref.ENGINE
        self.rng = rng
        self.seen = seen

    def play(self, n: int, options: dict[str, Any], seed: int, poor: bool, subsets: float) -> None:
        ref, rng, seen = self.ref, self.rng, self.seen
        theirs, ours = ref.setup(n, dict(options), seed), ENGINE.setup(n, dict(options), seed)
        assert text(theirs) == text(ours), "setup states differ"
        mine = ENGINE.fork(ours)
        made: list[tuple[State, str]] = []
        step = 0
        while True:
            step += 1
            assert text(theirs) == text(ours) == text(mine), "states differ"
            acting = ref.to_act(theirs)
            assert acting == ENGINE.to_act(ours) == ENGINE.to_act(mine), "to_act differs"
            over = ref.is_over(theirs)
            assert over == ENGINE.is_over(ours) == ENGINE.is_over(mine), "is_over differs"
            if rng.random() < 0.05 or over:
                self.answers(theirs, ours, n)
            for other in range(n):
                listed = text(ref.legal_moves(theirs, other))
                assert listed == text(ENGINE.legal_moves(ours, other)), "legal_moves differ"
                assert listed == text(list(ENGINE.legal_actions(mine, other))), "legal_actions"
                assert text(ref.choices(theirs, other)) == text(ENGINE.choices(ours, other))
            if over:
                break
            if poor and ours["phase"] == "plan":
                money = [rng.randint(0, 12) for _ in range(n)]  # from here on, seats go broke
                theirs, ours = {**theirs, "money": money}, {**ours, "money": list(money)}
                mine = ENGINE.fork(ours)
                poor = False
                seen["poor starts"] += 1
                continue
            seat = rng.choice(acting)  # the insurance market's seats answer in any order
            legal = ENGINE.legal_moves(ours, seat)
            actions = ENGINE.legal_actions(mine, seat)
            listed = text(list(actions))
            choices = ENGINE.choices(ours, seat)
            k = rng.randrange(len(legal))
            move = legal[k]
            on_list = True
            for choice in choices:
                if choice["type"] == move["type"] and rng.random() < subsets:
                    move, on_list = filled(move, choice, rng), False
            if rng.random() < 0.1 or ours["phase"] == "insure" and rng.random() < 0.3:
                self.refusals(theirs, ours, seat, legal, choices, acting, n)
            if rng.random() < 0.03:
                self.stored(theirs, ours, seat, move)
            if rng.random() < 0.2 and ours["phase"] in ("plan", "insure"):
                self.bots(ours, seat)
            before = text(ours)
            new_theirs, events_theirs = ref.apply_move(theirs, seat, move)
            new_ours, events_ours = ENGINE.apply_move(ours, seat, move)
            assert text(new_theirs) == text(new_ours), ("apply_move's states differ", move)
            assert text(events_theirs) == text(events_ours), ("events differ", move)
            assert text(ours) == before, "apply_move changed its state"
            seen[move["type"] if on_list else move["type"] + " (subset)"] += 1
            if on_list:
                if rng.random() < 0.1:
                    branch, origin = ENGINE.fork(mine), text(mine)
                    ENGINE.play(branch, seat, actions[k])
                    assert text(branch) == text(new_ours), "play on a fork of the fork"
                    assert text(mine) == origin, "playing a fork changed its origin"
                ENGINE.play(mine, seat, actions[k])
                assert text(list(actions)) == listed, "play changed a listed move"
            else:  # play is for listed moves: a fork of the new state goes on
                mine = ENGINE.fork(new_ours)
            made.append((ours, before))
            theirs, ours = new_theirs, new_ours
            if rng.random() < 0.04:  # on from the state as the service loads it
                theirs = ref.upgrade(json.loads(text(theirs)))
                ours = ENGINE.upgrade(json.loads(text(ours)))
                if rng.random() < 0.5:
                    mine = ENGINE.fork(json.loads(text(ours)))
                seen["reloaded from JSON"] += 1
        for old, was in made:
            assert text(old) == was, "a state apply_move made changed later"
        seen["steps"] += step

    def answers(self, theirs: State, ours: State, n: int) -> None:
        """Views, score, result, bots and redeal of one position."""
        ref, rng = self.ref, self.rng
        for seat in [None, *range(n), n, -1]:
            assert text(ref.view(theirs, seat)) == text(ENGINE.view(ours, seat)), "view differs"
        assert text(ref.score(theirs)) == text(ENGINE.score(ours)), "score differs"
        assert text(ref.result(theirs)) == text(ENGINE.result(ours)), "result differs"
        for seat in ENGINE.to_act(ours):
            self.bots(ours, seat)
        seat = rng.choice([None, *range(n)])
        salt = rng.getrandbits(32)
        again = text(ENGINE.redeal(ours, seat, salt))
        assert text(ref.redeal(theirs, seat, salt)) == again, "redeal differs"
        self.seen["positions answered"] += 1

    def bots(self, ours: State, seat: int) -> None:
        """Every bot's pick for ``seat`` (its view and legal moves being compared
        already), from the same random numbers."""
        ref, rng = self.ref, self.rng
        legal = ENGINE.legal_moves(ours, seat)
        body = {"state": ENGINE.view(ours, seat), "you": seat}
        assert sorted(ref.BOTS) == sorted(ENGINE.BOTS)
        for name in sorted(ENGINE.BOTS):
            salt = rng.getrandbits(32)
            theirs_pick = ref.BOTS[name](body, legal, random.Random(salt))
            ours_pick = ENGINE.BOTS[name](body, legal, random.Random(salt))
            assert text(theirs_pick) == text(ours_pick), ("bots differ", name)
        self.seen["bot picks"] += len(ENGINE.BOTS)

    def refusals(
        self,
        theirs: State,
        ours: State,
        seat: int,
        legal: list[Move],
        choices: list[Choice],
        acting: list[int],
        n: int,
    ) -> None:
        """Mutated, off-list, over-budget and wrong-seat moves: the same refusal (or the
        same state and events, for the legal ones among them)."""
        ref, rng = self.ref, self.rng
        base = rng.choice(legal)
        tries = mutations(base, ours, rng) + rng.sample(legal, min(4, len(legal)))
        for choice in choices:
            empty = [m for m in legal if m["type"] == choice["type"] and not m[choice["field"]]]
            if empty:
                tries += [filled(rng.choice(empty), choice, rng, over_budget=True)]
                tries += [filled(rng.choice(empty), choice, rng) for _ in range(3)]
        before = text(ours), text(theirs)
        for move in tries:
            assert outcome(ref, theirs, seat, move) == outcome(ENGINE, ours, seat, move), move
        for other in seats_to_try(n, rng):
            if other in acting:
                continue
            move = rng.choice(legal)
            assert outcome(ref, theirs, other, move) == outcome(ENGINE, ours, other, move), other
        assert (text(ours), text(theirs)) == before, "a move tried changed its state"
        self.seen["compared refusals and off-list moves"] += len(tries)

    def stored(self, theirs: State, ours: State, seat: int, move: Move) -> None:
        """The position stored and loaded back: as JSON (with and without upgrade, as the
        contract suite applies a move to it) and with the short names of old documents."""
        ref = self.ref
        plain_theirs, plain_ours = json.loads(text(theirs)), json.loads(text(ours))
        assert outcome(ref, plain_theirs, seat, move) == outcome(ENGINE, plain_ours, seat, move)
        up = text(ENGINE.upgrade(json.loads(text(ours))))
        assert text(ref.upgrade(json.loads(text(theirs)))) == up == text(theirs), "upgrade"
        old = {OLD_NAMES.get(k, k): v for k, v in json.loads(text(ours)).items()}
        assert text(ref.upgrade(dict(old))) == text(ENGINE.upgrade(dict(old))), "old names"
        loaded = ENGINE.upgrade(dict(old))
        theirs_loaded = ref.upgrade(json.loads(text(old)))
        assert outcome(ref, theirs_loaded, seat, move) == outcome(ENGINE, loaded, seat, move)
        self.seen["stored and loaded"] += 1


def refused_setups(ref: ModuleType, rng: random.Random) -> int:
    """Setups the rules refuse (player counts, options, seeds): the same refusals."""
    bad_options: list[Any] = [
        {"play_area": "north"},
        {"play_area": None},
        {"score_money": 1},
        {"score_money": "yes"},
        {"max_turns": 9},
        {"max_turns": 1001},
        {"max_turns": 50.0},
        {"max_turns": True},
        {"max_turns": "50"},
        {"bogus": 1},
        {"seed": 3},
        [],
        "full",
    ]
    counts: list[Any] = [0, 1, 6, 9, -2, True, "3", 3.0, None]
    tries: list[tuple[Any, Any, Any]] = [(n, {}, 1) for n in counts]
    tries += [(3, options, 1) for options in bad_options]
    tries += [(4, None, 1), (2, {}, "7"), (2, {}, 2.5), (2, {}, None), (5, {}, True)]
    tries += [(rng.randint(2, 5), {}, rng.getrandbits(64)) for _ in range(20)]
    for n, options, seed in tries:
        theirs = setup_outcome(ref.ENGINE, n, options, seed)
        assert theirs == setup_outcome(ENGINE, n, options, seed), (n, options, seed)
    return len(tries)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--against", metavar="CHECKOUT", required=True)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    cmd = "python -m bench.windcity_diff " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: {cmd.strip()}")
    ref = load_rules(args.against)
    rng = random.Random(args.seed)
    seen: Counter[str] = Counter()
    seen["refused setups"] = refused_setups(ref, rng)
    game = Game(ref, rng, seen)
    start = time.perf_counter()
    for g in range(args.games):
        n, options = 2 + g % 4, OPTIONS[g // 4 % len(OPTIONS)]
        if g % 3 == 0:  # omitted options too (the defaults)
            options = {k: v for k, v in options.items() if rng.random() < 0.5}
        seed = rng.getrandbits(64)
        poor = g % 5 == 4
        subsets = (0.0, 0.3, 0.7)[g % 3]
        try:
            game.play(n, options, seed, poor, subsets)
        except AssertionError:
            print(f"game {g}: {n} players, options {options}, seed {seed}, poor start {poor}")
            raise
        seen[f"{n}-player games"] += 1
    print(
        f"{args.games} random games, all equal ({time.perf_counter() - start:.0f} s): "
        f"{dict(sorted(seen.items()))}"
    )


if __name__ == "__main__":
    main()

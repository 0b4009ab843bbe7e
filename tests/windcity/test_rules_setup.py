"""Wind City setup: options, play area by player count, hurricane, house placement."""

from __future__ import annotations

import json

import pytest

from services.windcity import rules as E
from services.windcity.rules import board
from services.windcity.rules.listing import legal_placements
from shared.engine import RuleError


def codes(fn, *args):
    with pytest.raises(RuleError) as info:
        fn(*args)
    return info.value.code


def test_module_interface():
    assert E.NAME == "windcity" and E.MIN_PLAYERS == 2 and E.MAX_PLAYERS == 5
    assert issubclass(RuleError, ValueError)


@pytest.mark.parametrize("n", [0, 1, 6, "3", True, None])
def test_bad_player_count(n):
    assert codes(E.setup, n, {}, 1) == "invalid-player-count"


@pytest.mark.parametrize(
    "opts",
    [
        {"seed": 3},
        {"players": 3},
        {"play_area": "half"},
        {"score_money": "yes"},
        {"score_money": 1},
        {"max_turns": 9},
        {"max_turns": 10.0},
        {"max_turns": True},
    ],
)
def test_bad_options(opts):
    assert codes(E.setup, 3, opts, 1) == "invalid-option"


def test_defaults_and_good_options():
    st = E.setup(3, {}, 5)
    assert st["options"] == {"play_area": "used_sections", "score_money": True, "max_turns": 100}
    st = E.setup(3, {"play_area": "full", "score_money": False, "max_turns": 10}, 5)
    assert st["options"] == {"play_area": "full", "score_money": False, "max_turns": 10}


@pytest.mark.parametrize(
    "n,north,obs",
    [
        (2, 14, {"D2", "J3", "H6", "B7", "E11", "K12"}),
        (3, 14, {"D2", "J3", "H6", "B7", "E11", "K12"}),
        (4, 19, {"D2", "J3", "H6", "B7", "E11", "K12", "I16", "C17"}),
        (5, 24, set(board.OBSERVATORIES)),
    ],
)
def test_play_area_by_player_count(n, north, obs):
    st = E.setup(n, {}, 11)
    assert st["north"] == north
    assert set(st["observatories"]) == obs and all(st["observatories"].values())
    full = E.setup(n, {"play_area": "full"}, 11)
    assert full["north"] == 24 and set(full["observatories"]) == set(board.OBSERVATORIES)
    assert st["money"] == [40] * n and st["stock"] == [12] * n


def test_same_seed_same_state_and_seeds_differ():
    a = json.dumps(E.setup(4, {}, 99))
    assert a == json.dumps(E.setup(4, {}, 99))
    states = {json.dumps(E.setup(4, {}, s)["deck"]) for s in range(20)}
    assert len(states) > 15
    firsts = {E.setup(4, {}, s)["first"] for s in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_hurricane_placement():
    st = E.setup(3, {}, 2)
    first = st["first"]
    other = (first + 1) % 3
    mv = {"type": "place_hurricane", "square": "C1"}
    assert codes(E.apply_move, st, other, mv) == "not-your-turn"
    assert (
        codes(E.apply_move, st, first, {"type": "place_hurricane", "square": "C2"}) == "not-row-one"
    )
    assert (
        codes(E.apply_move, st, first, {"type": "place_hurricane", "square": "M1"}) == "bad-square"
    )
    assert codes(E.apply_move, st, first, {"type": "place_house", "square": "C7"}) == "wrong-phase"
    assert codes(E.apply_move, st, first, {"type": "teleport"}) == "unknown-move"
    assert len(E.legal_moves(st, first)) == 12 and E.legal_moves(st, other) == []
    new, ev = E.apply_move(st, first, mv)
    assert new["hurricane"] == "C1" and st["hurricane"] is None
    assert ev == [{"type": "hurricane_placed", "seat": first, "square": "C1"}]
    assert E.to_act(new) == [(first + 1) % 3]


def started(n, seed=3, options=None):
    st = E.setup(n, options or {}, seed)
    st, _ = E.apply_move(st, st["first"], {"type": "place_hurricane", "square": "A1"})
    return st


def test_placement_errors():
    st = started(4)
    seat = E.to_act(st)[0]
    assert seat == (st["first"] + 1) % 4

    def err(sq):
        return codes(E.apply_move, st, seat, {"type": "place_house", "square": sq})

    assert err("B3") == "not-a-land-square"
    assert err("H6") == "observatory"
    assert err("A20") == "bad-square"  # L4 is off the 4-player play area
    assert err("A0") == "bad-square" and err(7) == "bad-square"
    st2, _ = E.apply_move(st, seat, {"type": "place_house", "square": "A8"})
    nxt = E.to_act(st2)[0]
    assert nxt == (seat + 1) % 4
    assert (
        codes(E.apply_move, st2, nxt, {"type": "place_house", "square": "A8"}) == "square-occupied"
    )
    full = started(4, options={"play_area": "full"})
    s = E.to_act(full)[0]
    assert (
        codes(E.apply_move, full, s, {"type": "place_house", "square": "A21"})
        == "section-not-in-use"
    )


def place_all(st, plan):
    """Place houses following plan[seat] = list of squares, in turn order."""
    idx = [0] * st["num_players"]
    while st["phase"] == "houses":
        seat = E.to_act(st)[0]
        st, _ = E.apply_move(st, seat, {"type": "place_house", "square": plan[seat][idx[seat]]})
        idx[seat] += 1
    return st


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_quotas_and_order(n):
    st = started(n, seed=n)
    q = board.QUOTA[n]
    sections = board.SECTIONS_IN_USE[n]
    # seat p uses columns distinct per seat; one beach house each, rest spread by quota
    plan = {}
    for p in range(n):
        col = board.COLS[p * 2]
        col2 = board.COLS[p * 2 + 1]
        squares = []
        for s in range(1, sections + 1):
            lo, _ = board.SECTION_ROWS[s]
            rows = list(range(lo + (1 if s == 1 else 0), lo + 5))
            cells = [c + str(r) for r in rows for c in (col, col2)]
            cells = [c for c in cells if c not in board.OBSERVATORIES]
            take = q - (1 if s == 1 else 0)
            squares += cells[:take]
        squares.insert(0, col + "5")
        plan[p] = squares
    order: list[int] = []
    s0 = st
    while s0["phase"] == "houses" and len(order) < 2 * n:
        seat = E.to_act(s0)[0]
        order.append(seat)
        s0, _ = E.apply_move(
            s0, seat, {"type": "place_house", "square": plan[seat][0 if len(order) <= n else 1]}
        )
    first = st["first"]
    assert order == [(first + 1 + i) % n for i in range(2 * n)]
    done = place_all(st, plan)
    assert done["phase"] == "plan" and done["active"] == first and done["turn"] == 1
    assert done["stock"] == [0] * n and len(done["houses"]) == 12 * n
    assert done["card"] is not None and len(done["deck"]) == 24


def test_quota_full_and_beach_limit():
    st = started(2, seed=1)
    seat = E.to_act(st)[0]
    other = 1 - seat
    # seat fills its L2 quota (6) while the other places harmlessly in L1 non-beach rows
    seq_me = ["A10", "B10", "C10", "D10", "F10", "G10"]
    seq_other = ["A6", "B6", "C6", "D6", "E6", "F5"]
    for a, b in zip(seq_me, seq_other, strict=True):
        st, _ = E.apply_move(st, seat, {"type": "place_house", "square": a})
        st, _ = E.apply_move(st, other, {"type": "place_house", "square": b})
    assert codes(E.apply_move, st, seat, {"type": "place_house", "square": "H10"}) == "quota-full"
    assert "H10" not in legal_placements(st, seat)
    for sq, sq2 in (("A5", "A11"), ("B5", "B11"), ("C5", "C11")):
        st, _ = E.apply_move(st, seat, {"type": "place_house", "square": sq})
        st, _ = E.apply_move(st, other, {"type": "place_house", "square": sq2})
    assert codes(E.apply_move, st, seat, {"type": "place_house", "square": "D5"}) == "beach-limit"


def test_quota_impossible_without_beach_house():
    st = started(2, seed=1)
    seat = E.to_act(st)[0]
    other = 1 - seat
    mine = ["A6", "B6", "C6", "D6", "E6"]
    theirs = ["A10", "B10", "C10", "D10", "E10"]
    for a, b in zip(mine, theirs, strict=True):
        st, _ = E.apply_move(st, seat, {"type": "place_house", "square": a})
        st, _ = E.apply_move(st, other, {"type": "place_house", "square": b})
    # a sixth non-beach house in L1 would leave no room for the compulsory beach house
    assert (
        codes(E.apply_move, st, seat, {"type": "place_house", "square": "F6"}) == "quota-impossible"
    )
    legal = legal_placements(st, seat)
    assert "F6" not in legal and "F5" in legal and "F10" in legal
    st2, _ = E.apply_move(st, seat, {"type": "place_house", "square": "F5"})
    assert st2["houses"]["F5"] == [seat, 1, False]


def test_every_listed_placement_applies_and_no_other():
    st = started(3, seed=8)
    seat = E.to_act(st)[0]
    listed = {m["square"] for m in E.legal_moves(st, seat)}
    for sq in board.POS:
        try:
            E.apply_move(st, seat, {"type": "place_house", "square": sq})
        except RuleError:
            assert sq not in listed
        else:
            assert sq in listed


def test_rules_package_is_pure():
    import ast
    import pathlib

    import services.windcity.rules as pkg

    allowed = {"__future__", "typing", "itertools", "shared.engine", "shared.rng"}
    # bots.py takes a seeded random.Random from its caller (no global randomness, no I/O)
    allowed |= {"random", "collections.abc"}
    allowed.add("bisect")  # listing.py: the plan listing reads a move by index
    allowed.add("functools")  # bots.py: a square's position, a cached pure function
    for path in pathlib.Path(pkg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the package
                    continue
                names = [node.module]
            else:
                continue
            for name in names:
                assert name in allowed, f"{path.name} imports {name}"


def test_a_state_stored_with_the_old_short_names_loads_unchanged() -> None:
    """Documents written before issue 13 (``n``, ``opts``, ``obs``) are renamed on load;
    a state no version wrote is refused with a stable code."""
    from services.windcity.rules import ENGINE
    from services.windcity.rules.state import OLD_NAMES

    state = ENGINE.setup(3, {}, 11)
    old = {short: state[field] for short, field in OLD_NAMES.items()}
    old.update({k: v for k, v in state.items() if k not in OLD_NAMES.values()})
    assert "n" in old and ENGINE.upgrade(old) == state
    assert ENGINE.upgrade(state) is state
    with pytest.raises(RuleError) as caught:
        ENGINE.upgrade({"version": 99})
    assert caught.value.code == "unsupported-game-version"


def test_a_state_loaded_from_json_plays_like_the_engines_own() -> None:
    """A state as the service stores it (JSON: each house the list [owner, pieces,
    insured]) upgrades to Houses equal to the engine's, with the same JSON; and a caller
    that skips upgrade gets the same answers and moves from the plain JSON, never changed."""
    import random

    from services.windcity.rules import ENGINE
    from services.windcity.rules.state import House

    rng = random.Random(5)
    state = ENGINE.setup(4, {"max_turns": 30}, 5)
    while not ENGINE.is_over(state):
        text = json.dumps(state)
        loaded = json.loads(text)
        upgraded = ENGINE.upgrade(json.loads(text))
        assert upgraded == state == loaded and json.dumps(upgraded) == text
        assert all(type(h) is House for h in upgraded["houses"].values())
        for h in upgraded["houses"].values():
            assert h == [h.owner, h.pieces, h.insured] and json.dumps(h) == json.dumps(list(h))
        assert json.dumps(ENGINE.view(loaded, None)) == json.dumps(ENGINE.view(state, None))
        assert ENGINE.score(loaded) == ENGINE.score(state)
        seat = rng.choice(ENGINE.to_act(state))
        assert json.dumps(ENGINE.view(loaded, seat)) == json.dumps(ENGINE.view(state, seat))
        listed = ENGINE.legal_moves(state, seat)
        assert ENGINE.legal_moves(loaded, seat) == listed
        assert list(ENGINE.legal_actions(loaded, seat)) == listed
        assert ENGINE.choices(loaded, seat) == ENGINE.choices(state, seat)
        move = rng.choice(listed)
        after, events = ENGINE.apply_move(state, seat, move)
        again, again_events = ENGINE.apply_move(loaded, seat, move)
        assert json.dumps((again, again_events)) == json.dumps((after, events))
        assert all(type(h) is House for h in again["houses"].values())
        forked = ENGINE.fork(json.loads(text))
        ENGINE.play(forked, seat, move)
        played = json.loads(text)  # play on a plain state: in place, no fork
        ENGINE.play(played, seat, move)
        assert json.dumps(forked) == json.dumps(played) == json.dumps(after)
        assert json.dumps(loaded) == text, "a loaded state changed"
        state = after
    assert ENGINE.result(json.loads(json.dumps(state))) == ENGINE.result(state)


@pytest.mark.parametrize(
    "houses", [{"C9": [0, 1]}, {"C9": 3}, {"C9": [[0], 1, False]}, None, [["C9", 0, 1, False]]]
)
def test_a_state_with_unreadable_houses_is_refused(houses) -> None:
    from services.windcity.rules import ENGINE

    state = json.loads(json.dumps(ENGINE.setup(3, {}, 11)))
    state["houses"] = houses
    with pytest.raises(RuleError) as caught:
        ENGINE.upgrade(state)
    assert caught.value.code == "unsupported-game-version"

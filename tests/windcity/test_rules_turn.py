"""Wind City turns on constructed states: Kauf, the plan and its refusals, renewal and
the insurance market, payment, bankruptcy, the end and the score (the hurricane's
movement: ``test_rules_hurricane.py``)."""

from __future__ import annotations

import json

import pytest

from services.windcity import rules as E

from .playout import answer_all, build, types
from .turns import code, paid, received, run


def test_kauf_makes_a_duplex():
    houses = {f"{c}12": [0, 1, False] for c in "ABCDFGHIJLB"[:10]}
    houses["C9"] = [0, 1, False]
    st = build(card=2, hurricane="F6", houses=houses)
    assert st["stock"][0] == 1
    after, ev = run(st, [3, 5], kauf="C9")  # W2: E6, D6; Kauf C9
    assert after["houses"]["C9"] == [0, 2, False] and after["stock"][0] == 0
    assert {"type": "kauf", "seat": 0, "square": "C9"} in ev
    assert paid(ev, 0, "actions") == 1 + 4
    assert after["money"][0] == 40 - 5 + 3  # calm bonus: no house entered


@pytest.mark.parametrize(
    "hurricane,target,extra,reason",
    [
        ("F6", "C9", {"D12": [0, 1, False]}, "no-stock"),  # all 12 on board
        ("F9", "C9", {}, "behind-hurricane"),  # same row after W2 (E9, D9)
        ("F10", "C9", {}, "behind-hurricane"),
        ("F17", "C18", {}, "last-rows"),  # 4 players: rows 17-19 are the last three
        ("F9", "D9", {}, "not-your-house"),  # destroyed by the movement first
    ],
)
def test_void_kauf_is_not_paid(hurricane, target, extra, reason):
    houses = {f"{c}13": [0, 1, False] for c in "ABCDFGHIJK"}
    houses[target] = [0, 1, False]
    houses.update(extra)
    st = build(card=2, hurricane=hurricane, houses=houses)
    after, ev = run(st, [3, 5], kauf=target)
    void = [e for e in ev if e["type"] == "kauf_void"]
    assert len(void) == 1 and void[0]["reason"] == reason and void[0]["square"] == target
    assert paid(ev, 0, "actions") == 1 and "kauf" not in types(ev)


def test_kauf_before_movement_then_duplex_destroyed():
    houses = {f"{c}13": [0, 1, False] for c in "ABCEFGHIJK"}
    houses["D8"] = [0, 1, False]
    st = build(card=2, hurricane="D7", houses=houses)
    assert st["stock"][0] == 1
    after, ev = run(st, [5, 2], kauf="D8")  # Kauf on D8 (row 8 > 7), then N4 over it
    assert types(ev).index("kauf") < types(ev).index("house_destroyed")
    gone = next(e for e in ev if e["type"] == "house_destroyed")
    assert gone == {"type": "house_destroyed", "square": "D8", "owner": 0, "pieces": 2}
    assert "D8" not in after["houses"] and after["stock"][0] == 2
    assert paid(ev, 0, "actions") == 4 + 3 and after["hurricane"] == "D11"
    st = build(card=9, hurricane="F7", houses=houses)  # card 9 has no Kauf
    assert code(st, 0, {"type": "plan", "actions": [1], "kauf": "D8", "renew": []}) == "bad-move"


def test_plan_errors():
    houses = {"C9": [0, 1, True], "A5": [0, 1, False], "D10": [0, 2, False], "E10": [1, 1, True]}
    st = build(card=2, hurricane="F6", houses=houses, money=[40, 40, 40, 40])

    def plan(actions, kauf=None, renew=(), **extra):
        return {"type": "plan", "actions": actions, "kauf": kauf, "renew": list(renew), **extra}

    assert code(st, 1, plan([1])) == "not-your-turn"
    assert code(st, 0, {"type": "insure", "squares": []}) == "wrong-phase"
    for acts in ([], [1, 1], [1, 2, 3, 4], [0], [6], ["1"], [True], None):
        assert code(st, 0, plan(acts)) == "bad-actions"
    assert code(st, 0, plan([5], kauf="C9")) == "bad-actions"  # Kauf alone: no movement
    assert code(st, 0, plan([1, 5])) == "kauf-target-required"
    assert code(st, 0, plan([1, 5], kauf="E10")) == "not-your-house"
    assert code(st, 0, plan([1, 5], kauf="A5")) == "bad-kauf-target"  # beach
    assert code(st, 0, plan([1, 5], kauf="D10")) == "bad-kauf-target"  # duplex
    assert code(st, 0, plan([1, 5], kauf="C9", renew=["C9"])) == "bad-kauf-target"
    assert code(st, 0, plan([1, 5], kauf="C3")) == "not-a-land-square"
    assert code(st, 0, plan([1, 5], kauf="Q3")) == "bad-square"
    assert code(st, 0, plan([1], renew=["E10"])) == "not-your-house"
    assert code(st, 0, plan([1], renew=["A5"])) == "not-insured"
    assert code(st, 0, plan([1], renew=["C9", "C9"])) == "bad-move"
    assert code(st, 0, plan([1], extra=1)) == "bad-move"
    poor = build(card=2, hurricane="F6", houses=houses, money=[1, 40, 40, 40])
    assert code(poor, 0, plan([1], renew=["C9"])) == "cannot-afford"
    assert code(st, 0, "plan") == "bad-move"


def test_renewal_and_lapse_are_public_and_paid():
    houses = {"C9": [0, 1, True], "A5": [0, 1, True], "D10": [0, 2, True], "G12": [1, 1, False]}
    st = build(card=2, hurricane="F6", houses=houses)
    after, ev = E.apply_move(
        st, 0, {"type": "plan", "actions": [1], "kauf": None, "renew": ["A5", "D10"]}
    )
    made = ev[0]
    assert made == {
        "type": "plan_made",
        "seat": 0,
        "renew": ["A5", "D10"],
        "lapsed": ["C9"],
        "paid": 6,
    }
    assert after["houses"]["C9"][2] is False and after["houses"]["A5"][2] is True
    assert after["money"][0] == 34 and paid(ev, 0, "renewal") == 6
    assert after["phase"] == "insure" and E.to_act(after) == [1]  # 2, 3 have no houses
    market = next(e for e in ev if e["type"] == "insurance_market")
    assert market["pending"] == [1] and market["skipped"] == [2, 3]
    for e in ev:  # nothing about the card or the plan yet
        assert "actions" not in e and "card" not in e and "kauf" not in e
    assert "turn_revealed" not in types(ev)


def test_insurance_market():
    houses = {
        "C9": [1, 1, False],
        "A5": [1, 1, False],
        "D10": [2, 2, False],
        "E10": [2, 1, True],
        "F12": [3, 1, False],
        "G12": [0, 1, False],
    }
    st = build(card=2, hurricane="F6", houses=houses, money=[40, 40, 40, 2])
    st, ev = E.apply_move(st, 0, {"type": "plan", "actions": [1], "kauf": None, "renew": []})
    assert sorted(E.to_act(st)) == [1, 2]  # seat 3 cannot afford any insurance: skipped
    ins = {"type": "insure", "squares": ["C9", "A5"]}
    assert code(st, 0, {"type": "insure", "squares": []}) == "not-your-turn"
    assert code(st, 3, {"type": "insure", "squares": []}) == "already-answered"
    assert code(st, 2, ins) == "not-your-house"
    assert code(st, 2, {"type": "insure", "squares": ["E10"]}) == "already-insured"
    assert code(st, 2, {"type": "insure", "squares": ["Z1"]}) == "bad-square"
    assert code(st, 2, {"type": "insure", "squares": "D10"}) == "bad-move"
    assert code(st, 2, {"type": "plan", "actions": [1]}) == "wrong-phase"
    st2, ev2 = E.apply_move(st, 2, {"type": "insure", "squares": ["D10"]})
    assert ev2[0] == {"type": "insured", "seat": 2, "squares": ["D10"], "paid": 6}
    assert st2["money"][2] == 34 and st2["money"][0] == 46
    assert E.to_act(st2) == [1] and "turn_revealed" not in types(ev2)
    assert code(st2, 2, {"type": "insure", "squares": []}) == "already-answered"
    poor = dict(st2)
    poor["money"] = [46, 8, 34, 2]
    assert code(poor, 1, ins) == "cannot-afford"  # 3 + 6 = 9 > 8
    st3, ev3 = E.apply_move(st2, 1, ins)
    assert types(ev3).count("turn_revealed") == 1
    assert st3["money"][1] == 31 and received(ev3, 0, "insurance") == 9
    assert st3["houses"]["C9"][2] and st3["houses"]["A5"][2] and st3["houses"]["D10"][2]
    assert st3["phase"] == "plan" and st3["active"] == 1


def test_everyone_skipped_resolves_inside_the_plan():
    st = build(card=2, hurricane="F7")
    after, ev = E.apply_move(st, 0, {"type": "plan", "actions": [1], "kauf": None, "renew": []})
    assert types(ev).count("turn_revealed") == 1 and after["active"] == 1


def test_bankruptcy_with_three_players():
    houses = {"C9": [0, 1, False], "D9": [0, 2, False], "A5": [1, 1, False]}
    st = build(n=3, card=2, hurricane="A1", houses=houses, money=[2, 40, 40])
    after, ev = run(st, [2])  # N4 costs 3; A5's house is destroyed, so no calm bonus
    bk = next(e for e in ev if e["type"] == "bankrupt")
    assert bk == {
        "type": "bankrupt",
        "seat": 0,
        "owed": 3,
        "paid": 2,
        "houses_removed": ["C9", "D9"],
    }
    assert after["alive"] == [False, True, True] and after["money"][0] == 0
    assert after["stock"][0] == 12 and "C9" not in after["houses"]
    assert after["phase"] == "plan" and after["active"] == 1
    # seat 0 is skipped from now on and is never asked about insurance
    after2, ev2 = E.apply_move(
        after, 1, {"type": "plan", "actions": [3], "kauf": None, "renew": []}
    )
    assert 0 not in after2["pending"]
    after3, _ = answer_all(after2)
    assert after3["active"] == 2
    after4, _ = answer_all(
        E.apply_move(after3, 2, {"type": "plan", "actions": [3], "kauf": None, "renew": []})[0]
    )
    assert after4["active"] == 1


def test_bankruptcy_leaves_last_player():
    st = build(n=2, card=2, hurricane="F1", houses={"C9": [1, 1, False]}, money=[0, 40])
    after, ev = run(st, [1])  # S1, lost, still costs 1
    assert any(e["type"] == "bankrupt" and e["paid"] == 0 and e["owed"] == 1 for e in ev)
    assert after["phase"] == "over" and after["end"] == "last_player"
    res = E.result(after)
    assert res["reason"] == "last_player" and res["winners"] == [1]
    assert ev[-1]["type"] == "game_over" and E.to_act(after) == []
    assert code(after, 1, {"type": "plan", "actions": [1]}) == "game-over"
    assert E.legal_moves(after, 1) == []


def test_max_turns_safety_stop():
    st = build(card=2, hurricane="F7", turn=10, options={"max_turns": 10})
    after, _ = run(st, [1])
    res = E.result(after)
    assert res["reason"] == "max_turns" and res["safety_stop"] is True and res["turns"] == 10


def test_deck_refills_from_discards():
    st = build(card=2, hurricane="F7")
    st["deck"], st["discard"] = [], [5, 9, 13]
    after, ev = run(st, [1])
    assert "deck_reshuffled" in types(ev)
    assert after["card"] in (2, 5, 9, 13) and len(after["deck"]) == 3 and after["discard"] == []


def over(houses, money, score_money=True):
    st = build(n=3, houses=houses, money=money, options={"score_money": score_money})
    st["phase"], st["end"] = "over", "north_edge"
    return st


def test_score_and_tie_break():
    houses = {
        "C9": [0, 1, False],
        "D9": [0, 1, False],
        "A5": [0, 1, True],
        "E10": [1, 2, False],
        "F10": [1, 1, False],
        "G10": [2, 1, False],
    }
    st = over(houses, [10, 20, 0])
    sc = {r["seat"]: r for r in E.score(st)["seats"]}
    assert (sc[0]["houses"], sc[0]["beach"], sc[0]["duplex"]) == (2, 1, 0)
    assert sc[0]["house_points"] == 40 and sc[0]["total"] == 50
    assert sc[1]["house_points"] == 30 and sc[1]["total"] == 50 and sc[1]["duplex"] == 1
    res = E.result(st)
    assert res["winners"] == [0] and [s["seat"] for s in res["standings"]] == [0, 1, 2]
    assert [s["rank"] for s in res["standings"]] == [1, 2, 3]
    no_money = E.result(over(houses, [10, 20, 0], score_money=False))
    assert no_money["winners"] == [0] and no_money["standings"][0]["total"] == 40
    shared = E.result(over({"C9": [0, 1, False], "D9": [1, 1, False]}, [5, 5, 5]))
    assert shared["winners"] == [0, 1] and [s["rank"] for s in shared["standings"]] == [1, 1, 3]
    assert E.result(build()) is None


def test_listed_plans_and_insures():
    houses = {
        "C9": [0, 1, False],
        "D9": [0, 1, False],
        "A5": [0, 1, False],  # beach: never a Kauf target
        "E10": [0, 1, True],
        "F10": [0, 2, True],  # duplex: never a Kauf target
        "G12": [1, 1, False],
    }
    st = build(card=2, hurricane="F6", houses=houses, money=[3, 40, 40, 40])
    listed = E.legal_moves(st, 0)
    assert E.legal_moves(st, 1) == []
    renew_sets = {tuple(m["renew"]) for m in listed}
    # 3 money, board order: E10 (2) fits, then F10 (3) does not; without E10, F10 fits
    assert renew_sets == {(), ("E10",), ("F10",)}
    by_target: dict = {}
    for m in listed:
        by_target.setdefault(m["kauf"], []).append(m)
    assert set(by_target) == {None, "C9", "D9", "E10"}
    # card 2: 40 orderings of its four movements, 44 orderings that include the Kauf
    assert len(by_target[None]) == 40 * 2 and len(by_target["C9"]) == 44 * 2
    assert {tuple(m["renew"]) for m in by_target["E10"]} == {(), ("F10",)}
    assert len({json.dumps(m, sort_keys=True) for m in listed}) == len(listed)
    price = {"E10": 2, "F10": 3}
    for m in listed:
        new, ev = E.apply_move(st, 0, m)
        assert ev[0]["type"] == "plan_made" and ev[0]["renew"] == m["renew"]
        assert new["money"][0] == 3 - sum(price[sq] for sq in m["renew"])
    st2, _ = E.apply_move(st, 0, {"type": "plan", "actions": [1], "kauf": None, "renew": []})
    ins = E.legal_moves(st2, 1)
    assert ins == [{"type": "insure", "squares": []}, {"type": "insure", "squares": ["G12"]}]


def test_seats_that_cannot_insure_anything_are_skipped():
    houses = {
        "A5": [1, 1, False],  # beach: 6
        "C9": [2, 2, False],  # duplex: 6
        "D9": [3, 1, False],  # single: 3
        "E9": [3, 1, True],
    }
    st = build(card=2, hurricane="F7", houses=houses, money=[40, 5, 6, 3])
    after, ev = E.apply_move(st, 0, {"type": "plan", "actions": [1], "kauf": None, "renew": []})
    market = next(e for e in ev if e["type"] == "insurance_market")
    assert market["pending"] == [2, 3] and market["skipped"] == [1]
    assert E.to_act(after) == [2, 3]
    for seat in (2, 3):  # each pending seat has a non-empty affordable answer
        assert len(E.legal_moves(after, seat)) >= 2

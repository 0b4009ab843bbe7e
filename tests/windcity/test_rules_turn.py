"""Wind City turns on constructed states: movement, wrap, destruction, insurance,
coming to rest, observatories, calm bonus, Kauf, payment, bankruptcy and the end."""

from __future__ import annotations

import json

import pytest

from services.windcity import rules as E
from shared.engine import RuleError

from .playout import answer_all, build, moved_squares, types


def run(st, actions, kauf=None, renew=()):
    """Seat ``active`` plans; everybody else answers with no insurance."""
    move = {"type": "plan", "actions": actions, "kauf": kauf, "renew": list(renew)}
    st, ev = E.apply_move(st, st["active"], move)
    return answer_all(st, ev)


def code(st, seat, move):
    with pytest.raises(RuleError) as info:
        E.apply_move(st, seat, move)
    return info.value.code


def paid(events, seat, reason):
    return sum(
        e["amount"]
        for e in events
        if e["type"] == "payment" and e["payer"] == seat and e["reason"] == reason
    )


def received(events, seat, reason):
    return sum(
        e["amount"]
        for e in events
        if e["type"] == "payment" and e["payee"] == seat and e["reason"] == reason
    )


def test_worked_example_card_2():
    st = build(card=2, hurricane="F7")
    after, ev = run(st, [1, 3, 4])
    moves = [e for e in ev if e["type"] == "hurricane_moved"]
    assert [(m["dir"], m["squares"]) for m in moves] == [
        ("S", ["F6"]),
        ("W", ["E6", "D6"]),
        ("W", ["C6", "B6"]),
    ]
    assert paid(ev, 0, "actions") == 4
    reveal = next(e for e in ev if e["type"] == "turn_revealed")
    assert reveal["card"] == 2 and reveal["plan"] == [1, 3, 4] and reveal["kauf"] is None
    assert [a.get("dir", "K") for a in reveal["card_actions"]] == ["S", "N", "W", "W", "K"]
    assert after["hurricane"] == "B6"
    # land entered, no house touched: calm bonus 3
    assert after["money"][0] == 40 - 4 + 3 and received(ev, 0, "calm") == 3
    assert after["discard"] == [2] and after["active"] == 1 and after["turn"] == 2


def test_wrap_east_over_the_sea():
    st = build(card=3, hurricane="K2")
    after, ev = run(st, [2])  # E2
    assert moved_squares(ev) == ["L2", "A2"] and after["hurricane"] == "A2"
    assert after["money"][0] == 39 and "calm_bonus" not in types(ev)  # sea only


def test_wrap_west_destroys_and_spares():
    houses = {"L10": [1, 1, False], "K10": [2, 1, True], "I10": [3, 1, False]}
    st = build(card=9, hurricane="B10", houses=houses)
    after, ev = run(st, [3])  # W4
    assert moved_squares(ev) == ["A10", "L10", "K10", "J10"]
    assert "L10" not in after["houses"] and after["stock"][1] == 12
    assert after["houses"]["K10"] == [2, 1, True]  # insured: unharmed, still insured
    assert after["houses"]["I10"] == [3, 1, False]
    destroyed = [e for e in ev if e["type"] == "house_destroyed"]
    assert destroyed == [{"type": "house_destroyed", "square": "L10", "owner": 1, "pieces": 1}]
    assert "calm_bonus" not in types(ev)


def test_duplex_destroyed_returns_both_pieces():
    st = build(card=3, hurricane="C8", houses={"D8": [1, 2, False]})
    after, ev = run(st, [2])
    assert "D8" not in after["houses"] and after["stock"][1] == 12
    assert any(e["type"] == "house_destroyed" and e["pieces"] == 2 for e in ev)


def test_south_steps_past_row_one_are_lost_but_paid():
    st = build(card=3, hurricane="C1")
    after, ev = run(st, [5])  # S2
    assert after["hurricane"] == "C1" and after["money"][0] == 40 - 3
    mv = next(e for e in ev if e["type"] == "hurricane_moved")
    assert mv["squares"] == [] and mv["lost_steps"] == 2


def test_coming_to_rest_past_insured_run_east():
    houses = {"E8": [1, 1, True], "F8": [2, 1, True], "G8": [1, 1, True], "H8": [2, 1, False]}
    st = build(card=3, hurricane="C8", houses=houses)
    after, ev = run(st, [2])  # E2 ends on E8 (insured) -> F8, G8, H8 (destroyed)
    rest = [e for e in ev if e["type"] == "hurricane_moved" and e.get("rest")]
    assert len(rest) == 1 and rest[0]["squares"] == ["F8", "G8", "H8"] and rest[0]["dir"] == "E"
    assert after["hurricane"] == "H8" and "H8" not in after["houses"]
    assert after["money"][0] == 40 - 1  # free extra steps


@pytest.mark.parametrize("action,start,expect", [(1, "D7", "D10"), (5, "D10", "D7")])
def test_coming_to_rest_north_and_south(action, start, expect):
    houses = {"D8": [1, 1, True], "D9": [1, 1, True]}
    st = build(card=1, hurricane=start, houses=houses)  # card 1: N1 ... S1
    after, _ = run(st, [action])
    assert after["hurricane"] == expect


def test_full_lap_turns_north():
    houses = {f"{c}8": [1 + i % 3, 1, True] for i, c in enumerate("ABCDEFGHIJKL")}
    st = build(card=3, hurricane="K7", houses=houses)
    after, ev = run(st, [1, 2])  # N1 onto K8, then E2: L8, A8 -> whole row insured
    rest = [e for e in ev if e["type"] == "hurricane_moved" and e.get("rest")]
    assert rest[0]["dir"] == "N" and rest[0]["squares"] == ["A9"]
    assert after["hurricane"] == "A9" and len(after["houses"]) == 12


def test_full_lap_north_continues_over_insured():
    houses = {f"{c}8": [1, 1, True] for c in "ABCDEFGHIJKL"}
    houses["A9"] = [2, 1, True]
    st = build(card=3, hurricane="K7", houses=houses)
    after, _ = run(st, [1, 2])
    assert after["hurricane"] == "A10"


def test_observatory_and_calm_bonus_on_land():
    st = build(card=3, hurricane="F6")
    after, ev = run(st, [2])  # E2: G6, H6 (observatory)
    assert after["hurricane"] == "H6" and after["observatories"]["H6"] is False
    assert received(ev, 0, "observatory") == 5 and received(ev, 0, "calm") == 3
    assert after["money"][0] == 40 + 5 + 3 - 1
    assert [e["type"] for e in ev].count("observatory_taken") == 1
    # the marker is gone: coming to rest there again pays nothing
    again = build(card=3, hurricane="F6")
    again["observatories"] = dict(after["observatories"])
    _, ev2 = run(again, [2])
    assert received(ev2, 0, "observatory") == 0 and received(ev2, 0, "calm") == 3


def test_sea_observatory_pays_without_calm_bonus():
    st = build(card=3, hurricane="B2")
    after, ev = run(st, [2])  # C2, D2
    assert after["money"][0] == 40 + 5 - 1 and "calm_bonus" not in types(ev)


def test_passing_an_observatory_pays_nothing():
    st = build(card=3, hurricane="G6")
    after, ev = run(st, [2, 4])  # E2: H6, I6; W1: H6 -> rests on H6
    assert received(ev, 0, "observatory") == 5
    st = build(card=3, hurricane="G6")
    after, ev = run(st, [2])  # passes H6, rests on I6
    assert after["hurricane"] == "I6" and received(ev, 0, "observatory") == 0
    assert after["observatories"]["H6"] is True


def test_no_calm_bonus_over_an_insured_house():
    st = build(card=3, hurricane="F9", houses={"G9": [1, 1, True]})
    after, ev = run(st, [2])  # G9 (insured), H9
    assert received(ev, 0, "calm") == 0 and after["money"][0] == 39


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


def test_leaving_the_north_edge_mid_action():
    st = build(n=2, card=2, hurricane="F12")  # 2 players: north edge is row 14
    after, ev = run(st, [2, 3])  # N4: F13, F14, off; W2 cancelled
    mv = [e for e in ev if e["type"] == "hurricane_moved"]
    assert len(mv) == 1 and mv[0]["squares"] == ["F13", "F14"] and mv[0]["left_board"]
    assert paid(ev, 0, "actions") == 3 and "calm_bonus" not in types(ev)
    assert after["phase"] == "over" and after["end"] == "north_edge" and after["hurricane"] is None
    assert E.result(after)["reason"] == "north_edge"


def test_full_play_area_moves_the_north_edge():
    st = build(n=2, card=2, hurricane="F12", options={"play_area": "full"})
    after, _ = run(st, [2, 3])
    assert after["phase"] == "plan" and after["hurricane"] == "D16"


def test_leaving_the_north_edge_while_coming_to_rest():
    houses = {"F13": [1, 1, True], "F14": [1, 1, True]}
    st = build(n=2, card=1, hurricane="F11", houses=houses)
    after, ev = run(st, [2])  # N3: F12, F13, F14 (insured) -> rest step north leaves
    assert after["end"] == "north_edge" and paid(ev, 0, "actions") == 2


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

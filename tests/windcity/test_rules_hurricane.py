"""Wind City's hurricane on constructed states: movement, wrap, destruction, coming to
rest, observatories, the calm bonus, and leaving by the north edge."""

from __future__ import annotations

import pytest

from services.windcity import rules as E

from .playout import build, moved_squares, types
from .turns import paid, received, run


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

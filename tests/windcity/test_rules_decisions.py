"""The rules file's **[decision]** sentences that the other Wind City tests do not pin.

Covered elsewhere: play area by player count (`test_rules_setup.py`), at least one
movement, Kauf target checks, skipped insurers, no refusing to sell, void Kauf unpaid,
the safety stop and money as points (`test_rules_turn.py`), coming to rest and the full
insured row, observatory marker gone (`test_rules_hurricane.py`).
"""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from services.windcity import rules as E
from services.windcity.schemas import WindCityOptionsSchema
from shared.engine import RuleError

from .playout import answer_all, build, types


def engine_accepts(num_players: int, options: dict) -> bool:
    try:
        E.setup(num_players, options, 1)
    except RuleError as e:
        assert e.code in ("invalid-option", "invalid-player-count")
        return False
    return True


def schema_accepts(options: dict) -> bool:
    try:
        WindCityOptionsSchema().load(options)
    except ValidationError:
        return False
    return True


def test_decision_option_defaults_are_the_rules_table() -> None:
    """players 5, play_area used_sections, score_money true, max_turns 100."""
    loaded = WindCityOptionsSchema().load({})
    assert loaded == {
        "players": 5,
        "play_area": "used_sections",
        "score_money": True,
        "max_turns": 100,
    }
    opts = dict(loaded)
    assert E.setup(opts.pop("players"), {}, 1)["options"] == opts


@pytest.mark.parametrize(
    "options",
    [{"max_turns": t} for t in (9, 10, 11, 100, 999, 1000, 1001, 10**6)]
    + [{"play_area": a} for a in ("used_sections", "full", "all", "")]
    + [{"score_money": v} for v in (True, False)],
)
def test_decision_option_ranges_agree_in_engine_and_schema(options: dict) -> None:
    """max_turns 10-1000, play_area used_sections / full: the API and the engine agree."""
    assert engine_accepts(3, options) == schema_accepts(options)
    if "max_turns" in options:
        assert engine_accepts(3, options) == (10 <= options["max_turns"] <= 1000)


@pytest.mark.parametrize("players", [0, 1, 2, 3, 4, 5, 6])
def test_decision_players_2_to_5_in_engine_and_schema(players: int) -> None:
    assert (
        engine_accepts(players, {}) == schema_accepts({"players": players}) == (2 <= players <= 5)
    )


def test_decision_kauf_target_is_fixed_at_plan_time() -> None:
    """The named house is destroyed first: the Kauf is void, never moved to another house."""
    houses = {f"{c}13": [0, 1, False] for c in "ABCDFGHIJ"}
    houses.update({"D9": [0, 1, False], "C12": [0, 1, False], "L10": [1, 1, False]})
    st = build(card=2, hurricane="F9", houses=houses)  # card 2: W2 is action 3, Kauf 5
    planned, ev = E.apply_move(
        st, 0, {"type": "plan", "actions": [3, 5], "kauf": "D9", "renew": []}
    )
    assert E.to_act(planned) == [1]  # seat 1 may insure L10
    assert all("kauf" not in e for e in ev)  # the target stays secret until resolved
    after, ev = answer_all(planned, ev)
    revealed = next(e for e in ev if e["type"] == "turn_revealed")
    assert revealed["kauf"] == "D9"
    void = [e for e in ev if e["type"] == "kauf_void"]
    assert void == [{"type": "kauf_void", "seat": 0, "square": "D9", "reason": "not-your-house"}]
    # C12 would have been a legal target (stock 1 after D9 fell, row 12 north of row 9)
    assert after["stock"][0] >= 1 and after["houses"]["C12"] == [0, 1, False]
    assert "kauf" not in types(ev)


def test_decision_no_kauf_without_a_single_non_beach_house() -> None:
    """A beach house and a duplex only: no listed plan uses the Kauf action."""
    houses = {"A5": [0, 1, False], "D10": [0, 2, True], "G12": [1, 1, False]}
    st = build(card=2, hurricane="F6", houses=houses)
    plans = E.legal_moves(st, 0)
    assert plans and all(5 not in p["actions"] and p["kauf"] is None for p in plans)
    for target in ("A5", "D10", "G12"):
        move = {"type": "plan", "actions": [1, 5], "kauf": target, "renew": []}
        with pytest.raises(RuleError) as info:
            E.apply_move(st, 0, move)
        assert info.value.code in ("bad-kauf-target", "not-your-house")
    # the only single non-beach house, if renewed, cannot be the target either
    st = build(card=2, hurricane="F6", houses={"C9": [0, 1, True]})
    assert {p["kauf"] for p in E.legal_moves(st, 0) if p["renew"]} == {None}


def test_decision_coming_to_rest_on_an_observatory_takes_its_marker() -> None:
    """The free rest steps stop on the first square without an insured house."""
    st = build(card=3, hurricane="D6", houses={"F6": [1, 1, True], "G6": [2, 1, True]})
    after, ev = answer_all(*E.apply_move(st, 0, {"type": "plan", "actions": [2], "kauf": None}))
    rest = [e for e in ev if e["type"] == "hurricane_moved" and e.get("rest")]
    assert rest and rest[0]["squares"] == ["G6", "H6"] and after["hurricane"] == "H6"
    assert {"type": "observatory_taken", "seat": 0, "square": "H6"} in ev
    assert after["observatories"]["H6"] is False and "calm_bonus" not in types(ev)


def over(money: list[int], alive: list[bool], houses: dict | None = None) -> dict:
    st = build(n=3, houses=houses or {}, money=money, alive=alive)
    st["phase"], st["end"] = "over", "last_player"
    return st


def test_decision_ranking_players_in_the_game_rank_above_players_out() -> None:
    # equal totals of 0: the seat still in the game ranks first
    res = E.result(over([0, 0, 0], [False, True, False]))
    assert res["winners"] == [1]
    assert [(s["seat"], s["rank"]) for s in res["standings"]] == [(1, 1), (0, 2), (2, 2)]
    # even a higher total does not lift a seat that went out
    res = E.result(over([50, 0, 7], [False, True, True]))
    assert [s["seat"] for s in res["standings"]] == [2, 1, 0] and res["winners"] == [2]


def test_decision_ranking_ties_break_on_house_points_then_share() -> None:
    houses = {"C9": [0, 1, False], "D9": [0, 1, False], "E9": [1, 1, False]}
    res = E.result(over([10, 20, 30], [True, True, True], houses))  # totals 30, 30, 30
    assert [(s["seat"], s["rank"]) for s in res["standings"]] == [(0, 1), (1, 2), (2, 3)]
    res = E.result(
        over([10, 10, 30], [True, True, True], {"C9": [0, 1, False], "E9": [1, 1, False]})
    )
    assert res["winners"] == [2]
    assert [(s["seat"], s["rank"]) for s in res["standings"]] == [(2, 1), (0, 2), (1, 2)]

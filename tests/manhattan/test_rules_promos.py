"""Each promotion card on a constructed board, including the ties the rules decide."""

from __future__ import annotations

from services.manhattan import rules as m
from services.manhattan.rules.promos import PROMO_IDS, promo_points

from .playout import check_invariants, make_state


def board(buildings: dict, n: int = 3) -> list:
    return make_state(n, buildings)["board"]


def test_ten_cards() -> None:
    assert len(PROMO_IDS) == 10 and "fake_news" in PROMO_IDS


def test_big_business() -> None:
    b = board(
        {
            (1, 1): [(0, 3)],
            (1, 2): [(1, 2)],  # city 1: seat 0 tallest
            (2, 1): [(1, 2)],
            (2, 2): [(2, 2)],  # city 2: tie for tallest -> nobody
            (3, 5): [(0, 1), (2, 3)],  # city 3: seat 2 alone
        }
    )
    assert promo_points("big_business", b, 3) == [2, 0, 2]


def test_megacity_full_city() -> None:
    full = {(1, lot): [(lot % 3, 1)] for lot in range(1, 10)}
    full[(2, 1)] = [(0, 1)]
    # city 1 has 9 buildings: 3 per seat; city 2 does not count
    assert promo_points("megacity", board(full), 3) == [3, 3, 3]


def test_megacity_most_buildings_and_tie() -> None:
    b = {(1, 1): [(0, 1)], (1, 2): [(0, 1)], (2, 1): [(1, 1)], (3, 1): [(2, 1)]}
    assert promo_points("megacity", board(b), 3) == [2, 0, 0]
    b[(2, 2)] = [(2, 1)]  # cities 1 and 2 tie with 2 buildings: both count
    assert promo_points("megacity", board(b), 3) == [2, 1, 1]
    assert promo_points("megacity", board({}), 3) == [0, 0, 0]


def test_mixed_use() -> None:
    b = {
        (1, 1): [(0, 1), (1, 1), (2, 2)],  # three colours: owner seat 2
        (1, 2): [(0, 1), (1, 1), (0, 2)],  # two colours
        (2, 3): [(1, 1), (0, 2), (2, 3), (1, 4)],  # three colours: owner seat 1
    }
    assert promo_points("mixed_use", board(b), 3) == [0, 2, 2]


def test_world_expansion() -> None:
    b = {(1, 1): [(0, 1)], (2, 2): [(0, 1)], (3, 3): [(1, 2), (2, 2)]}
    assert promo_points("world_expansion", board(b), 3) == [2, 0, 1]


def test_small_town_ignores_empty_cities_and_counts_ties() -> None:
    b = {
        (1, 1): [(0, 1)],
        (1, 2): [(0, 1)],
        (1, 3): [(1, 1)],
        (2, 1): [(1, 1)],  # city 2: one building
        (3, 1): [(2, 1)],  # city 3: one building (tie for fewest: both count)
    }
    assert promo_points("small_town", board(b), 3) == [0, 1, 1]
    assert promo_points("small_town", board({}), 3) == [0, 0, 0]


def test_founder() -> None:
    b = {
        (1, 1): [(0, 1), (1, 2)],  # seat 0 founded, seat 1 owns -> seat 0 +1
        (1, 2): [(0, 1), (1, 1), (0, 1)],  # seat 0 founded and owns -> nothing
        (2, 2): [(2, 1), (0, 2), (1, 3)],  # seat 2 founded -> +1
    }
    assert promo_points("founder", board(b), 3) == [1, 0, 1]


def test_above_the_clouds() -> None:
    b = {(1, 1): [(0, 4), (0, 1)], (1, 2): [(1, 4)], (2, 2): [(2, 2), (1, 3)]}
    assert promo_points("above_the_clouds", board(b), 3) == [1, 1, 0]


def test_suburbs() -> None:
    # city 1 full but lot 5 (centre): the 1-floor pieces next to 5 (2, 4, 6, 8) score
    full = {(1, lot): [(0, 1)] for lot in range(1, 10) if lot != 5}
    full[(1, 2)] = [(1, 1)]
    full[(1, 1)] = [(2, 1)]  # corner 1 touches 2 and 4, both built: no point
    full[(1, 8)] = [(1, 2)]  # 2 floors: no point
    full[(3, 9)] = [(2, 1)]  # alone in its city: empty neighbours
    full[(4, 4)] = [(2, 1), (1, 1)]  # 2 floors from two 1-floor pieces: no point
    assert promo_points("suburbs", board(full), 3) == [2, 1, 1]


def test_shire() -> None:
    b = {
        # city 1: seat 0 owns the 4 (tallest) and both 1s (lowest) -> +2
        (1, 1): [(0, 4)],
        (1, 2): [(0, 1)],
        (1, 3): [(0, 1)],
        (1, 4): [(1, 2)],
        # city 2: seat 1 owns the tallest but not every lowest -> nothing
        (2, 1): [(1, 3)],
        (2, 2): [(1, 1)],
        (2, 3): [(2, 1)],
        # city 3: one height only -> nothing
        (3, 1): [(2, 2)],
        (3, 2): [(2, 2)],
    }
    assert promo_points("shire", board(b), 3) == [2, 0, 0]


def test_fake_news_and_no_card_score_nothing() -> None:
    b = board({(1, 1): [(0, 1)]})
    assert promo_points("fake_news", b, 3) == [0, 0, 0]
    assert promo_points(None, b, 3) == [0, 0, 0]


def _last_placement(promo: list, pdeck: list, rnd: int = 1):
    state = make_state(
        2, {(1, 1): [(0, 1)], (2, 2): [(1, 1)]}, sel=[[1], []], options={"promo_cards": True}
    )
    state.update(promos_revealed=promo, promo_deck=pdeck, round=rnd)
    return state


def test_fake_news_scores_the_next_card_instead() -> None:
    state = _last_placement(["fake_news"], ["world_expansion", "founder", "shire"])
    lot = m.view(state, 0)["hand"][0]["lot"]
    after, events = m.apply_move(state, 0, {"type": "place", "city": 5, "lot": lot, "floors": 1})
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["promo"] == "fake_news" and scored["promo_scored"] == "world_expansion"
    assert scored["categories"]["promo"] == [2, 1]
    started = next(e for e in events if e["type"] == "round_started")
    assert started == {"type": "round_started", "round": 2, "start_player": 1, "promo": "founder"}
    assert after["promo_deck"] == ["shire"] and after["promos_revealed"] == ["fake_news", "founder"]
    v = m.view(after, None)["promo"]
    assert v["current"] == "founder"
    assert v["revealed"] == [
        {"round": 1, "card": "fake_news", "scored": "world_expansion"},
        {"round": 2, "card": "founder", "scored": None},
    ]
    assert m.score(after)["rounds"][0]["promo_scored"] == "world_expansion"
    check_invariants(after)


def test_fake_news_with_an_empty_deck_scores_nothing() -> None:
    state = _last_placement(["a", "b", "c", "fake_news"], [], rnd=4)
    state["promos_revealed"] = ["world_expansion", "founder", "shire", "fake_news"]
    lot = m.view(state, 0)["hand"][0]["lot"]
    after, events = m.apply_move(state, 0, {"type": "place", "city": 5, "lot": lot, "floors": 1})
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["promo_scored"] is None and scored["categories"]["promo"] == [0, 0]
    assert m.is_over(after)


def test_promo_card_applies_only_to_its_round() -> None:
    state = _last_placement(["world_expansion"], ["founder"])
    lot = m.view(state, 0)["hand"][0]["lot"]
    after, events = m.apply_move(state, 0, {"type": "place", "city": 5, "lot": lot, "floors": 1})
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["promo_scored"] == "world_expansion"
    assert scored["categories"]["promo"] == scored["categories"]["buildings"] == [2, 1]
    assert m.view(after, 0)["promo"]["current"] == "founder"


def test_promo_deck_is_shuffled_and_revealed_in_setup() -> None:
    firsts = {m.setup(3, {"promo_cards": True}, s)["promos_revealed"][0] for s in range(40)}
    assert len(firsts) > 3
    state = m.setup(3, {"promo_cards": True}, 1)
    assert len(state["promo_deck"]) == 9 and state["promos_revealed"][0] not in state["promo_deck"]
    assert m.view(state, None)["promo"]["current"] == state["promos_revealed"][0]

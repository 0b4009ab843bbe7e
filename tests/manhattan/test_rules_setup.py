"""Manhattan setup: the module's contract, player counts and options, the dealt state,
the seeded start player, and documents stored by older code (renamed on load)."""

from __future__ import annotations

import pytest

from services.manhattan import rules as m
from services.manhattan.rules.state import OLD_NAMES
from shared.engine import RuleError

from .playout import check_invariants, one_open_lot

OLD = {field: short for short, field in OLD_NAMES.items()}


def test_module_contract() -> None:
    assert (m.NAME, m.MIN_PLAYERS, m.MAX_PLAYERS) == ("manhattan", 2, 4)


@pytest.mark.parametrize("n", [0, 1, 5, "4", True, None])
def test_invalid_player_count(n) -> None:
    with pytest.raises(RuleError) as info:
        m.setup(n, {}, 1)
    assert info.value.code == "invalid-player-count"


@pytest.mark.parametrize(
    "options", [{"seed": 3}, {"six_rounds": 1}, {"promo_cards": "yes"}, {"players": 4}, []]
)
def test_invalid_options(options) -> None:
    with pytest.raises(RuleError) as info:
        m.setup(3, options, 1)
    assert info.value.code == "invalid-option"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n: int) -> None:
    state = m.setup(n, {}, 42)
    check_invariants(state)
    assert state["phase"] == "select" and state["round"] == 1
    assert m.to_act(state) == [state["start_player"]]
    assert [len(h) for h in state["hands"]] == [4] * n
    assert len(state["deck"]) == 45 - 4 * n
    v = m.view(state, 0)
    assert [p["side"] for p in v["players"]] == {
        2: ["S", "N"],
        3: ["S", "W", "N"],
        4: list("SWNE"),
    }[n]
    assert v["promo"]["current"] is None


def test_start_player_is_seeded_and_varies() -> None:
    starts = {m.setup(4, {}, seed)["start_player"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert m.setup(4, {}, 9) == m.setup(4, {}, 9)
    assert m.setup(4, {}, 9)["deck"] != m.setup(4, {}, 10)["deck"]


# ------------------------------------------------------------------ documents stored by older code


def test_documents_stored_before_the_discard_cap_count_zero_discards() -> None:
    state = one_open_lot([[2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3], [4, 4, 4, 4]], [5])
    old = {OLD.get(key, key): value for key, value in state.items()}  # short names
    del old["discards"]
    state = m.ENGINE.upgrade(old)
    assert m.view(state, 0)["discards_this_turn"] == 0
    assert m.legal_moves(state, 0) == [{"type": "discard", "lot": 2}]
    after, _ = m.apply_move(state, 0, {"type": "discard", "lot": 2})
    assert after["discards_this_turn"] == 1 and "discards" not in state


def test_a_state_stored_with_the_old_short_names_loads_unchanged() -> None:
    """Documents written before issue 13 (``n``, ``cur``, ``sel``...) are renamed on load:
    the game goes on exactly as if it had been stored today."""
    state = m.setup(3, {"promo_cards": True}, 7)
    for _ in range(5):
        state, _ = m.apply_move(
            state, m.to_act(state)[0], m.legal_moves(state, m.to_act(state)[0])[0]
        )
    old = {OLD.get(key, key): value for key, value in state.items()}
    assert "n" in old and "num_players" not in old
    assert m.ENGINE.upgrade(old) == state
    assert m.ENGINE.upgrade(state) is state


def test_an_unreadable_state_is_refused_with_a_stable_code() -> None:
    with pytest.raises(RuleError) as caught:
        m.ENGINE.upgrade({"players": 3, "turn": 1})
    assert caught.value.code == "unsupported-game-version"

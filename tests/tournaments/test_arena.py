"""The arena's next tables (shared/tournaments/arena.py): full tables only, nobody
twice, never the last table's opponents again, the leaders together."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.tournaments.arena import next_tables


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[str], int, dict[str, frozenset[str]]]:
    n = draw(st.integers(0, 500))
    size = draw(st.integers(2, 5))
    free = [f"p{i}" for i in range(n)]
    order = draw(st.permutations(free))
    last: dict[str, frozenset[str]] = {}
    k = draw(st.integers(2, 5))
    for i in range(0, n, k):
        group = frozenset(order[i : i + k])
        for p in group:
            last[p] = group - {p}
    return free, size, last


@settings(max_examples=150, deadline=None)
@given(pools())
def test_full_tables_nobody_twice_never_the_last_opponents(pool) -> None:
    free, size, last = pool
    tables = next_tables(free, size, last)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(free)
    assert all(len(t) == size for t in tables)
    for t in tables:
        for a in t:
            assert not (set(t) - {a}) & last.get(a, frozenset())


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 500), st.integers(2, 5))
def test_without_history_the_free_sit_in_order_and_only_the_rest_wait(n, size) -> None:
    free = [f"p{i}" for i in range(n)]
    tables = next_tables(free, size)
    assert [p for t in tables for p in t] == free[: len(tables) * size]
    assert n - len(tables) * size < size


def test_two_who_just_met_wait_for_someone_else() -> None:
    last = {"a": frozenset({"b"}), "b": frozenset({"a"})}
    assert next_tables(["a", "b"], 2, last) == []
    assert next_tables(["a", "b", "c"], 2, last) == [["a", "c"]]
    assert next_tables(["a", "b", "c", "d"], 2, last) == [["a", "c"], ["b", "d"]]

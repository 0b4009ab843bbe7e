"""Rendering checks: the drawn board matches the state it was drawn from, cell by cell."""

from __future__ import annotations

import random
import re

import pytest
from rich.table import Table
from rich.text import Text

from clients.cli import render, style
from clients.cli.games import manhattan as manhattan_ui
from clients.cli.games import windcity as windcity_ui
from services.manhattan import rules as mh
from services.windcity import rules as wc


def _play(engine, n: int, seed: int, moves: int, options: dict | None = None):
    state = engine.setup(n, options or {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return state


def _service_view(game: str, engine, state, seat, names) -> dict:
    return {
        "id": "g1",
        "game": game,
        "status": "finished" if engine.is_over(state) else "running",
        "version": 7,
        "players": [{"seat": i, "name": nm} for i, nm in enumerate(names)],
        "you": seat,
        "to_act": engine.to_act(state),
        "state": engine.view(state, seat),
        "result": engine.result(state),
    }


def _parse_manhattan(text: str) -> dict[tuple[int, int], tuple[str, str]]:
    """(city, lot) → (first line, floors lines joined) of each drawn cell, read off the text."""
    lines = text.splitlines()
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    title_re = re.compile(r"─ (\d) [^─]+ ─")
    i = 0
    while i < len(lines):
        cities = [int(m.group(1)) for m in title_re.finditer(lines[i])]
        if not cities:
            i += 1
            continue
        grid_rows: list[list[list[str]]] = []  # per drawn line: per panel: 3 cells
        j = i + 1
        while j < len(lines) and not lines[j].startswith("╰"):
            line = lines[j]
            if line.startswith("││"):
                panels = line.split("││ ││")
                row = []
                for p in panels:
                    parts = p.strip("│").split("│")
                    row.append(parts)
                grid_rows.append(row)
            j += 1
        assert len(grid_rows) == 9, f"3 cell rows of 3 lines expected, got {len(grid_rows)}"
        for k, city in enumerate(cities):
            for r in range(3):
                first, second, third = (grid_rows[3 * r + x][k] for x in range(3))
                assert len(first) == len(second) == len(third) == 3
                for c in range(3):
                    floors = f"{second[c].strip()} {third[c].strip()}".strip()
                    cells[(city, r * 3 + c + 1)] = (first[c].strip(), floors)
        i = j + 1
    return cells


@pytest.mark.parametrize("seed,moves", [(1, 40), (2, 75), (3, 200)])
def test_manhattan_cells_match_the_board(seed: int, moves: int) -> None:
    state = _play(mh, 4, seed, moves)
    view = _service_view("manhattan", mh, state, 0, ["ann", "bob", "cy", "dee"])
    text = render.to_text(render.render_view("manhattan", view), width=120)
    cells = _parse_manhattan(text)
    assert len(cells) == 54
    built = 0
    for city in view["state"]["cities"]:
        for lot in city["lots"]:
            first, second = cells[(city["city"], lot["lot"])]
            pieces = state["board"][(city["city"] - 1) * 9 + lot["lot"] - 1]
            if not pieces:
                assert first == str(lot["lot"]) and second == ""
                continue
            built += 1
            height = sum(p % 10 for p in pieces)
            owner = pieces[-1] // 10
            assert first == f"{lot['lot']} h{height} S{owner}"
            held: dict[int, int] = {}
            for p in pieces:
                held[p // 10] = held.get(p // 10, 0) + p % 10
            pairs = (part.split(":") for part in second.split())
            drawn = {int(seat): int(floors) for seat, floors in pairs}
            assert drawn == held
            assert second.split()[0] == f"{owner}:{held[owner]}"  # owner first
    assert built > 0


def test_manhattan_cell_colour_is_the_owners() -> None:
    state = _play(mh, 3, 5, 60)
    view = mh.view(state, None)
    for city in view["cities"]:
        panel = manhattan_ui.city_panel(city)
        grid = panel.renderable
        assert isinstance(grid, Table)
        for lot in city["lots"]:
            r, c = divmod(lot["lot"] - 1, 3)
            cell = grid.columns[c]._cells[r]
            assert isinstance(cell, Text)
            if lot["owner"] is None:
                assert cell.style == "dim"
            else:
                assert style.seat_colour(lot["owner"]) in str(cell.style)


def test_manhattan_players_hand_and_scores() -> None:
    state = _play(mh, 2, 9, 30)
    view = _service_view("manhattan", mh, state, 1, ["ann", "bob"])
    text = render.to_text(render.render_view("manhattan", view), width=120)
    hand = view["state"]["hand"]
    assert hand, "a running game's seat has a hand"
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand"))
    assert hand_line.split(": ", 1)[1].split() == [f"{c['card']}→{c['lot']}" for c in hand]
    for p in view["state"]["players"]:
        row = next(line for line in text.splitlines() if line.strip().startswith(f"{p['seat']}:"))
        stock = " ".join(f"{f}f×{p['stock'][str(f)]}" for f in (1, 2, 3, 4))
        assert stock in row
        assert row.split()[-1] == str(p["score"])
    # a spectator's view draws no hand at all
    spect = _service_view("manhattan", mh, state, None, ["ann", "bob"])
    assert "Your hand" not in render.to_text(render.render_view("manhattan", spect), width=120)


def _parse_windcity(text: str) -> dict[str, str]:
    cells: dict[str, str] = {}
    row_re = re.compile(r"^│\s*(\d+) (.{36}) (\d+)(?: L\d)?\s*│$")
    for line in text.splitlines():
        m = row_re.match(line)
        if not m:
            continue
        row = int(m.group(1))
        assert int(m.group(3)) == row
        for c in range(12):
            cells[f"{'ABCDEFGHIJKL'[c]}{row}"] = m.group(2)[3 * c : 3 * c + 3]
    return cells


def _expected_wc(state_view: dict, sq: str) -> str:
    if state_view["hurricane"] == sq:
        return " @ "
    for h in state_view["houses"]:
        if h["square"] == sq:
            kind = "D" if h["duplex"] else "B" if h["beach"] else "h"
            return f"{h['owner']}{kind}{'*' if h['insured'] else ' '}"
    for o in state_view["observatories"]:
        if o["square"] == sq:
            return "(5)" if o["marker"] else "( )"
    row = int(sq[1:])
    return " ~ " if row <= 4 else " . " if row == 5 else " · "


@pytest.mark.parametrize("n,seed,moves", [(4, 1, 5), (4, 2, 80), (2, 3, 120), (5, 4, 150)])
def test_windcity_grid_matches_the_state(n: int, seed: int, moves: int) -> None:
    state = _play(wc, n, seed, moves)
    seat = wc.to_act(state)[0] if wc.to_act(state) else None
    view = _service_view("windcity", wc, state, seat, [f"p{i}" for i in range(n)])
    text = render.to_text(render.render_view("windcity", view), width=120)
    cells = _parse_windcity(text)
    sv = view["state"]
    assert len(cells) == 12 * sv["north_edge"]
    for sq, drawn in cells.items():
        assert drawn == _expected_wc(sv, sq), sq
    if sv["hurricane"]:
        assert cells[sv["hurricane"]] == " @ "
    for h in sv["houses"]:
        assert cells[h["square"]][0] == str(h["owner"])


def test_windcity_duplex_insured_beach_and_used_observatory() -> None:
    sv = {
        "north_edge": 14,
        "hurricane": "C3",
        "turn": 4,
        "max_turns": 100,
        "phase": "plan",
        "houses": [
            {"square": "E9", "owner": 1, "insured": False, "duplex": True, "beach": False},
            {"square": "F5", "owner": 0, "insured": True, "duplex": False, "beach": True},
            {"square": "A14", "owner": 2, "insured": True, "duplex": False, "beach": False},
        ],
        "observatories": [{"square": "D2", "marker": False}, {"square": "H6", "marker": True}],
        "players": [],
    }
    cells = _parse_windcity(render.to_text(windcity_ui.board(sv)))
    assert cells["E9"] == "1D "
    assert cells["F5"] == "0B*"
    assert cells["A14"] == "2h*"
    assert cells["D2"] == "( )"
    assert cells["H6"] == "(5)"
    assert cells["C3"] == " @ "
    assert cells["C4"] == " ~ " and cells["C5"] == " . " and cells["C6"] == " · "


def test_windcity_private_card_only_for_its_holder() -> None:
    state = _play(wc, 3, 11, 50)
    while wc.view(state, None)["phase"] != "plan" and not wc.is_over(state):
        seat = wc.to_act(state)[0]
        state, _ = wc.apply_move(state, seat, wc.legal_moves(state, seat)[0])
    if wc.is_over(state):
        pytest.skip("game ended before a plan phase")
    active = wc.to_act(state)[0]
    mine = _service_view("windcity", wc, state, active, ["a", "b", "c"])
    other = _service_view("windcity", wc, state, (active + 1) % 3, ["a", "b", "c"])
    card = mine["state"]["you"]["card"]
    text = render.to_text(render.render_view("windcity", mine), width=120)
    assert f"Your card {card['number']}:" in text
    assert "Your card" not in render.to_text(render.render_view("windcity", other), width=120)


def test_result_and_score_tables() -> None:
    state = _play(mh, 3, 4, 10_000)
    assert mh.is_over(state)
    view = _service_view("manhattan", mh, state, None, ["ann", "bob", "cy"])
    text = render.to_text(render.render_view("manhattan", view), width=120)
    winners = view["result"]["winners"]
    assert "winner: " + ", ".join(["ann", "bob", "cy"][w] for w in winners) in text
    score = {"status": "finished", "score": mh.score(state)}
    stext = render.to_text(render.render_score("manhattan", score, view), width=120)
    total_line = next(line for line in stext.splitlines() if line.strip().startswith("total"))
    assert [int(x) for x in total_line.split()[1:]] == mh.score(state)["totals"]


@pytest.mark.parametrize("game,engine,n", [("manhattan", mh, 3), ("windcity", wc, 3)])
def test_every_event_of_a_game_reads_as_a_sentence(game: str, engine, n: int) -> None:
    names = {0: "ann", 1: "bob", 2: "cy"}
    state = engine.setup(n, {}, 8)
    rng = random.Random(8)
    kinds = set()
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, events = engine.apply_move(state, seat, rng.choice(engine.legal_moves(state, seat)))
        for ev in events:
            line = render.describe_event(game, ev, names)
            kinds.add(ev["type"])
            assert "=" not in line, line  # not the generic key=value fallback
            if "seat" in ev and ev["type"] not in ("hurricane_moved",):
                assert names[ev["seat"]] in line, line
    assert len(kinds) >= 5

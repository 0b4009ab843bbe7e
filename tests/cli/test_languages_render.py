"""The CLI's boards, legends, results, event lines, menus and refusals in English,
Japanese and German, in the game's own words (the browser client's); English as it
was (issue 34; the catalogs and the choice of language: test_languages.py)."""

from __future__ import annotations

import pytest

from clients.cli import i18n, render
from clients.cli.i18n import ngettext, person
from clients.cli.menu import Menu
from clients.cli.notation import NotationError, parse_move

# ----------------------------------------------------------------------------- rendering


def _manhattan_view() -> dict:
    lots = [{"lot": n, "pieces": []} for n in range(1, 10)]
    lots[6] = {"lot": 7, "owner": 1, "height": 3, "pieces": [{"seat": 1, "floors": 3}]}
    state = {
        "round": 2,
        "rounds": 4,
        "phase": "build",
        "start_player": 0,
        "deck_size": 20,
        "current_player": 1,
        "cities": [{"city": c, "name": "City", "lots": lots} for c in range(1, 7)],
        "players": [
            {"seat": s, "side": "S", "stock": {"1": 3}, "selected": [1], "hand_size": 4}
            for s in (0, 1)
        ],
        "hand": [{"card": 2, "lot": 2}],
    }
    result = {
        "winners": [1],
        "standings": [
            {"seat": 1, "rank": 1, "total": 12, "tallest": 3, "majorities": 2},
            {"seat": 0, "rank": 2, "total": 9, "tallest": 2, "majorities": 1},
        ],
    }
    players = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}]
    return {"id": "g1", "game": "manhattan", "status": "finished", "version": 9, "you": 0} | {
        "players": players,
        "to_act": [1],
        "state": state,
        "result": result,
    }


def _windcity_view() -> dict:
    state = {
        "turn": 3,
        "max_turns": 60,
        "phase": "plan",
        "hurricane": "C4",
        "deck_size": 30,
        "north_edge": 14,
        "land_sections": 2,
        "quota": 6,
        "active": 0,
        "houses": [{"square": "C6", "owner": 0}, {"square": "D5", "owner": 1, "beach": True}],
        "observatories": [{"square": "E7", "marker": True}],
        "players": [
            {"seat": s, "money": 40, "houses_on_board": 6, "stock": 6, "in_game": True}
            for s in (0, 1)
        ],
        "you": {"card": {"number": 7, "actions": [{"kind": "kauf", "cost": 4}]}},
    }
    result = {
        "reason": "north_edge",
        "winners": [0],
        "standings": [
            {"seat": 0, "rank": 1, "total": 90, "house_points": 60, "money": 30, "in_game": True},
            {"seat": 1, "rank": 2, "total": 0, "house_points": 0, "money": 0, "in_game": False},
        ],
    }
    players = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}]
    return {"id": "g2", "game": "windcity", "status": "finished", "version": 40, "you": 0} | {
        "players": players,
        "to_act": [0],
        "state": state,
        "result": result,
    }


EXPECTED = {
    # language: (manhattan view, windcity view, manhattan legend, windcity legend)
    "en": (
        ("round 2/4", "Players", "Your hand", "Result", "winner: bob", "tie-break 1: tallest"),
        ("turn 3/60", "@ hurricane", "money", "still in", "north edge", "Your card 7"),
        ("Legend: lots are numbered",),
        ("Legend: @ hurricane",),
    ),
    "ja": (
        ("ラウンド 2/4", "プレイヤー", "手札", "最終得点", "勝者: bob", "同点時 1: 最高層"),
        ("手番 3/60", "@ ハリケーン", "お金", "状態", "北の端", "あなたのカード #7", "脱落"),
        ("凡例: エリアの番号は", "ストック"),
        ("凡例: @ ハリケーン", "二世帯住宅", "測候所", "陸地セクション(Land)"),
    ),
    "de": (
        ("Runde 2/4", "Spieler", "Handkarten", "Endstand", "Sieger: bob", "Gleichstand 1"),
        ("Zug 3/60", "@ Hurrikan", "Geld", "noch dabei", "Nordrand", "Deine Karte 7", "aus"),
        ("Legende: die Bauplätze", "Vorrat"),
        ("Legende: @ Hurrikan", "Doppelhaus", "Wetterwarte", "Land-Abschnitts"),
    ),
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_board_legend_and_result_in_each_language(language: str) -> None:
    i18n.set_language(language)
    mh, wc, mh_legend, wc_legend = EXPECTED[language]
    for game, view, words in (
        ("manhattan", _manhattan_view(), mh),
        ("windcity", _windcity_view(), wc),
    ):
        text = render.to_text(render.render_view(game, view), 160)
        for word in words:
            assert word in text, (language, game, word)
    assert all(w in render.legend("manhattan").plain for w in mh_legend)
    assert all(w in render.legend("windcity").plain for w in wc_legend)
    # the notation on the board never changes: lot 7 built by seat 1, three floors high
    assert "7 h3 S1" in render.to_text(render.render_view("manhattan", _manhattan_view()), 160)


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "bob built 2 floors in city 3 lot 7 → height 5 (takes it over)"),
        ("ja", "bobが都市 3 のエリア7 に2階を建てました → 高さ 5階(所有権を奪う)"),
        ("de", "bob hat 2 Stockwerke in Stadt 3 auf Bauplatz 7 gebaut → Höhe 5 (übernimmt es)"),
    ],
)
def test_an_event_line(language: str, line: str) -> None:
    i18n.set_language(language)
    event = {
        "type": "piece_placed",
        "seat": 1,
        "city": 3,
        "lot": 7,
        "floors": 2,
        "height": 5,
        "owner": 1,
        "previous_owner": 0,
    }
    assert render.describe_event("manhattan", event, {0: "ann", 1: "bob"}) == line


def test_the_second_person() -> None:
    """``you`` (the default name against bots) gets its own sentence, in every language."""
    pays, you_pay = i18n.N_("{who} pays {to} {amount} ({why})"), "you pay {to} {amount} ({why})"
    words = {"to": "ann", "amount": 3, "why": "x"}
    assert person("bob", pays, you_pay, **words) == "bob pays ann 3 (x)"
    assert person("you", pays, you_pay, **words) == "you pay ann 3 (x)"
    assert person("You", pays, you_pay, **words) == "You pay ann 3 (x)"
    i18n.set_language("de")
    assert person("you", pays, you_pay, **words) == "du zahlst ann 3 (x)"
    event = {"type": "bankrupt", "seat": 0}
    assert (
        render.describe_event("windcity", event, {0: "you"}) == "du bist pleite und aus dem Spiel"
    )
    assert ngettext("{n} floor", "{n} floors", 1) == "1 Stockwerk"
    assert ngettext("{n} floor", "{n} floors", 3) == "3 Stockwerke"
    i18n.set_language("ja")
    assert ngettext("{n} floor", "{n} floors", 3) == "3階"


def test_menu_and_refusals_in_japanese_fit_their_width() -> None:
    """A Japanese character takes two columns: titles are cut by width, not characters."""
    i18n.set_language("ja")
    moves = [
        {"type": "place", "city": c, "lot": lot, "floors": 1} for c in (1, 2) for lot in (1, 2)
    ]
    menu = Menu.of("manhattan", moves)
    lines = menu.lines(30, max_rows=1)
    assert lines[0].plain.startswith("4 手") and all(line.cell_len <= 30 for line in lines)
    with pytest.raises(NotationError, match="Wind City の手ではありません"):
        parse_move("windcity", "fly away")
    with pytest.raises(NotationError, match="1〜4"):
        menu.pick("9")
    detail = "you already have 6 houses in section L2"
    assert render.game_module("windcity").problem_detail(detail).endswith("L2(10〜14列)")
    i18n.set_language("de")
    refused = "du hast schon 6 Häuser in Sektion L2"
    assert render.game_module("windcity").problem_detail(refused).endswith("(Reihen 10–14)")

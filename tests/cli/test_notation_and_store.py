"""Short notation round-trips every legal move; the token file is private and durable."""

from __future__ import annotations

import json
import os
import random
import stat

import pytest

from clients.cli import notation
from clients.cli.tokens_store import TokenStore, store_path
from services.manhattan import rules as mh
from services.windcity import rules as wc


@pytest.mark.parametrize("game,engine,n", [("manhattan", mh, 4), ("windcity", wc, 3)])
def test_every_legal_move_round_trips(game: str, engine, n: int) -> None:
    rng = random.Random(5)
    state = engine.setup(n, {}, 5)
    kinds = set()
    for _ in range(150):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        for m in legal[:200]:
            text = notation.format_move(game, m)
            back = notation.parse_move(game, text, legal)
            if game == "windcity" and m["type"] == "plan":
                back.setdefault("renew", [])
            assert back == m, (text, m)
            kinds.add(m["type"])
        state, _ = engine.apply_move(state, seat, rng.choice(legal))
    expected = {"select", "place"} if game == "manhattan" else {"place_hurricane", "place_house"}
    assert expected <= kinds


def test_examples_from_the_brief() -> None:
    assert notation.parse_move("manhattan", "3 7 2") == {
        "type": "place",
        "city": 3,
        "lot": 7,
        "floors": 2,
    }
    assert notation.parse_move("manhattan", "select 1 1 2 2 3 4") == {
        "type": "select",
        "pieces": [1, 1, 2, 2, 3, 4],
    }
    assert notation.parse_move("manhattan", "discard 5") == {"type": "discard", "lot": 5}
    assert notation.parse_move("manhattan", "forfeit 2") == {"type": "forfeit", "floors": 2}
    assert notation.parse_move("windcity", "C7") == {"type": "place_house", "square": "C7"}
    hurricane_phase = [{"type": "place_hurricane", "square": "C1"}]
    assert notation.parse_move("windcity", "c1", hurricane_phase) == {
        "type": "place_hurricane",
        "square": "C1",
    }
    assert notation.parse_move("windcity", "plan 1,3,4 kauf=C9 renew=C7,D8") == {
        "type": "plan",
        "actions": [1, 3, 4],
        "kauf": "C9",
        "renew": ["C7", "D8"],
    }
    assert notation.parse_move("windcity", "insure D8 E9") == {
        "type": "insure",
        "squares": ["D8", "E9"],
    }
    assert notation.parse_move("windcity", "insure") == {"type": "insure", "squares": []}
    body = '{"type": "place", "city": 1, "lot": 2, "floors": 3}'
    assert notation.parse_move("manhattan", body) == json.loads(body)


@pytest.mark.parametrize(
    "game,text",
    [
        ("manhattan", "3 7"),
        ("manhattan", "x y z"),
        ("manhattan", "discard"),
        ("windcity", "M7"),
        ("windcity", "C25"),
        ("windcity", "plan 1,2 bogus=1"),
        ("windcity", "{not json"),
        ("manhattan", "[1, 2]"),
    ],
)
def test_bad_notation_is_rejected(game: str, text: str) -> None:
    with pytest.raises(notation.NotationError):
        notation.parse_move(game, text)


def test_token_store_is_private_and_keeps_seats(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BOARDGAMES_HOME", str(tmp_path / "home"))
    assert store_path() == tmp_path / "home" / "tokens.json"
    store = TokenStore()
    assert store.last_game("manhattan") is None
    store.add_host("manhattan", "g1", "host-secret", "http://x")
    store.add_seat("manhattan", "g1", 0, "tok0", "ann")
    store.add_seat("manhattan", "g1", 2, "tok2", "cy")
    store.add_seat("windcity", "w1", 1, "wtok", "bob")
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600
    again = TokenStore()
    assert again.host_token("manhattan", "g1") == "host-secret"
    assert again.seats("manhattan", "g1") == {
        0: {"token": "tok0", "name": "ann"},
        2: {"token": "tok2", "name": "cy"},
    }
    assert again.last_game("manhattan") == "g1"
    assert again.last_game("windcity") == "w1"
    assert again.seats("windcity", "nope") == {}
    # no temp files are left behind by the atomic writes
    assert sorted(p.name for p in store.path.parent.iterdir()) == ["tokens.json"]

"""Player names: stored in NFC; a name that differs from one already in the game only by
case or by confusable characters (Unicode TR39 skeleton) is ``409 name-taken``."""

from __future__ import annotations

import re
import unicodedata

import pytest

from shared.games import name_ranges, names
from shared.games.errors import Invalid
from tests.kit.helpers import assert_problem, auth, create, join


def _join(client, game_id: str, name: str):
    return client.post(f"/games/{game_id}/players", json={"name": name})


def test_names_are_stored_and_shown_in_nfc(toy_client, redis_client):
    game_id, _ = create(toy_client, players=3)
    decomposed = unicodedata.normalize("NFD", "Zoë Ångström")
    assert decomposed != "Zoë Ångström"
    r = _join(toy_client, game_id, decomposed)
    assert r.status_code == 201
    assert r.get_json()["game"]["players"][0]["name"] == "Zoë Ångström"
    events = toy_client.get(f"/games/{game_id}/events").get_json()["events"]
    assert events[-1]["name"] == "Zoë Ångström"
    # the composed form is the same name
    assert_problem(_join(toy_client, game_id, "Zoë Ångström"), 409, "name-taken")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "ann"),  # case only
        ("Ann", "ANN"),
        ("Straße", "STRASSE"),  # full case folding
        ("Ann", "\u0410nn"),  # Cyrillic capital A
        ("paypal", "p\u0430yp\u0430l"),  # Cyrillic small a
        ("Il", "ll"),  # capital I looks like small l
        ("l1l", "lll"),  # digit one
        ("modern", "rnodern"),  # rn looks like m
        ("Bob", "\uff22ob"),  # fullwidth B
        ("Ann", "Ann "),  # trailing space
        ("Ann Lee", "Ann  Lee"),  # a run of spaces
        ("Ann", "\U0001d400nn"),  # mathematical bold A
    ],
)
def test_confusable_or_case_only_names_are_taken(toy_client, first, second):
    game_id, _ = create(toy_client, players=3)
    join(toy_client, game_id, first)
    body = assert_problem(_join(toy_client, game_id, second), 409, "name-taken")
    assert first in body["detail"]
    # nothing was written: the seat is still free for a distinct name
    assert _join(toy_client, game_id, "Somebody Else").get_json()["seat"] == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann", "Anne"), ("Zoe", "Zoë"), ("Bob", "Rob"), ("Ann", "A nn"), ("李", "季")],
)
def test_distinct_names_both_join(toy_client, first, second):
    game_id, _ = create(toy_client, players=2)
    join(toy_client, game_id, first)
    assert _join(toy_client, game_id, second).status_code == 201


def test_a_name_may_be_reused_in_another_game(toy_client):
    one, _ = create(toy_client, players=2)
    two, _ = create(toy_client, players=2)
    join(toy_client, one, "Ann")
    assert _join(toy_client, two, "ann").status_code == 201


def test_the_skeleton_is_unicodes():
    """Spot checks of the data: TR39's own examples map to the Latin prototypes."""
    assert names.skeleton("p\u0430yp\u0430l") == "paypal"
    assert names.skeleton("m") == "rn"
    assert names.skeleton("0") == "O"
    assert names.skeleton("I") == names.skeleton("1") == "l"
    assert len(names._prototypes()) > 6000


# -- invisible code points (issue #29 item 4) ------------------------------------------------

INVISIBLE = [
    "\u061c",  # ARABIC LETTER MARK (bidi, format)
    "\u00ad",  # SOFT HYPHEN (format)
    "\u034f",  # COMBINING GRAPHEME JOINER (default-ignorable mark)
    "\ufe0f",  # VARIATION SELECTOR-16
    "\U000e0100",  # VARIATION SELECTOR-17
    "\u180e",  # MONGOLIAN VOWEL SEPARATOR (format)
    "\u3164",  # HANGUL FILLER (a letter that shows as nothing)
    "\u115f",  # HANGUL CHOSEONG FILLER
    "\u1160",  # HANGUL JUNGSEONG FILLER
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\ufff9",  # INTERLINEAR ANNOTATION ANCHOR (format)
    "\U000e0041",  # TAG LATIN CAPITAL LETTER A
    "\u2800",  # BRAILLE PATTERN BLANK
    "\ue000",  # private use
    "\U000f0000",  # supplementary private use
    "\u0378",  # unassigned
    "\U0001d173",  # MUSICAL SYMBOL BEGIN BEAM (format)
]


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_with_an_invisible_code_point_is_refused(toy_client, char):
    game_id, _ = create(toy_client, players=3)
    join(toy_client, game_id, "ann")
    for name in ("ann" + char, char + "bob", "b" + char + "ob"):
        body = assert_problem(_join(toy_client, game_id, name), 422, "validation-error")
        assert body["errors"] == {"json": {"name": [names.MESSAGE]}}
    # nothing was written
    assert _join(toy_client, game_id, "bob").get_json()["seat"] == 1


@pytest.mark.parametrize(
    "name", ["\U000e0041\U000e0042", "\u3164", "\u2800", "\u3164\u3164", "\u2800 \u2800", "\ufe0f"]
)
def test_a_name_of_invisible_code_points_only_is_refused(toy_client, name):
    game_id, _ = create(toy_client, players=2)
    assert_problem(_join(toy_client, game_id, name), 422, "validation-error")


def test_names_compare_with_invisible_code_points_removed():
    """A name stored before the rule still clashes with its visible letters."""
    for char in INVISIBLE:
        assert names.clashes("ann" + char, "ann"), f"U+{ord(char):04X}"
        assert names.clashes("a" + char + "nn", "ANN"), f"U+{ord(char):04X}"
    assert not names.clashes("ann\u2800bob", "ann")


def test_visible_names_still_join(toy_client):
    game_id, _ = create(toy_client, players=4)
    for name in ("Zoë", "李小龍", "😀 Ann", "Ann-Marie O'Neil"):
        assert _join(toy_client, game_id, name).status_code == 201


# -- bot names (issue #29 item 5) ------------------------------------------------------------


def _bot(client, game_id: str, host: str, **body):
    return client.post(
        f"/games/{game_id}/players", json={"bot": "random", **body}, headers=auth(host)
    )


@pytest.mark.parametrize("name", ["ann", "ANN", "Ann", "\u0430nn", "ann ", "\uff41nn"])
def test_a_bot_name_that_clashes_with_a_player_is_taken(toy_client, name):
    game_id, host = create(toy_client, players=3)
    join(toy_client, game_id, "ann")
    body = assert_problem(_bot(toy_client, game_id, host, name=name), 409, "name-taken")
    assert "'ann'" in body["detail"]
    assert _bot(toy_client, game_id, host, name="Robo").status_code == 201


def test_a_bot_name_is_checked_for_invisible_code_points(toy_client):
    game_id, host = create(toy_client, players=3)
    assert_problem(_bot(toy_client, game_id, host, name="Robo\u061c"), 422, "validation-error")
    assert_problem(_bot(toy_client, game_id, host, name="\u3164"), 422, "validation-error")


def test_a_player_cannot_take_a_bots_name_by_case(toy_client):
    game_id, host = create(toy_client, players=3)
    assert _bot(toy_client, game_id, host).get_json()["game"]["players"][0]["name"] == (
        "Random bot 1"
    )
    assert_problem(_join(toy_client, game_id, "RANDOM BOT 1"), 409, "name-taken")


def test_a_bots_own_name_skips_one_that_clashes(toy_client):
    """The numbered name passes the clash check too: a human ``random bot 1`` takes it."""
    game_id, host = create(toy_client, players=3)
    join(toy_client, game_id, "random bot 1")
    seated = _bot(toy_client, game_id, host).get_json()["game"]["players"]
    assert [p["name"] for p in seated] == ["random bot 1", "Random bot 2"]


def test_the_stored_table_is_the_rule():
    """shared/games/name_ranges.py is :func:`names.invisible` over every code point (run
    scripts/name_ranges.py when this fails: Python's Unicode database changed)."""
    assert unicodedata.unidata_version == name_ranges.UNICODE
    assert list(name_ranges.REFUSED) == names.refused_ranges()


def test_the_pattern_is_the_rule():
    """The schema's pattern accepts a name exactly when :func:`names.check` does (but for
    the length), so a client or fuzzer generating from it makes valid names."""
    pattern = re.compile(names.PATTERN)
    for code in range(0x110000):
        char = chr(code)
        refused = 0xD800 <= code <= 0xDFFF or names.invisible(char)
        assert (pattern.fullmatch("a" + char) is None) == refused, f"U+{code:04X}"
    for name in (" ", "\u3000 \t", ""):
        assert pattern.fullmatch(name) is None
        with pytest.raises(Invalid):
            names.check(name)
    for name in ("ann", " a ", "Zoë 😀", "李小龍"):
        assert pattern.fullmatch(name) and names.check(name) == name

"""Player names: stored in NFC; a name that differs from one already in the game only by
case or by confusable characters (Unicode TR39 skeleton) is ``409 name-taken``."""

from __future__ import annotations

import unicodedata

import pytest

from shared.games import names
from tests.kit.helpers import assert_problem, create, join


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

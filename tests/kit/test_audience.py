"""The audience: who reads an answer, resolved once (shared/games/access.py
``audience_of``), and the reader policies of shared/games/audience.py applied by every
builder, on the fast path and Flask's alike."""

from __future__ import annotations

from typing import Any

import pytest

from shared.games import audience, notify
from shared.games.access import audience_of
from shared.games.document import WebhookEntry
from shared.games.errors import Forbidden
from shared.games.tokens import PlayerRef, hash_token
from tests.kit.helpers import auth, create, join, started_game
from tests.kit.test_players import join_as, new_player


def test_each_credential_reads_as_its_audience(toy_app, toy_client):
    ann_id, ann = new_player(toy_client, "Ann")
    eve_id, _ = new_player(toy_client, "Eve")
    game_id, host = create(toy_client, players=2, rounds=1, seed=4)
    join_as(toy_client, game_id, ann)
    seat, token = join(toy_client, game_id, "Bob")
    doc = toy_app.extensions["game_kit"].games.writes.load(game_id)
    assert audience_of(doc, hash_token(token)) == audience.seated(seat)
    assert audience_of(doc, PlayerRef(ann_id)) == audience.seated(0, ann_id)
    assert audience_of(doc, hash_token(host)) == audience.host()
    assert audience_of(doc, None) == audience.ANYONE
    assert audience_of(doc, PlayerRef(eve_id)) == audience.as_player(eve_id)
    with pytest.raises(Forbidden):
        audience_of(doc, hash_token("not a token of this game"))


def test_only_a_seat_sees_hidden_information_or_moves():
    for who in (audience.host(), audience.ANYONE, audience.as_player("p"), audience.tenant("k")):
        assert audience.private_seat(who) is None and audience.acting_seat(who) is None
    seat = audience.seated(2)
    assert audience.private_seat(seat) == 2 == audience.acting_seat(seat)
    assert audience.private_seat(audience.owner(1)) is None  # a notification carries no view


def test_a_reader_policy_applies_on_every_path(toy_app, toy_client, monkeypatch):
    game_id, _, tokens = started_game(toy_client, 2, rounds=1, seed=4)  # seat 0 acts
    hot = toy_app.wsgi_app
    before = hot.answered

    def read(path: str, **headers: str) -> dict:
        r = toy_client.get(path, headers={**auth(tokens[0]), **headers})
        assert r.status_code == 200, r.get_json()
        return dict(r.get_json())

    fast = read(f"/games/{game_id}?include=legal_moves")
    assert hot.answered > before
    assert fast["state"]["my_card"] is not None and fast["legal_moves"]
    assert read(f"/games/{game_id}/legal-moves")["moves"]
    # one policy, changed in one place: nobody sees a hand or a move any more
    monkeypatch.setattr(audience, "private_seat", lambda _: None)
    monkeypatch.setattr(audience, "acting_seat", lambda _: None)
    fast = read(f"/games/{game_id}?include=legal_moves")
    flask = read(f"/games/{game_id}?include=legal_moves", **{"If-None-Match": '"0"'})
    for body in (fast, flask):
        assert body["state"]["my_card"] is None and body["you"] is None
        assert body["legal_moves"] == []
    assert read(f"/games/{game_id}/legal-moves")["moves"] == []


def test_a_notification_is_addressed_by_its_audience():
    base = {"game_id": "g", "version": 3}
    assert notify.payload(base, {"seat": 1}, audience.PUBLIC_HOOK) == {**base, "seat": 1}
    assert notify.payload(base, {"seat": 1}, audience.owner(0)) == {**base, "seat": 0}
    hook: WebhookEntry = {"id": "w", "url": "u", "events": [], "seat": None}
    assert notify.hook_audience(hook) == audience.PUBLIC_HOOK
    assert notify.hook_audience({**hook, "seat": 2}) == audience.owner(2)


def test_who_reads_behind_and_who_may_watch():
    """The spectator delay and the ``spectators`` policy, audience by audience."""
    doc: Any = {"id": "g", "status": "running", "spectator_delay": 3, "players": []}
    behind = {
        audience.ANYONE: 3,
        audience.as_player("p"): 3,
        audience.tenant("k"): 3,
        audience.seated(0): 0,
        audience.host(): 0,
        audience.PUBLIC_HOOK: 0,
        audience.owner(1): 0,
    }
    for reader, moves in behind.items():
        assert audience.moves_behind(reader, doc) == moves, reader
    for status in ("open", "finished", "cancelled"):  # nothing to ghost, or public at once
        other: Any = {**doc, "status": status}
        assert audience.moves_behind(audience.ANYONE, other) == 0
    unlisted: Any = {"visibility": "unlisted"}
    assert audience.watchers(unlisted) == "link"
    assert audience.watchers(doc) == "everyone"
    players_only: Any = {**doc, "spectators": "players"}
    assert audience.admit(players_only, audience.host(), None) == audience.host()
    for reader in (audience.ANYONE, audience.as_player("p")):
        with pytest.raises(Forbidden, match="no spectators"):
            audience.admit(players_only, reader, "any")
    linked: Any = {**doc, "spectators": "link", "watch_code": "sesame"}
    assert audience.admit(linked, audience.ANYONE, "sesame") == audience.ANYONE
    with pytest.raises(Forbidden) as refused:
        audience.admit(linked, audience.ANYONE, "open")
    assert refused.value.code == "invalid-watch-code"

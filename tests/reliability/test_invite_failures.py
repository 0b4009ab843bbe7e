"""Wrong invite codes count as failed authentications (issue 39, hole 13), like tokens
that are not a game's, and so do wrong watch codes (issue 41): over
`RATE_LIMIT_AUTH_FAILURES` the address gets 429."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from tests.kit.helpers import assert_problem


def test_wrong_invite_codes_are_counted_and_then_refused(make_app: Callable[..., Flask]) -> None:
    client = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="3/minute").test_client()
    r = client.post("/games", json={"players": 2, "visibility": "unlisted"})
    game_id, code = r.get_json()["id"], r.get_json()["invite_code"]
    path = f"/games/{game_id}/players"
    # no code at all is no failed authentication
    for _ in range(4):
        assert_problem(client.post(path, json={"name": "Eve"}), 403, "invite-required")
    for n in range(3):
        r = client.post(path, json={"name": "Eve", "invite": f"guess{n}"})
        assert_problem(r, 403, "invalid-invite")
    r = client.post(path, json={"name": "Eve", "invite": "guess3"})  # over the rate
    body = assert_problem(r, 429, "rate-limited")
    assert "failed authentications" in body["detail"]
    # from now on this address's codes are refused unread, even the right one...
    assert_problem(client.post(path, json={"name": "Ann", "invite": code}), 429, "rate-limited")
    # ...while another address joins with it
    other = {"REMOTE_ADDR": "10.9.9.9"}
    r = client.post(path, json={"name": "Ann", "invite": code}, environ_base=other)
    assert r.status_code == 201, r.get_json()
    # no credential: still served (an unlisted game's spectators need its watch code,
    # and this address sends none: the game's own answer, not the limit's)
    assert_problem(client.get(f"/games/{game_id}"), 403, "watch-link-required")
    assert client.get(f"/games/{game_id}", environ_base=other).status_code == 403


def test_wrong_watch_codes_are_counted_and_then_refused(make_app: Callable[..., Flask]) -> None:
    """A spectator's wrong watch code is a failed authentication too (issue 41)."""
    client = make_app("manhattan", RATE_LIMIT_AUTH_FAILURES="3/minute").test_client()
    r = client.post("/games", json={"players": 2, "spectators": "link"})
    game_id, code = r.get_json()["id"], r.get_json()["watch_code"]
    path = f"/games/{game_id}"
    for _ in range(4):  # no code at all is no failed authentication
        assert_problem(client.get(path), 403, "watch-link-required")
    for n in range(3):
        assert_problem(client.get(f"{path}/score?watch=guess{n}"), 403, "invalid-watch-code")
    assert_problem(client.get(f"{path}?watch=guess3"), 429, "rate-limited")
    # from now on this address's codes are refused unread, even the right one...
    assert_problem(client.get(f"{path}?watch={code}"), 429, "rate-limited")
    # ...while another address reads with it
    other = {"REMOTE_ADDR": "10.9.9.8"}
    assert client.get(f"{path}?watch={code}", environ_base=other).status_code == 200

"""Wrong invite codes count as failed authentications (issue 39, hole 13), like tokens
that are not a game's: over `RATE_LIMIT_AUTH_FAILURES` the address gets 429."""

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
    assert client.get(f"/games/{game_id}").status_code == 200  # no credential: still served

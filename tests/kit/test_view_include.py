"""``GET /games/{id}?include=legal_moves``: the view and the seat's legal moves in one read."""

from __future__ import annotations

from tests.kit.helpers import assert_problem, auth, started_game


def test_the_view_carries_the_seats_legal_moves(toy_client):
    game_id, _, tokens = started_game(toy_client, 3)
    for token in tokens:
        r = toy_client.get(f"/games/{game_id}?include=legal_moves", headers=auth(token))
        assert r.status_code == 200
        body = r.get_json()
        alone = toy_client.get(f"/games/{game_id}/legal-moves", headers=auth(token))
        assert body["legal_moves"] == alone.get_json()["moves"]
        plain = toy_client.get(f"/games/{game_id}", headers=auth(token)).get_json()
        assert {k: v for k, v in body.items() if k != "legal_moves"} == plain
        assert "legal_moves" not in plain
    assert any(
        toy_client.get(f"/games/{game_id}?include=legal_moves", headers=auth(t)).get_json()[
            "legal_moves"
        ]
        for t in tokens
    )


def test_a_spectator_has_no_legal_moves_and_bad_includes_are_422(toy_client):
    game_id, _, _ = started_game(toy_client, 2)
    r = toy_client.get(f"/games/{game_id}?include=legal_moves")
    assert r.status_code == 200 and r.get_json()["legal_moves"] == []
    assert_problem(toy_client.get(f"/games/{game_id}?include=secrets"), 422, "validation-error")

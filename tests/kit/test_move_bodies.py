"""A move body is parsed for each request, in both paths (shared/http/fastpath.py's and
Flask's): a repeat gets what the schema alone gives, as a fresh object, and an invalid
body fails the same way every time."""

from __future__ import annotations

from tests.kit.helpers import assert_problem, auth, post_move, started_game


def test_a_repeated_move_body_is_parsed_afresh_for_each_request(toy_app, toy_client, monkeypatch):
    """The engine may change the move it is given: the next request with the same body
    still gets the body as sent."""
    seen = []
    engine = toy_app.extensions["game_kit"].games.engine
    apply_move = engine.apply_move

    def meddling(state, seat, move):
        seen.append(dict(move))
        result = apply_move(state, seat, move)
        move["value"] = 99  # a later request must not see this
        move["extra"] = True
        return result

    monkeypatch.setattr(engine, "apply_move", meddling)  # the engine outlives the app
    body = {"type": "call", "value": 2}
    for _ in range(3):  # a miss, then kept answers twice
        game_id, _, tokens = started_game(toy_client, 2)
        seat = toy_client.get(f"/games/{game_id}").get_json()["to_act"][0]
        r = post_move(toy_client, game_id, tokens[seat], body)
        assert r.status_code == 200, r.get_json()
    assert seen == [{"type": "call", "value": 2}] * 3


def test_invalid_bodies_and_queries_fail_the_same_way_every_time(toy_client):
    game_id, _, tokens = started_game(toy_client, 2)
    answers = []
    for _ in range(3):
        r = post_move(toy_client, game_id, tokens[0], {"type": "call", "value": 7})
        answers.append(
            {
                k: v
                for k, v in assert_problem(r, 422, "validation-error").items()
                if k != "request_id"
            }
        )
        r = toy_client.get(f"/games/{game_id}?include=secrets", headers=auth(tokens[0]))
        assert_problem(r, 422, "validation-error")
    assert answers[0] == answers[1] == answers[2]
    assert toy_client.get(f"/games/{game_id}?include=legal_moves").status_code == 200
    assert toy_client.get(f"/games/{game_id}?include=legal_moves").status_code == 200

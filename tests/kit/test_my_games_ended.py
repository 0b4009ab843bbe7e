"""A player's ended games have an index per status (issue 39, cost 2): "my games" with
`status=finished` reads only finished games, however many others the player has; a
player indexed before those indexes existed is served from its index of all games until
its older ended games have expired (toy game, real Redis)."""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from tests.kit.helpers import auth, create, join, sent_to_redis
from tests.kit.test_players import join_as, my_games, new_player
from tests.kit.test_rematch import play_to_end


def _finished(client: FlaskClient, key: str, seed: int) -> str:
    game_id, host = create(client, players=2, rounds=1, seed=seed)
    token = join_as(client, game_id, key)["token"]
    other = join(client, game_id, f"Bob{seed}")[1]
    client.post(f"/games/{game_id}/start", headers=auth(host))
    assert play_to_end(client, game_id, [token, other])["status"] == "finished"
    return game_id


def test_status_finished_reads_only_finished_games(toy_client):
    pid, ann = new_player(toy_client, "Ann")
    done = [_finished(toy_client, ann, seed) for seed in (1, 2)]
    for _ in range(120):  # open games: none matches, none is read
        game_id, _ = create(toy_client, players=2, rounds=1)
        join_as(toy_client, game_id, ann)
    cancelled, host = create(toy_client, players=2, rounds=1)
    join_as(toy_client, cancelled, ann)
    assert toy_client.delete(f"/games/{cancelled}", headers=auth(host)).status_code == 200
    with sent_to_redis() as sent:
        page = my_games(toy_client, ann, "?status=finished")
    assert [g["id"] for g in page["games"]] == done[::-1] and page["next_cursor"] is None
    # the key's check, the marker and the index; the two documents (one round trip on a
    # single Redis, one per node on a cluster) and no other
    assert len([packet for packet in sent if b":game\r\n" not in packet]) <= 3
    assert sum(packet.count(b":game\r\n") for packet in sent) == 2
    page = my_games(toy_client, ann, "?status=cancelled")
    assert [g["id"] for g in page["games"]] == [cancelled]
    assert len(my_games(toy_client, ann, "?status=open&limit=100")["games"]) == 100


def test_a_player_indexed_before_the_ended_indexes_is_read_from_all_its_games(
    toy_app, redis_client
):
    client = toy_app.test_client()
    pid, ann = new_player(client, "Ann")
    old = _finished(client, ann, 1)
    # as the code before them left it: no ended index, a marker set by the next write
    redis_client.delete(f"toy:pl:{{{pid}}}:ended:finished", f"toy:pl:{{{pid}}}:since")
    game_id, _ = create(client, players=2, rounds=1)
    join_as(client, game_id, ann)
    since = int(redis_client.get(f"toy:pl:{{{pid}}}:since"))
    assert abs(since - time.time() * 1000) < 60_000  # kept from now on, not complete
    new = _finished(client, ann, 2)
    page = my_games(client, ann, "?status=finished")
    assert [g["id"] for g in page["games"]] == [new, old]  # the old one too
    # once an ended game's life has passed since then, the index holds them all
    redis_client.set(f"toy:pl:{{{pid}}}:since", since - 8 * 24 * 3600 * 1000)
    page = my_games(client, ann, "?status=finished")
    assert [g["id"] for g in page["games"]] == [new]  # (the old one was removed by hand)

"""The client against the real services (gunicorn + Redis), every method and error."""

from __future__ import annotations

import random
import threading
import time

import pytest
import requests

from clients.cli import errors
from clients.cli.client import ManhattanClient, WindCityClient, my_turn


def _new_game(url: str, players: int = 2, seed: int = 3, cls: type = ManhattanClient):
    """A host and ``players`` joined seats (seat i is ``seats[i]``) of a new open game."""
    host = cls(url)
    gid = host.create(players=players, seed=seed)["id"]
    seats = []
    for name in ("ann", "bob", "cy", "dee")[:players]:
        c = cls(url)
        c.join(gid, name)
        seats.append(c)
    return host, gid, seats


def _started_game(url: str, **kw):
    """:func:`_new_game`, started, and seat 0's first view of it."""
    host, gid, seats = _new_game(url, **kw)
    host.start(gid)
    return host, gid, seats, seats[0].view(gid)


def test_every_client_method(live_manhattan: str) -> None:
    host = ManhattanClient(live_manhattan)
    assert host.healthz() == {"status": "ok"}
    assert host.readyz() == {"status": "ok"}
    assert "paths" in host.openapi()
    created = host.create(players=2, seed=11)
    gid = created["id"]
    assert host.host_token == created["host_token"]
    assert created["game"]["status"] == "open"
    assert gid in {g["id"] for g in host.iter_games(status="open")}
    ann, bob = ManhattanClient(live_manhattan), ManhattanClient(live_manhattan)
    ja = ann.join(gid, "ann")
    jb = bob.join(gid, "bob")
    assert (ann.seat, bob.seat) == (0, 1)
    assert ann.token == ja["token"] and bob.token == jb["token"] and ann.token != bob.token
    started = host.start(gid)
    assert started["status"] == "running"
    assert gid in {g["id"] for g in host.iter_games(status="running", page_size=1)}
    view = ann.view(gid)
    assert view["you"] == 0 and view["state"]["hand"] is not None
    spect = ann.view(gid, spectator=True)
    assert spect["you"] is None and spect["state"]["hand"] is None
    player = ann if my_turn(view) else bob
    legal = player.legal_moves(gid)
    assert legal and all(m["type"] == "select" for m in legal)
    answer = player.select(gid, legal[0]["pieces"], if_match=view["version"])
    assert answer["game"]["version"] == view["version"] + 1
    assert [e["type"] for e in answer["events"]][0] == "pieces_selected"
    other = bob if player is ann else ann
    other.move(gid, other.legal_moves(gid)[-1])
    builder = ann if my_turn(ann.view(gid)) else bob
    place = builder.legal_moves(gid)[0]
    assert place["type"] == "place"
    placed = builder.place(gid, place["city"], place["lot"], place["floors"])
    assert placed["events"][0]["type"] == "piece_placed"
    city = placed["game"]["state"]["cities"][place["city"] - 1]
    assert city["lots"][place["lot"] - 1]["owner"] == builder.seat
    evs = host.events(gid)
    assert "pieces_selected" in [e["type"] for e in evs["events"]]
    assert evs["last_id"] == evs["events"][-1]["id"]
    assert host.events(gid, after=evs["last_id"])["events"] == []
    score = host.score(gid)
    assert score["status"] == "running" and score["score"]["totals"] == [0, 0]
    log = host.log(gid)
    assert "seed" not in log or log.get("seed") is None  # secret while running
    assert [e["id"] for e in log["events"]] == [e["id"] for e in evs["events"]]
    cancelled = host.cancel(gid)
    assert cancelled["status"] == "cancelled"


def test_error_codes(live_manhattan: str) -> None:
    host, gid, (ann, bob) = _new_game(live_manhattan)
    with pytest.raises(errors.NotFound) as nf:
        host.view("no-such-game")
    assert nf.value.status == 404 and nf.value.code
    with pytest.raises(errors.Unauthorized) as ua:
        ManhattanClient(live_manhattan).legal_moves(gid)
    assert ua.value.status == 401
    with pytest.raises(errors.Forbidden):
        host.start(gid, host_token=ann.token)  # a seat token is not the host's
    with pytest.raises(errors.Forbidden):
        ManhattanClient(live_manhattan, token="not-a-token").legal_moves(gid)
    host.start(gid)
    with pytest.raises(errors.Conflict) as again:
        host.start(gid)
    assert again.value.status == 409
    view = ann.view(gid)
    waiting = bob if my_turn(view) is True and view["you"] == 0 else ann
    mover = ann if waiting is bob else bob
    legal = mover.legal_moves(gid)
    with pytest.raises(errors.ApiError) as turn:
        waiting.move(gid, legal[0])
    assert turn.value.code == "not-your-turn" and turn.value.status in (403, 409)
    with pytest.raises(errors.PreconditionFailed) as stale:
        mover.move(gid, legal[0], if_match=view["version"] - 1)
    assert stale.value.status == 412
    with pytest.raises(errors.Conflict) as bad:
        mover.move(gid, {"type": "select", "pieces": [4, 4, 4, 4, 4, 4]})
    assert bad.value.code == "invalid-selection" and "stock" in bad.value.detail
    with pytest.raises(errors.UnprocessableEntity) as unknown:
        mover.move(gid, {"type": "fly"})
    assert unknown.value.status == 422
    assert mover.view(gid)["version"] == view["version"]  # nothing happened


def test_same_idempotency_key_gets_the_first_answer(live_manhattan: str) -> None:
    host, gid, seats, view = _started_game(live_manhattan)
    mover = seats[view["to_act"][0]]
    move = mover.legal_moves(gid)[0]
    first = mover.move(gid, move, idempotency_key="key-123")
    second = mover.move(gid, move, idempotency_key="key-123")
    assert second["game"]["version"] == first["game"]["version"]
    assert second["events"] == first["events"]
    assert mover.view(gid)["version"] == first["game"]["version"]
    log = host.log(gid)
    assert sum(e["type"] == "pieces_selected" for e in log["events"]) == 1


def test_move_retried_after_dropped_connections(live_manhattan: str, proxy_to) -> None:
    proxy = proxy_to(live_manhattan)
    host, gid, seats, view = _started_game(live_manhattan)
    seat = view["to_act"][0]
    move = seats[seat].legal_moves(gid)[0]
    mover = ManhattanClient(proxy.url, token=seats[seat].token, backoff=0.05)  # no open conn
    # 1st attempt: dropped before reaching the service; 2nd: reaches it (the move is
    # made) but the answer is cut; 3rd: gets the stored first answer, no second move.
    proxy.drop_next(1)
    proxy.drop_after_forwarding(1)
    answer = mover.move(gid, move)
    assert proxy.dropped == 2 and proxy.connections == 3
    assert answer["game"]["version"] == view["version"] + 1
    after = seats[seat].view(gid)
    assert after["version"] == view["version"] + 1
    assert sum(e["type"] == "pieces_selected" for e in host.log(gid)["events"]) == 1


def test_wait_for_turn_survives_a_dropped_connection(live_manhattan: str, proxy_to) -> None:
    proxy = proxy_to(live_manhattan)
    host, gid, seats, view = _started_game(live_manhattan)
    first = view["to_act"][0]
    other = 1 - first
    waiter = ManhattanClient(proxy.url, token=seats[other].token, backoff=0.05)
    seen: list[dict] = []
    out: dict = {}

    def wait() -> None:
        out["view"] = waiter.wait_for_turn(gid, timeout=30, poll_wait=20, on_events=seen.extend)

    t = threading.Thread(target=wait)
    t.start()
    time.sleep(0.7)  # the waiter is now parked in a long-poll
    before = proxy.connections
    proxy.cut_all()  # drop it mid-wait
    proxy.drop_next(1)  # and the first reconnection too
    time.sleep(0.5)
    assert t.is_alive(), "wait_for_turn must not return while it is not our turn"
    mover = seats[first]
    mover.move(gid, mover.legal_moves(gid)[0])
    t.join(20)
    assert not t.is_alive()
    assert proxy.connections > before  # it reconnected
    assert proxy.dropped == 1  # and survived its first reconnection being dropped too
    assert out["view"]["you"] == other and other in out["view"]["to_act"]
    assert [e["type"] for e in seen] == ["pieces_selected"]
    assert seen[0]["seat"] == first


def test_wait_for_turn_returns_at_game_end_and_times_out(live_manhattan: str) -> None:
    host, gid, (ann, bob) = _new_game(live_manhattan)
    host.start(gid)
    waiter = ann if not my_turn(ann.view(gid)) else bob
    t0 = time.monotonic()
    with pytest.raises(TimeoutError):
        waiter.wait_for_turn(gid, timeout=1.5, poll_wait=1)
    assert 1.0 < time.monotonic() - t0 < 6
    host.cancel(gid)
    assert waiter.wait_for_turn(gid, timeout=5)["status"] == "cancelled"


def test_sse_stream_resumes_with_last_event_id(live_windcity: str) -> None:
    host, gid, seats = _new_game(live_windcity, seed=5, cls=WindCityClient)
    host.start(gid)
    for _ in range(3):
        v = host.view(gid, spectator=True)
        p = seats[v["to_act"][0]]
        p.move(gid, p.legal_moves(gid)[0])
    all_events = host.events(gid, limit=1000)["events"]
    stream = host.stream_events(gid, read_timeout=5)
    got = [next(stream) for _ in range(2)]
    assert [e["id"] for e in got] == [e["id"] for e in all_events[:2]]
    stream.close()
    resumed = host.stream_events(gid, after=got[-1]["id"], read_timeout=5)
    nxt = next(resumed)
    resumed.close()
    assert nxt["id"] == all_events[2]["id"] and nxt["type"] == all_events[2]["type"]


def test_windcity_helpers(live_windcity: str) -> None:
    host, gid, seats = _new_game(live_windcity, seed=8, cls=WindCityClient)
    host.start(gid)
    plans = insures = 0
    for _ in range(200):
        v = host.view(gid, spectator=True)
        if v["status"] != "running" or (plans and insures):
            break
        p = seats[v["to_act"][0]]
        legal = p.legal_moves(gid)
        m = legal[0]
        if m["type"] == "plan":
            p.plan(gid, m["actions"], m["kauf"], m["renew"])
            plans += 1
        elif m["type"] == "insure":
            p.insure(gid, m["squares"])
            insures += 1
        else:
            p.move(gid, m)
    assert plans and insures
    assert requests.get(f"{live_windcity}/games/{gid}").json()["state"]["turn"] >= 1


def test_bots_finish_a_game_even_when_a_strategy_errs(live_manhattan: str) -> None:
    from clients.cli.bots import play_seat, strategy

    manhattan_greedy = strategy("manhattan", "greedy")

    host, gid, (ann, bob) = _new_game(live_manhattan, seed=17)
    refused: list[dict] = []

    def stubborn(view, legal, rng):  # always proposes a move the service refuses
        return {"type": "forfeit", "floors": 4}

    moves: dict[int, int] = {0: 0, 1: 0}
    results: dict[int, dict] = {}

    def run(client, choose, seat):
        def count(move, answer):
            moves[seat] += 1
            if move == {"type": "forfeit", "floors": 4}:
                refused.append(move)

        rng = random.Random(seat)
        results[seat] = play_seat(client, gid, choose, rng=rng, on_move=count, turn_timeout=30)

    threads = [
        threading.Thread(target=run, args=(ann, manhattan_greedy, 0)),
        threading.Thread(target=run, args=(bob, stubborn, 1)),
    ]
    for t in threads:
        t.start()
    host.start(gid)
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert results[0]["status"] == results[1]["status"] == "finished"
    assert not refused  # the refused move was never made ...
    assert moves[1] >= 24  # ... yet the stubborn seat played all its pieces by fallback
    assert results[0]["result"]["winners"] == [0]


def test_sse_stream_of_a_whole_game_ends_with_it(live_manhattan: str) -> None:
    host, gid, seats = _new_game(live_manhattan, seed=23)
    host.start(gid)
    from clients.cli.bots import play_seat, random_strategy

    threads = [
        threading.Thread(
            target=play_seat, args=(c, gid, random_strategy), kwargs={"rng": random.Random(i)}
        )
        for i, c in enumerate(seats)
    ]
    for t in threads:
        t.start()
    streamed = list(host.stream_events(gid, read_timeout=10))  # returns once it is over
    for t in threads:
        t.join(30)
    logged = host.log(gid)["events"]
    assert [e["id"] for e in streamed] == [e["id"] for e in logged]
    assert streamed[-1]["type"] == "game_finished"
    # a stream opened after the end replays from the given id and stops
    tail = list(host.stream_events(gid, after=logged[-3]["id"], read_timeout=10))
    assert [e["id"] for e in tail] == [e["id"] for e in logged[-2:]]

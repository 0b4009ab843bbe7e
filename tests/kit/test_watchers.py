"""Who may watch a game (the ``spectators`` option) and the spectator delay
(``spectator_delay``), on every read route: the view (and its ETag), the score, the log,
the events (long-poll, SSE and its replay), the chat and the listing. Issue 41; the toy
game on the test session's Redis."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from flask.testing import FlaskClient

from shared.games import history
from shared.store.documents import load_doc
from tests.kit.helpers import (
    assert_problem,
    auth,
    create,
    join,
    sent_to_redis,
    started_game,
    view,
)
from tests.kit.test_events import SSE, parse_sse
from tests.kit.test_players import join_as, new_player

READS = ("", "/score", "/log", "/events", "/events?wait=1")


def _reads(client: FlaskClient, game_id: str, query: str = "", **headers: str) -> list[Any]:
    """Every read route of the game (SSE too), as ``headers`` read it, with ``query``."""
    base = f"/games/{game_id}"
    out = []
    for path in READS:
        sep = "&" if "?" in path else "?"
        out.append(client.get(f"{base}{path}{sep + query if query else ''}", headers=headers))
    out.append(
        client.get(f"{base}/events{'?' + query if query else ''}", headers={**headers, **SSE})
    )
    return out


def _listed(client: FlaskClient, game_id: str, **headers: str) -> dict[str, Any] | None:
    games = client.get("/games?limit=100", headers=headers).get_json()["games"]
    return next((g for g in games if g["id"] == game_id), None)


def test_players_only_refuses_spectators_on_every_read_and_is_never_listed(make_app):
    client = make_app("toy", SSE_MAX_SECONDS=0.2).test_client()
    game_id, host, tokens = started_game(client, 2, spectators="players")
    outsider = new_player(client, "Outsider")[1]
    for who in ({}, auth(outsider)):
        for r in _reads(client, game_id, **who):
            assert_problem(r, 403, "spectators-not-allowed")
    # a token of no seat: the view says so, the public reads refuse it as anyone
    wrong = auth("not-a-token-of-this-game")
    assert_problem(client.get(f"/games/{game_id}", headers=wrong), 403, "invalid-token")
    for r in _reads(client, game_id, **wrong)[1:]:
        assert_problem(r, 403, "spectators-not-allowed")
    assert _listed(client, game_id) is None
    for token in (host, *tokens):  # its seats and its host read it all
        for r in _reads(client, game_id, **auth(token))[:5]:
            assert r.status_code == 200, r.get_json()
    assert view(client, game_id, tokens[0])["options"]["spectators"] == "players"
    assert "watch_link" not in view(client, game_id, host)


def test_players_only_refuses_spectators_on_every_game_route_of_the_document(make_app):
    """Every GET route of a game the OpenAPI document lists (routes to come included)
    and the chat's writes refuse a spectator of a ``players`` game: not one answers it
    2xx (a route for seats or the host refuses it as such)."""
    client = make_app("toy", SSE_MAX_SECONDS=0.2).test_client()
    game_id, _, tokens = started_game(client, 2, spectators="players", spectator_chat=True)
    r = client.post(f"/games/{game_id}/chat", json={"text": "hi"}, headers=auth(tokens[0]))
    said = r.get_json()["message"]["id"]
    outsider = new_player(client, "Outsider")[1]
    spec = client.get("/openapi.json").get_json()["paths"]
    paths = [p for p, ops in spec.items() if p.startswith("/games/{game_id}") and "get" in ops]
    assert {"/games/{game_id}/chat", "/games/{game_id}/webhooks"} <= set(paths), paths
    refusals = {
        "spectators-not-allowed",
        "missing-token",
        "player-not-seated",
        "host-token-required",
    }
    for path in paths:
        url = path.replace("{game_id}", game_id)
        for who in ({}, auth(outsider), {**auth(outsider), **SSE}):
            r = client.get(url, headers=who)
            assert r.status_code in (401, 403), (path, who, r.status_code)
            assert r.get_json()["code"] in refusals, (path, r.get_json())
    base = f"/games/{game_id}/chat"
    for method, url, body in (
        ("POST", base, {"text": "psst"}),
        ("POST", f"{base}/{said}/report", {"reason": "spam"}),
        ("PUT", f"{base}/mutes/0", None),
    ):
        for who in ({}, auth(outsider)):
            r = client.open(url, method=method, json=body, headers=who)
            assert_problem(r, 403, "spectators-not-allowed")


def test_link_needs_the_watch_code_on_every_read(make_app):
    client = make_app("toy", SSE_MAX_SECONDS=0.2).test_client()
    r = client.post("/games", json={"players": 2, "spectators": "link"})
    created = r.get_json()
    game_id, host, code = created["id"], created["host_token"], created["watch_code"]
    assert created["watch_link"] == f"/play?game={game_id}&watch={code}"
    assert len(code) >= 21  # 128 bits, URL-safe
    seat_token = join(client, game_id, "Ann")[1]
    for token in (host, seat_token):  # the seats and the host are shown the link to share
        assert view(client, game_id, token)["watch_link"] == created["watch_link"]
    for r in _reads(client, game_id):
        assert_problem(r, 403, "watch-link-required")
    for r in _reads(client, game_id, "watch=wrong"):
        assert_problem(r, 403, "invalid-watch-code")
    for r in _reads(client, game_id, f"watch={code}"):
        assert r.status_code == 200, r.get_json()
    body = client.get(f"/games/{game_id}?watch={code}").get_json()
    assert "watch_link" not in body and body["you"] is None
    assert _listed(client, game_id) is not None  # listed, to be joined: reads need the code
    # a player without a seat is a spectator too
    outsider = new_player(client, "Outsider")[1]
    assert_problem(
        client.get(f"/games/{game_id}", headers=auth(outsider)), 403, "watch-link-required"
    )
    r = client.get(f"/games/{game_id}/score?watch={code}", headers=auth(outsider))
    assert r.status_code == 200


def test_an_unlisted_table_is_watched_by_link_and_its_invite_code_lets_one_watch(toy_client):
    created = toy_client.post("/games", json={"players": 2, "visibility": "unlisted"}).get_json()
    game_id = created["id"]
    assert created["watch_code"] != created["invite_code"]
    assert_problem(toy_client.get(f"/games/{game_id}"), 403, "watch-link-required")
    assert toy_client.get(f"/games/{game_id}?invite={created['invite_code']}").status_code == 200
    assert toy_client.get(f"/games/{game_id}/log?watch={created['watch_code']}").status_code == 200
    public = toy_client.post("/games", json={"players": 2}).get_json()
    assert "watch_code" not in public and "watch_link" not in public["game"]
    assert toy_client.get(f"/games/{public['id']}").status_code == 200  # everyone


def test_problem_texts_are_translated(toy_client):
    game_id, _ = create(toy_client, players=2, spectators="players")
    r = toy_client.get(f"/games/{game_id}", headers={"Accept-Language": "de"})
    body = assert_problem(r, 403, "spectators-not-allowed")
    assert "Zuschauer" in body["detail"]
    r = toy_client.get(f"/games/{game_id}?watch=x", headers={"Accept-Language": "ja"})
    assert r.headers["Content-Language"] == "ja"


# -- the spectator delay ------------------------------------------------------------------


def _play_one(client: FlaskClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """One legal move of the first seat to act; the mover's answer."""
    seat = view(client, game_id, tokens[0])["to_act"][0]
    r = client.get(f"/games/{game_id}?include=legal_moves", headers=auth(tokens[seat]))
    move = r.get_json()["legal_moves"][0]
    r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(tokens[seat]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _versions(events: list[dict[str, Any]]) -> list[int]:
    return [e["version"] for e in events]


class Ghost:
    """What a spectator reads of a game, route by route, and what it may read: the
    host's live view and score recorded at each mark (the start and every move), and
    the versions a seat said something at (a mark's message)."""

    def __init__(self, client: FlaskClient, game_id: str, host: str) -> None:
        self.client, self.game_id, self.host = client, game_id, host
        self.base = f"/games/{game_id}"
        self.seen: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.marks: list[int] = []
        self.said: list[int] = []

    def mark(self, say: str | None = None) -> None:
        """Record the game as it is now; ``say``: a seat's token that then talks."""
        live = view(self.client, self.game_id, self.host)
        score = self.client.get(f"{self.base}/score", headers=auth(self.host)).get_json()
        self.seen[live["version"]] = (live, score)
        self.marks.append(live["version"])
        if say is not None:
            text = {"text": f"said at {live['version']}"}
            r = self.client.post(f"{self.base}/chat", json=text, headers=auth(say))
            assert r.status_code == 201, r.get_json()
            self.said.append(live["version"])

    def check(self, delayed: int, sse: bool) -> None:
        """Every route shows the spectator the game at version ``delayed`` exactly, and
        the chat up to that version: the messages said at it, none said after."""
        client, base = self.client, self.base
        r = client.get(base)
        assert r.headers["ETag"] == f'"{delayed}"'
        assert r.get_json() == self.seen[delayed][0]
        assert client.get(base, headers={"If-None-Match": f'"{delayed}"'}).status_code == 304
        assert client.get(f"{base}/score").get_json() == self.seen[delayed][1]
        events = client.get(f"{base}/events?after=0&limit=1000").get_json()["events"]
        moves = [e for e in events if e["type"] != "chat"]
        assert max(_versions(moves)) == delayed, _versions(events)
        said = [v for v in self.said if v <= delayed]
        assert [e["version"] for e in events if e["type"] == "chat"] == said
        chat = client.get(f"{base}/chat?limit=500").get_json()["messages"]
        assert _versions(chat) == said
        log = client.get(f"{base}/log").get_json()
        assert log["version"] == delayed and max(_versions(log["events"])) == delayed
        assert [e["id"] for e in log["events"]] == [e["id"] for e in moves]
        entry = _listed(client, self.game_id)
        assert entry is not None and entry["version"] == delayed
        assert entry["to_act"] == self.seen[delayed][0]["to_act"]
        if sse:
            r = client.get(f"{base}/events", headers=SSE)
            sent = [json.loads(m["data"]) for m in parse_sse(r.get_data(as_text=True))[0]]
            assert max(_versions(sent)) == delayed and _versions(sent) == _versions(events)
            # a reconnect's replay (Last-Event-ID) stops at the same place
            resume = {**SSE, "Last-Event-ID": events[0]["id"]}
            r = client.get(f"{base}/events", headers=resume)
            again = [json.loads(m["data"]) for m in parse_sse(r.get_data(as_text=True))[0]]
            assert [e["id"] for e in again] == [e["id"] for e in events[1:]]


def test_a_delayed_spectator_never_sees_a_move_until_three_more_were_made(make_app):
    client = make_app("toy", SSE_HEARTBEAT_SECONDS=0.05, SSE_MAX_SECONDS=0.15).test_client()
    game_id, host, tokens = started_game(client, 2, rounds=3, spectator_delay=3)
    ghost = Ghost(client, game_id, host)
    outsider = new_player(client, "Outsider")[1]
    ghost.mark(say=tokens[0])
    moves = 0
    while True:
        delayed = ghost.marks[max(0, moves - 3)]
        ghost.check(delayed, sse=moves % 3 == 0)
        live = ghost.marks[-1]
        # a player without a seat reads delayed too; the seats and the host live
        assert view(client, game_id, outsider)["version"] == delayed
        r = client.get(f"/games/{game_id}/chat", headers=auth(outsider))
        assert max(_versions(r.get_json()["messages"])) == delayed
        for token in (host, *tokens):
            assert view(client, game_id, token)["version"] == live
            r = client.get(f"/games/{game_id}/events?after=0&limit=1000", headers=auth(token))
            assert max(_versions(r.get_json()["events"])) == live
            r = client.get(f"/games/{game_id}/chat", headers=auth(token))
            assert max(_versions(r.get_json()["messages"])) == live
        answer = _play_one(client, game_id, tokens)
        moves += 1
        if answer["game"]["status"] != "running":
            break
        ghost.mark(say=tokens[moves % 2])
    assert moves == 9
    # over: everything is public at once
    final = view(client, game_id, host)
    assert client.get(f"/games/{game_id}").get_json() == final
    log = client.get(f"/games/{game_id}/log").get_json()
    assert log["version"] == final["version"] and len(log["moves"]) == moves
    events = client.get(f"/games/{game_id}/events?after=0&limit=1000").get_json()["events"]
    assert events[-1]["type"] == "game_finished"
    assert client.get(f"/games/{game_id}/score").get_json()["result"] is not None


def test_a_delayed_spectator_waits_at_its_delayed_position(make_app):
    app = make_app("toy", SSE_HEARTBEAT_SECONDS=0.05, SSE_MAX_SECONDS=1.5)
    client = app.test_client()
    game_id, host, tokens = started_game(client, 2, rounds=3, spectator_delay=1)
    _play_one(client, game_id, tokens)  # the spectator reads the start
    last = client.get(f"/games/{game_id}/events").get_json()["last_id"]
    moved_to = view(client, game_id, host)["version"]  # visible after one more move
    answer: dict[str, Any] = {}

    def poll() -> None:
        r = app.test_client().get(f"/games/{game_id}/events?after={last}&wait=5")
        answer.update(body=r.get_json(), at=time.perf_counter())

    def stream() -> None:
        r = app.test_client().get(f"/games/{game_id}/events?after={last}", headers=SSE)
        answer["sse"] = [json.loads(m["data"]) for m in parse_sse(r.get_data(as_text=True))[0]]

    waiters = [threading.Thread(target=poll), threading.Thread(target=stream)]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.4)
    assert "at" not in answer  # the live game moved once already: nothing for it yet
    moved = time.perf_counter()
    _play_one(client, game_id, tokens)
    for waiter in waiters:
        waiter.join(5)
    assert answer["at"] - moved < 0.5
    assert set(_versions(answer["body"]["events"])) == {moved_to}
    assert set(_versions(answer["sse"])) == {moved_to}


def test_a_tenant_listing_reads_delayed_and_options_are_shown(make_app):
    client = make_app("toy").test_client()
    game_id, host, tokens = started_game(client, 2, spectator_delay=2, spectator_chat=True)
    options = view(client, game_id, host)["options"]
    assert options["spectator_delay"] == 2 and options["spectator_chat"] is True
    start = view(client, game_id, host)["version"]
    _play_one(client, game_id, tokens)
    _play_one(client, game_id, tokens)
    assert _listed(client, game_id)["version"] == start
    _play_one(client, game_id, tokens)
    assert _listed(client, game_id)["version"] > start
    r = client.post("/games", json={"players": 2, "spectator_delay": 21})
    assert_problem(r, 422, "validation-error")


def test_the_delay_reads_a_bounded_ring_and_never_replays(make_app, redis_client, monkeypatch):
    """A delayed view, score and listing entry are read from the ring the writes keep
    (delay + 1 documents), one round trip more than a live view; nothing is replayed
    from the seed; the ring goes with the game's end."""
    client = make_app("toy").test_client()
    game_id, host, tokens = started_game(client, 2, rounds=3, spectator_delay=2)
    ring = f"toy:{{{game_id}}}:watch"
    for _ in range(5):
        seat = view(client, game_id, tokens[0])["to_act"][0]
        path = f"/games/{game_id}/legal-moves"
        move = client.get(path, headers=auth(tokens[seat])).get_json()["moves"][0]
        with sent_to_redis() as sent:  # the ring rides in the move's own write
            r = client.post(f"/games/{game_id}/moves", json=move, headers=auth(tokens[seat]))
        assert r.status_code == 200
        assert [c.split(b"\r\n")[2] for c in sent] == [b"MGET", b"EVALSHA"]
        assert redis_client.llen(ring) <= 3
    assert redis_client.llen(ring) == 3 and redis_client.ttl(ring) > 0

    def replayed(*_: Any) -> Any:
        raise AssertionError("replayed from the seed")

    monkeypatch.setattr(history, "replay", replayed)
    with sent_to_redis() as live:
        view(client, game_id, tokens[0])
    with sent_to_redis() as delayed:
        client.get(f"/games/{game_id}").get_json()
    assert len(delayed) == len(live) + 1
    assert b"LINDEX" in delayed[-1]
    client.get(f"/games/{game_id}/score")
    client.get(f"/games/{game_id}/events?after=0")
    assert _listed(client, game_id) is not None
    monkeypatch.undo()
    while _play_one(client, game_id, tokens)["game"]["status"] == "running":
        pass
    assert not redis_client.exists(ring)


def test_without_its_ring_a_delayed_game_is_rebuilt_from_its_history(make_app, redis_client):
    client = make_app("toy").test_client()
    game_id, host, tokens = started_game(client, 2, rounds=3, spectator_delay=2)
    ghost = Ghost(client, game_id, host)
    ghost.mark()
    for _ in range(4):
        _play_one(client, game_id, tokens)
        ghost.mark()
    redis_client.delete(f"toy:{{{game_id}}}:watch")  # a lost key
    ghost.check(ghost.marks[-3], sse=False)


def test_an_erased_players_name_leaves_the_ring_and_the_delay_holds(make_app, redis_client):
    """The ring keeps whole documents, names included: erasing a player deletes it (no
    kept document keeps the name), and until it is full again a delayed read is rebuilt
    from the history rather than read from a ring that holds only later documents."""
    client = make_app("toy").test_client()
    _, ann = new_player(client, "Ann")
    game_id, host = create(client, players=2, rounds=3, spectator_delay=2)
    tokens = [join_as(client, game_id, ann, name="Annabel")["token"], join(client, game_id, "B")[1]]
    assert client.post(f"/games/{game_id}/start", headers=auth(host)).status_code == 200
    ghost = Ghost(client, game_id, host)
    ghost.mark()
    for _ in range(3):
        _play_one(client, game_id, tokens)
        ghost.mark()
    ring = f"toy:{{{game_id}}}:watch"

    def kept_names() -> set[str]:
        docs = [load_doc(raw) for raw in redis_client.lrange(ring, 0, -1)]
        return {p["name"] for doc in docs for p in doc["players"]}

    assert "Annabel" in kept_names()
    assert client.delete("/players/me", headers=auth(ann)).status_code == 204
    assert "Annabel" not in kept_names()
    _play_one(client, game_id, tokens)  # a new ring: one document, later than D
    ghost.mark()
    body = client.get(f"/games/{game_id}").get_json()
    assert body["version"] == ghost.marks[-3]
    assert [p["name"] for p in body["players"]] == ["Deleted player", "B"]
    assert "Annabel" not in json.dumps(body)

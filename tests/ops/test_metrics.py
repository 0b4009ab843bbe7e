"""/metrics in one process (Flask's test client): what each metric counts."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from shared.store import WriteResult
from tests.ops.test_live_ops import value


def scrape(client) -> str:
    resp = client.get("/metrics")
    assert resp.status_code == 200
    assert resp.content_type.startswith("text/plain")
    return resp.data.decode()


def test_metrics_token(make_app: Callable[..., Flask]) -> None:
    client = make_app("manhattan", METRICS_TOKEN="s3cret").test_client()
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic s3cret"}):
        refused = client.get("/metrics", headers=headers)
        assert refused.status_code == 401
        assert refused.content_type == "application/problem+json"
        assert refused.json["code"] == "metrics-token-required"
    assert client.get("/metrics", headers={"Authorization": "Bearer s3cret"}).status_code == 200


def test_requests_moves_retries_and_statuses(make_app: Callable[..., Flask]) -> None:
    toy_app = make_app("toy")
    toy_client = toy_app.test_client()
    before = scrape(toy_client)
    created = toy_client.post("/games", json={"players": 2}).json
    gid = created["id"]
    tokens = [
        toy_client.post(f"/games/{gid}/players", json={"name": n}).json["token"]
        for n in ("ann", "bob")
    ]
    host = {"Authorization": f"Bearer {created['host_token']}"}
    assert toy_client.post(f"/games/{gid}/start", headers=host).status_code == 200
    toy_client.get("/games/nosuchgame1")
    toy_client.get("/games/nosuchgame2")

    # one compare-and-set lost to a concurrent writer, then applied
    store = toy_app.extensions["game_kit"].games.store
    real_write, lost = store.write, list[bool]()

    def write_losing_once(*args, **kwargs):
        if not lost:
            lost.append(True)
            return WriteResult("conflict")
        return real_write(*args, **kwargs)

    store.write = write_losing_once
    view = toy_client.get(f"/games/{gid}").json
    seat = view["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    move = toy_client.get(f"/games/{gid}/legal-moves", headers=auth).json["moves"][0]
    assert toy_client.post(f"/games/{gid}/moves", json=move, headers=auth).status_code == 200
    store.write = real_write
    refused = toy_client.post(f"/games/{gid}/moves", json=move, headers=auth)
    assert refused.status_code >= 400
    code = refused.json["code"]

    other = toy_client.post("/games", json={"players": 2}).json
    auth = {"Authorization": f"Bearer {other['host_token']}"}
    assert toy_client.delete(f"/games/{other['id']}", headers=auth).status_code == 200
    after = scrape(toy_client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("boardgames_http_requests_total", route="/games/<game_id>", status="404") == 2
    assert delta("boardgames_http_requests_total", route="/games", method="POST") == 2
    assert delta("boardgames_moves_applied_total") == 1
    assert delta("boardgames_moves_rejected_total", code=code) == 1
    assert delta("boardgames_cas_retries_total") == 1
    assert delta("boardgames_games_entered_total", status="open") == 2
    assert delta("boardgames_games_entered_total", status="cancelled") == 1
    # the gauge is read from Redis (flushed for this test): the current games exactly
    assert value(after, "boardgames_games", status="running") == 1
    assert value(after, "boardgames_games", status="cancelled") == 1
    assert value(after, "boardgames_games", status="open") == 0
    # route labels are URL rules: no raw paths, so no unbounded label values
    assert "nosuchgame" not in after


def test_unknown_methods_share_one_label(manhattan_client) -> None:
    # the registry is the process's: other tests of the session count too, so compare
    before = value(scrape(manhattan_client), "boardgames_http_requests_total", method="other")
    for method in ("BREW", "FOO", "PROPFIND"):
        manhattan_client.open("/games", method=method)
    text = scrape(manhattan_client)
    assert value(text, "boardgames_http_requests_total", method="other") - before == 3
    assert "BREW" not in text

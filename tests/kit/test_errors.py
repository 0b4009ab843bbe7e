"""Problem+json everywhere, health, storage outages, and the OpenAPI document."""

from __future__ import annotations

from tests.conftest import free_port
from tests.kit.helpers import assert_problem, create


def test_flask_errors_are_problems(toy_client):
    assert_problem(toy_client.get("/nowhere"), 404, "not-found")
    r = toy_client.put("/games")
    assert_problem(r, 405, "method-not-allowed")
    assert "POST" in r.headers["Allow"]
    r = toy_client.post("/games", data=b"{" + b" " * 70000 + b"}", content_type="application/json")
    assert_problem(r, 413, "payload-too-large")


def test_unexpected_exceptions_are_a_bare_500_problem(toy_app, caplog):
    def boom():
        raise RuntimeError("secret internals")

    toy_app.add_url_rule("/boom", view_func=boom)
    r = toy_app.test_client().get("/boom")
    body = assert_problem(r, 500, "internal-error")
    assert "secret internals" not in r.get_data(as_text=True)
    assert body["detail"] == "An unexpected error occurred."
    assert "secret internals" in caplog.text  # logged, with its traceback


def test_health(toy_client):
    assert toy_client.get("/healthz").get_json() == {"status": "ok"}
    assert toy_client.get("/readyz").get_json() == {"status": "ok"}


def test_storage_outage_is_503_with_retry_after(make_app):
    app = make_app("toy", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0", REDIS_SOCKET_TIMEOUT=0.5)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    for r in (
        client.get("/readyz"),
        client.get("/games"),
        client.post("/games", json={}),
        client.get("/games/0123456789abcdef"),
        client.post("/games/0123456789abcdef/players", json={"name": "a"}),
    ):
        assert_problem(r, 503, "storage-unavailable")
        assert int(r.headers["Retry-After"]) > 0


def test_openapi_document_and_docs(toy_client):
    spec = toy_client.get("/openapi.json").get_json()
    assert set(spec["paths"]) == {
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/players",
        "/games/{game_id}/players/me",
        "/players",
        "/players/me",
        "/players/me/games",
        "/players/me/export",
        "/players/me/webhook",
        "/players/me/push",
        "/players/me/push/subscriptions",
        "/players/me/push/subscriptions/{subscription_id}",
        "/push/key",
        "/matches",
        "/games/{game_id}/rematch",
        "/games/{game_id}/hint",
        "/games/{game_id}/analysis",
        "/players/{player_id}",
        "/leaderboards/{game}",
        "/tournaments",  # issue 43's
        "/tournaments/{tid}",
        "/tournaments/{tid}/players",
        "/tournaments/{tid}/players/{player_id}",
        "/tournaments/{tid}/checkin",
        "/tournaments/{tid}/start",
        "/tournaments/{tid}/end",
        "/tournaments/{tid}/standings",
        "/tournaments/{tid}/webhook",
        "/games/{game_id}/resign",
        "/games/{game_id}/start",
        "/games/{game_id}/legal-moves",
        "/games/{game_id}/moves",
        "/games/{game_id}/score",
        "/games/{game_id}/events",
        "/games/{game_id}/log",
        "/games/{game_id}/chat",
        "/games/{game_id}/chat/mutes",
        "/games/{game_id}/chat/mutes/{target}",
        "/chat/phrases",
        "/games/{game_id}/webhooks",
        "/games/{game_id}/webhooks/test",
        "/embeds",
        "/embed/session",
        "/embed/session/refresh",
        "/healthz",
        "/readyz",
        "/players/me/blocks",  # moderation's
        "/players/me/blocks/{player_id}",
        "/players/{player_id}/report",
        "/games/{game_id}/chat/{message_id}/report",
        "/admin/reports",
        "/admin/reports/{report_id}/resolve",
        "/admin/games/{game_id}/chat/{message_id}",
        "/admin/players/{player_id}/suspension",
        "/admin/audit",
    }
    assert set(spec["paths"]["/games/{game_id}"]) >= {"get", "delete"}
    schemas = spec["components"]["schemas"]
    move = schemas["ToyMove"]
    assert move["discriminator"]["mapping"] == {
        "call": "#/components/schemas/Call",
        "pick": "#/components/schemas/Pick",
    }
    assert schemas["Call"]["properties"]["value"]["maximum"] == 3
    moves_op = spec["paths"]["/games/{game_id}/moves"]["post"]
    assert moves_op["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ToyMove"
    )
    assert "409" in moves_op["responses"] and "application/problem+json" in str(
        moves_op["responses"]["409"]
    )
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    r = toy_client.get("/docs")
    assert r.status_code == 200 and b"swagger" in r.get_data().lower()


def test_options_schema_is_in_the_document(toy_client):
    create(toy_client)
    spec = toy_client.get("/openapi.json").get_json()
    body = spec["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(spec["components"]["schemas"][ref]["properties"]) == {
        "players",
        "rounds",
        "seed",
        "clock",
        "takeover",
        "visibility",
        "start",
        "rated",
        "webhook",
        "spectators",
        "spectator_chat",
        "spectator_delay",
        "hints",
    }

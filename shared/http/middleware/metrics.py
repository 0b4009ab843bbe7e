"""``GET /metrics`` on a service's own port, and the per-request counting behind it.

Open by default (``make run``); with ``METRICS_TOKEN`` set it takes only
``Authorization: Bearer <token>`` (401 problem+json otherwise), so a service exposed to
the internet does not publish its traffic to anyone who asks.
"""

from __future__ import annotations

import time

from flask import Flask, Response, current_app, g, request

from shared.games import Games
from shared.http.errors import ApiError
from shared.ops import metrics

MOVE_ENDPOINT = "games.make_move"


def count_request(
    route: str,
    method: str,
    status: int,
    started: float | None,
    endpoint: str | None,
    code: str | None,
) -> None:
    """Count an answered request (its route, method and status, and its duration since
    ``started``), and a refused move by its problem ``code``."""
    seconds = time.perf_counter() - started if started else 0.0
    metrics.observe_request(route, method, status, seconds)
    if endpoint == MOVE_ENDPOINT and status >= 400:
        metrics.MOVES_REJECTED.labels(code or f"http-{status}").inc()


def count_answer(response: Response) -> Response:
    """The after-request hook: :func:`count_request`."""
    rule = request.url_rule
    route = rule.rule if rule is not None else "unmatched"  # request_log.route_of()
    status = response.status_code
    count_request(
        route, request.method, status, g.get("started"), request.endpoint, g.get("problem_code")
    )
    return response


def init_metrics(app: Flask, games: Games) -> None:
    """Count every request and serve ``/metrics`` (not in the OpenAPI document)."""
    settings = app.config
    by_status = metrics.GamesByStatus(
        games.engine.NAME,
        lambda: games.store.tracking.status_counts(
            settings["GAME_TTL_IDLE"], settings["GAME_TTL_FINISHED"]
        ),
    )

    app.after_request(count_answer)

    def metrics_view() -> Response:
        """The Prometheus text exposition of every worker of this service."""
        token = current_app.config.get("METRICS_TOKEN")
        if token and not metrics.token_ok(token, request.headers.get("Authorization")):
            raise ApiError(
                401,
                "metrics-token-required",
                "The metrics need the metrics bearer token (Authorization: Bearer <token>).",
                headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
            )
        body, content_type = metrics.exposition(by_status)
        return Response(body, content_type=content_type, headers={"Cache-Control": "no-store"})

    app.add_url_rule("/metrics", "metrics", metrics_view, methods=["GET"])

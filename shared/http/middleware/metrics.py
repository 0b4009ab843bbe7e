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
from shared.http.hookmarks import covered
from shared.ops import metrics

MOVE_ENDPOINT = "games.make_move"


def init_metrics(app: Flask, games: Games) -> None:
    """Count every request and serve ``/metrics`` (not in the OpenAPI document)."""
    settings = app.config
    by_status = metrics.GamesByStatus(
        games.engine.NAME,
        lambda: games.store.tracking.status_counts(
            settings["GAME_TTL_IDLE"], settings["GAME_TTL_FINISHED"]
        ),
    )

    @app.after_request
    @covered
    def _count(response: Response) -> Response:
        started = g.get("started")
        seconds = time.perf_counter() - started if started else 0.0
        rule = request.url_rule
        route = rule.rule if rule is not None else "unmatched"  # request_log.route_of()
        metrics.observe_request(route, request.method, response.status_code, seconds)
        if request.endpoint == MOVE_ENDPOINT and response.status_code >= 400:
            code = g.get("problem_code") or f"http-{response.status_code}"
            metrics.MOVES_REJECTED.labels(code).inc()
        return response

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

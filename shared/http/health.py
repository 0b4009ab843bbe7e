"""Liveness and readiness for orchestrators."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint

from shared.http.errors import PROBLEM_MIME, ApiError
from shared.http.schemas.answers import HealthSchema, ProblemSchema
from shared.store import StoreFull

blp = Blueprint("health", __name__, description="Liveness and readiness.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, HealthSchema)
@blp.doc(operationId="getHealth")
def healthz() -> dict[str, str]:
    """The process is up (touches nothing else).

    For an orchestrator's liveness probe: 200 while the process serves HTTP at all.
    """
    return {"status": "ok"}


@blp.route("/readyz", methods=["GET"])
@blp.response(200, HealthSchema)
@blp.alt_response(
    503,
    schema=ProblemSchema,
    content_type=PROBLEM_MIME,
    headers={"Retry-After": {"schema": {"type": "string"}, "description": "Seconds."}},
)
@blp.doc(operationId="getReadiness")
def readyz() -> dict[str, str]:
    """Ready to serve: Redis takes a write.

    Ready when Redis takes a write (a tiny expiring key), not merely a PING: a Redis
    at ``maxmemory`` answers PING but refuses every move. Otherwise 503 with
    Retry-After: ``storage-full`` when Redis is out of memory, else
    ``storage-unavailable``.

    For an orchestrator's readiness probe: take the instance out of rotation on 503.
    """
    retry = {"Retry-After": str(current_app.config["RETRY_AFTER_SECONDS"])}
    try:
        current_app.extensions["game_kit"].games.store.probe_write()
    except StoreFull as error:
        raise ApiError(
            503, "storage-full", "The game store is full and refuses writes.", headers=retry
        ) from error
    except Exception as error:  # any failure to reach the store means not ready
        raise ApiError(
            503, "storage-unavailable", "The game store is unreachable.", headers=retry
        ) from error
    return {"status": "ok"}

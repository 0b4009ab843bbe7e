"""Liveness and readiness for orchestrators."""

from __future__ import annotations

from flask import current_app
from flask_smorest import Blueprint

from shared.errors import PROBLEM_MIME, ApiError
from shared.schemas import HealthSchema, ProblemSchema

blp = Blueprint("health", __name__, description="Liveness and readiness.")


@blp.route("/healthz", methods=["GET"])
@blp.response(200, HealthSchema)
def healthz() -> dict[str, str]:
    """The process is up (touches nothing else)."""
    return {"status": "ok"}


@blp.route("/readyz", methods=["GET"])
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=ProblemSchema, content_type=PROBLEM_MIME)
def readyz() -> dict[str, str]:
    """Redis answers a PING; otherwise 503 ``storage-unavailable`` with Retry-After."""
    try:
        current_app.extensions["game_kit"].games.store.ping()
    except Exception as error:  # any failure to reach the store means not ready
        raise ApiError(
            503,
            "storage-unavailable",
            "The game store is unreachable.",
            headers={"Retry-After": str(current_app.config["RETRY_AFTER_SECONDS"])},
        ) from error
    return {"status": "ok"}

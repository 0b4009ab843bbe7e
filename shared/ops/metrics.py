"""Prometheus metrics of the services and the worker, correct under several processes.

Under gunicorn, ``gunicorn.conf.py`` gives each service a fresh directory in
``PROMETHEUS_MULTIPROC_DIR`` before the workers fork, so every worker writes its values
to files there and a scrape of any worker adds up all of them (prometheus-client's
multiprocess mode). Without that variable (tests, a plain ``flask run``) the metrics
live in the process. Label values are bounded: routes are URL rules (never raw paths),
methods outside the usual few are ``other``, codes are the API's stable error codes.

The worker (``shared/worker/loop.py``) imports the worker metrics below and calls
:func:`serve_worker_metrics` once to expose them on a port of its own.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector

METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

# -- the services ------------------------------------------------------------------------

REQUESTS = Counter(
    "boardgames_http_requests_total",
    "HTTP requests answered, by route (URL rule), method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "boardgames_http_request_duration_seconds",
    "Time to answer a request (until the first byte of a stream), by route and method.",
    ["route", "method"],
    buckets=LATENCY_BUCKETS,
)
MOVES_APPLIED = Counter(
    "boardgames_moves_applied_total", "Moves applied (idempotent replays not counted).", ["game"]
)
MOVES_REJECTED = Counter(
    "boardgames_moves_rejected_total",
    "POST /games/{id}/moves answered with an error, by the problem's code.",
    ["code"],
)
CAS_RETRIES = Counter(
    "boardgames_cas_retries_total",
    "Compare-and-set writes that lost a race and were decided again.",
    ["game"],
)
GAMES_ENTERED = Counter(
    "boardgames_games_entered_total",
    "Games that entered a status (open, running, finished, cancelled).",
    ["game", "status"],
)
WAITING = Gauge(
    "boardgames_waiting_clients",
    "Clients waiting for events now (long-polls and SSE streams).",
    ["kind"],
    multiprocess_mode="livesum",
)

# -- the worker (added by the worker: shared/worker/loop.py) ----------------------------------

WORKER_LAG = Gauge(
    "boardgames_worker_lag_seconds",
    "How late the worker's last tick played its due moves (the latest one), by job.",
    ["job"],
    multiprocess_mode="max",
)
WEBHOOK_DELIVERIES = Counter(
    "boardgames_webhook_deliveries_total",
    "Webhook and push deliveries, by result (delivered, retried, failed, dropped, skipped).",
    ["result"],
)
WEBHOOK_LATENCY = Histogram(
    "boardgames_webhook_delivery_duration_seconds",
    "Time of one webhook delivery attempt.",
    buckets=LATENCY_BUCKETS,
)


def serve_worker_metrics(port: int, addr: str = "0.0.0.0") -> None:
    """Serve this process's metrics on ``port`` (a background thread); one call from
    the worker. Uses the multiprocess collector when the directory is set."""
    start_http_server(port, addr=addr, registry=_scrape_registry())


# -- recording ---------------------------------------------------------------------------


_REQUEST_SERIES: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    """Count one answered request.

    The labelled series are kept per (route, method, status): a bounded set (routes are
    URL rules, methods a few), and ``labels()`` costs more than the counting itself.
    """
    method = method if method in METHODS else "other"
    series = _REQUEST_SERIES.get((route, method, status))
    if series is None:
        series = (REQUESTS.labels(route, method, str(status)), LATENCY.labels(route, method))
        _REQUEST_SERIES[(route, method, status)] = series
    series[0].inc()
    series[1].observe(seconds)


@contextmanager
def waiting(kind: str) -> Iterator[None]:
    """Count a client as waiting while the block runs (``kind``: long-poll or sse)."""
    gauge = WAITING.labels(kind)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def record_write(game: str, old_status: str | None, new_status: str, outcome: str) -> None:
    """What one compare-and-set said: a conflict is retried; a status change counts."""
    if outcome == "conflict":
        CAS_RETRIES.labels(game).inc()
    elif outcome == "ok" and old_status != new_status:
        GAMES_ENTERED.labels(game, new_status).inc()


# -- scraping ----------------------------------------------------------------------------


class GamesByStatus(Collector):
    """``boardgames_games{status}``: games stored now, read from Redis at scrape time
    (a few ZCARDs on the store's status sets, never a scan over the games)."""

    def __init__(self, game: str, count: Callable[[], dict[str, int]]) -> None:
        self.game = game
        self.count = count

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "boardgames_games", "Games stored now, by status.", labels=["game", "status"]
        )
        try:
            counts = self.count()
        except Exception:  # Redis down: the scrape still answers, without this gauge
            return
        for status, value in counts.items():
            family.add_metric([self.game, status], value)
        yield family


def _scrape_registry(*extra: Collector) -> CollectorRegistry:
    """The registry to expose: every process's files in multiprocess mode, else this one's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    elif not extra:
        return REGISTRY
    else:
        registry = CollectorRegistry()
        registry.register(_Default())
    for collector in extra:
        registry.register(collector)
    return registry


class _Default(Collector):
    """The process's default registry, as one collector of another registry."""

    def collect(self) -> Iterator[Any]:
        yield from REGISTRY.collect()


def exposition(*extra: Collector) -> tuple[bytes, str]:
    """The text exposition of every metric (plus ``extra`` collectors) and its type."""
    return generate_latest(_scrape_registry(*extra)), CONTENT_TYPE_LATEST


def token_ok(expected: str, header: str | None) -> bool:
    """Whether ``Authorization`` carries the metrics bearer token (constant time)."""
    scheme, _, token = (header or "").strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        token.strip().encode(), expected.encode()
    )

"""Settings from the environment (twelve-factor), with per-app overrides for tests."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

# name -> (type, default). Every setting can come from the environment or from the
# ``config`` mapping given to the app factory (the mapping wins).
SETTINGS: dict[str, tuple[type, Any]] = {
    "REDIS_URL": (str, "redis://127.0.0.1:6379/0"),
    "REDIS_CLUSTER": (bool, False),
    "REDIS_SOCKET_TIMEOUT": (float, 5.0),
    # per pool and process; redis-py 8 defaults to 100, too few for gevent long-polls
    "REDIS_MAX_CONNECTIONS": (int, 4000),
    # under gevent workers, a process's concurrent game reads and writes share one
    # connection and its sends (shared/store/connection.py Pipe); off: a connection each
    "REDIS_PIPELINE": (bool, True),
    # every game write waits for this many replicas (WAIT, in the write's own send) before
    # it is acknowledged; not confirmed within the timeout: 503 storage-not-replicated
    "REDIS_WAIT_REPLICAS": (int, 0),
    "REDIS_WAIT_TIMEOUT_MS": (int, 200),
    "GAME_TTL_FINISHED": (int, 7 * 24 * 3600),
    "GAME_TTL_IDLE": (int, 30 * 24 * 3600),
    "GAME_TTL_OPEN": (int, 24 * 3600),  # an open game nobody starts, from its creation
    "REMATCH_HOLD_SECONDS": (int, 600),  # a rematch keeps the last game's seats this long
    "RATINGS_GRACE_SECONDS": (int, 30),  # the worker settles ratings a crash left this late
    "LEADERBOARD_MIN_GAMES": (int, 5),  # rated games before a player shows on a leaderboard
    "LEADERBOARD_SNAPSHOT_SECONDS": (int, 60),  # how often leaderboard pages are refreshed
    "LOG_LEVEL": (str, "INFO"),
    "MAX_CONTENT_LENGTH": (int, 64 * 1024),
    "CAS_RETRIES": (int, 8),
    # the event stream keeps the events of a game's last N writes (older ones are rebuilt
    # from its history); a game's history tail is compressed into its archive every N
    "HISTORY_STREAM_WRITES": (int, 4),
    "HISTORY_STREAM_BYTES": (int, 900),  # ... fewer when their entries exceed N bytes
    "HISTORY_CHUNK_RECORDS": (int, 32),
    "HISTORY_ENDED_STREAM_SECONDS": (int, 60),  # an ended game's stream, then rebuilt
    "EVENTS_MAX_WAIT": (float, 30.0),
    "SSE_HEARTBEAT_SECONDS": (float, 15.0),
    "SSE_MAX_SECONDS": (float, 300.0),
    "RETRY_AFTER_SECONDS": (int, 2),
    # concurrent waits (long-poll, SSE) per worker process: per client address, in all
    "EVENTS_MAX_WAITERS_PER_ADDRESS": (int, 100),
    "EVENTS_MAX_WAITERS_PER_PROCESS": (int, 1000),
    "EVENTS_RETRY_AFTER_SECONDS": (int, 10),
    # rate limits ("20/second", "10/minute", "5/10s"; empty: off) and CORS allow-list
    "RATE_LIMIT_MOVES": (str, ""),
    "RATE_LIMIT_JOINS": (str, ""),
    "RATE_LIMIT_CREATES": (str, ""),
    "RATE_LIMIT_AUTH_FAILURES": (str, ""),
    # on by default: each call queues a signed POST per registration the bearer sees
    "RATE_LIMIT_WEBHOOK_TESTS": (str, "10/minute"),
    # table chat (shared/games/chat.py): on by default, per sender (a seat, a player)
    # and per client address; messages kept per game (oldest trimmed), characters each
    "RATE_LIMIT_CHAT": (str, "10/10s"),
    "RATE_LIMIT_CHAT_ADDRESS": (str, "30/10s"),
    # reports (players', chat messages') per client address, whatever token files them:
    # on by default (the 20 an hour per player or seat do not stop an address with many)
    "RATE_LIMIT_REPORTS_ADDRESS": (str, "60/hour"),
    "CHAT_MAX_MESSAGES": (int, 500),
    "CHAT_MAX_LENGTH": (int, 500),
    "CORS_ORIGINS": (str, ""),
    # off: POST /games with a "seed" is 422 option-not-allowed (fair shuffles only)
    "ALLOW_CHOSEN_SEED": (bool, True),
    # operations (docs/operations.md): log format, /metrics bearer token, API keys file
    "LOG_FORMAT": (str, "plain"),
    "METRICS_TOKEN": (str, ""),
    "API_KEYS_FILE": (str, ""),
    # the browser client's files served at /play (shared/http/play.py); empty: clients/web
    # of the checkout, else of the working directory
    "WEB_CLIENT_DIR": (str, ""),
    # turn clocks and the worker (shared/worker/loop.py) that plays bots and timeouts
    "CLOCK_MIN_TURN_SECONDS": (int, 10),
    "WORKER_DUE_SHARDS": (int, 16),
    "WORKER_GAMES": (str, "manhattan,windcity"),
    "WORKER_POLL_SECONDS": (float, 0.1),
    "WORKER_LEASE_SECONDS": (float, 5.0),
    "WORKER_BATCH": (int, 50),
    "WORKER_BOT_PROCESSES": (int, 1),  # processes where search bots think (0: in the worker)
    # a hint's search (POST /games/{id}/hint) runs in the gevent hub's thread pool, so
    # the worker's other requests go on meanwhile (shared/http/offload.py); off: on the loop
    "HINTS_OFF_LOOP": (bool, True),
    # finished games' analyses (shared/worker/analysing.py): on or off, in a process of
    # their own (0: in a thread of the worker), the claim's lease (renewed while working)
    "WORKER_ANALYSIS": (bool, True),
    "WORKER_ANALYSIS_PROCESSES": (int, 1),
    "ANALYSIS_LEASE_SECONDS": (float, 30.0),
    # due games of one client (its API key, or its address) claimed per tick: a fair share
    "WORKER_CLIENT_BATCH": (int, 4),
    "WORKER_HEARTBEAT_FILE": (str, "/tmp/boardgames-worker.heartbeat"),
    # the worker's own /metrics (Prometheus): 0 is off; make run and compose serve 9100
    "WORKER_METRICS_PORT": (int, 0),
    "WORKER_METRICS_HOST": (str, "127.0.0.1"),
    # webhooks (shared/webhooks): the server key secrets derive from, SSRF opt-out, delivery
    "WEBHOOK_SIGNING_KEY": (str, ""),
    "WEBHOOK_ALLOW_PRIVATE": (bool, False),
    "WEBHOOK_TIMEOUT_SECONDS": (float, 5.0),
    "WEBHOOK_BACKOFF_BASE_SECONDS": (float, 5.0),
    "WEBHOOK_BACKOFF_MAX_SECONDS": (float, 3600.0),
    "WEBHOOK_GIVE_UP_SECONDS": (float, 24 * 3600.0),
    "WEBHOOK_CLAIM_IDLE_SECONDS": (float, 5.0),
    # deliveries in flight at once per worker process, and the longest one registration
    # keeps a deliverer before the others get their turn (shared/webhooks/delivery.py)
    "WEBHOOK_CONCURRENCY": (int, 8),
    "WEBHOOK_TURN_SECONDS": (float, 10.0),
    # a game's outbox holding this many notifications refuses more webhook.test ones
    "WEBHOOK_OUTBOX_MAX": (int, 500),
    # Web Push (shared/push): the VAPID private key (``python -m shared.push.keys``; empty:
    # push is off), the contact in its JWT's ``sub``, the subscriptions a player may
    # register, pushes a player gets per ``PUSH_RATE_WINDOW_SECONDS``, the share of a
    # turn's time left at which ``clock_low`` rings, and the longest TTL of a push
    "PUSH_VAPID_PRIVATE_KEY": (str, ""),
    "PUSH_VAPID_SUBJECT": (str, "mailto:operator@example.invalid"),
    "PUSH_MAX_SUBSCRIPTIONS": (int, 10),
    "PUSH_RATE_LIMIT": (int, 30),
    "PUSH_RATE_WINDOW_SECONDS": (int, 600),
    "PUSH_CLOCK_LOW_SHARE": (float, 0.2),
    "PUSH_TTL_SECONDS": (int, 86400),
    # embeds (docs/api.md "Embedding in your platform"): the secret links and sessions are
    # signed with (empty: one made once in Redis, common to every service on it), the
    # longest a link lasts unopened, and how long a session lasts between refreshes
    "EMBED_SECRET": (str, ""),
    "EMBED_LINK_SECONDS": (int, 300),
    "EMBED_SESSION_SECONDS": (int, 900),
}

_TRUE = {"1", "true", "yes", "on"}


def _coerce(kind: type, value: Any) -> Any:
    if kind is bool and isinstance(value, str):
        return value.strip().lower() in _TRUE
    return kind(value)


def load_settings(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every setting, from the defaults, then the environment, then ``overrides``."""
    overrides = dict(overrides or {})
    settings: dict[str, Any] = {}
    for name, (kind, default) in SETTINGS.items():
        if name in overrides:
            settings[name] = _coerce(kind, overrides.pop(name))
        elif name in os.environ:
            settings[name] = _coerce(kind, os.environ[name])
        else:
            settings[name] = default
    settings.update(overrides)  # anything else goes to Flask's config unchanged
    return settings

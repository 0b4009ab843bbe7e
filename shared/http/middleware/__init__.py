"""What runs around every view: answer headers and plain OPTIONS (``headers``), CORS
(``cors``), request ids and the log line (``request_log``), rate limits (``ratelimit``),
API keys (``apikeys``) and request metrics with ``GET /metrics`` (``metrics``).

May import ``shared.http.errors``, ``shared.games``, ``shared.store`` and ``shared.ops``."""

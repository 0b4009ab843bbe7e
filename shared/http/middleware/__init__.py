"""What runs around every view: answer headers and plain OPTIONS (``headers``), CORS
(``cors``), request ids and the log line (``request_log``), rate limits (``ratelimit``),
API keys (``apikeys``), request metrics with ``GET /metrics`` (``metrics``), the caps on
waits (``waits``) and ``Transfer-Encoding`` (``framing``).

May import ``shared.http.errors``, ``shared.games``, ``shared.streaming`` (the wait
gate), ``shared.store``, ``shared.ops`` and ``shared.i18n``; never the routes, the schemas
or the app."""

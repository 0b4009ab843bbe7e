"""The HTTP layer: the app factory (``app``), the routes (``resources/``, one module per
resource), the schemas (``schemas/``), OpenAPI, problem+json errors, strict JSON bodies,
the fast path of a move's two requests (``fastpath``), the embed page and its sessions
(``embed_page``, ``embedding``), and the middleware (``middleware/``: headers, CORS,
request log, rate limits, API keys, metrics).

Thin wiring: it turns requests into calls on :class:`shared.games.Games` and domain
errors into status codes. May import every layer below it (``streaming``, ``webhooks``,
``games``, ``store``, ``bots``, ``ops``, ``i18n``, the engine contract); nothing imports
it but the games' apps. It finds the browser client's files by configuration
(``WEB_CLIENT_DIR``, ``play``), never by importing ``clients``."""

"""Rate limits: ``429 rate-limited`` with ``Retry-After``, nothing applied.

A rate is written like ``"20/second"``, ``"10/minute"``, ``"600/hour"`` or ``"5/10s"``
(5 per 10 seconds; anything the ``limits`` library parses works too); an empty value or
``off`` switches the limit off (the default). Rates, windows and the refusal are the
games layer's (shared/games/rates.py); this module is the HTTP side.

Two mechanisms, chosen by what a request may cost:

- **Per client address** (``RATE_LIMIT_CREATES``, ``RATE_LIMIT_JOINS``,
  ``RATE_LIMIT_AUTH_FAILURES``): flask-limiter over ``limits``' Redis (or Redis Cluster)
  storage, fixed windows. Each check is one call to the storage (its key is a single
  key, so it lives in one cluster slot). A Redis that is down fails the check, and the
  request gets ``503 storage-unavailable`` like every other request that needs Redis.
  ``RATE_LIMIT_WEBHOOK_TESTS`` counts the same way per game and client address (on by
  default: each ``POST /games/{id}/webhooks/test`` queues a signed POST per
  registration the bearer sees), ``RATE_LIMIT_CHAT`` / ``RATE_LIMIT_CHAT_ADDRESS``
  a table chat message per sender and per client address, and
  ``RATE_LIMIT_REPORTS_ADDRESS`` a report (of a player or a chat message) per client
  address, whatever token files it (all on by default).
- **Per seat token, for moves** (``RATE_LIMIT_MOVES``): a move must cost two Redis round
  trips (read, compare-and-set). flask-limiter would add a third, so the counter is an
  ``INCR`` inside the move's own read pipeline (``GameStore.read_counted``), on a key in
  the game's ``{id}`` hash slot, counted by the games layer's write loop; ``limits``
  still parses the rate and sizes the window, and the window's number is part of the
  key (one key per window, no reset needed).

Failed authentications are counted after the answer (a 401, or a 403
``invalid-token``, to a request that carried a token; a 403 ``invalid-invite``, a
join's wrong invite code; a 403 ``invalid-watch-code``, a spectator's wrong one).
Checking the count before every request with a token would
also cost moves a round trip, so the address is refused from memory instead: once its
count goes over the rate, this process refuses every request with a token or an invite
code from that address until the window ends (each worker finds out at its own next
failure, so a few more than the rate may be tried per window, one per worker).

A fixed window lets a client send up to twice the rate across a window boundary; that
is the usual price of one counter per window.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded

from shared.games.errors import RateLimited
from shared.games.rates import Rate, rate_limited
from shared.games.rates import parse_rate as parse_rate  # re-exported (the tests use it)
from shared.http.errors import PROBLEM_MIME, game_problem, problem
from shared.store import StoreError

log = logging.getLogger(__name__)

_AUTH_SCOPE = "auth-failures"
_WEBHOOK_TEST_SCOPE = "webhook-tests"
_CHAT_SCOPE = "chat"
_REPORT_SCOPE = "reports"


def client_address() -> str:
    """Whom per-address limits count: the peer's IPv4 address, or the /64 network of an
    IPv6 one (one subscriber usually holds a whole /64, so single addresses would let
    them walk around every limit). Behind a proxy, configure the proxy's forwarded
    address (werkzeug's ``ProxyFix``)."""
    return address_of(request.remote_addr)


def address_of(remote_addr: str | None) -> str:
    """:func:`client_address` of a peer address (``REMOTE_ADDR``)."""
    address = remote_addr or "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is a.b.c.d
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def storage_uri(settings: dict[str, Any]) -> str:
    """limits' storage URI for the service's Redis (``redis+cluster://`` on a cluster)."""
    parts = urlsplit(settings["REDIS_URL"])
    query = parse_qsl(parts.query)
    flag = {k: v for k, v in query if k == "cluster"}.get("cluster", "").lower()
    query = [(k, v) for k, v in query if k != "cluster"]
    if settings["REDIS_CLUSTER"] or flag in {"1", "true", "yes"}:
        return str(urlunsplit(("redis+cluster", parts.netloc, "", "", "")))
    return str(urlunsplit(parts._replace(query=urlencode(query))))


class AddressLimits:
    """The per-address limits of one app (``app.extensions["address_limits"]``)."""

    def __init__(self, app: Flask, settings: dict[str, Any], prefix: str) -> None:
        self.creates = parse_rate(settings.get("RATE_LIMIT_CREATES"))
        self.joins = parse_rate(settings.get("RATE_LIMIT_JOINS"))
        self.auth_failures = parse_rate(settings.get("RATE_LIMIT_AUTH_FAILURES"))
        self.webhook_tests = parse_rate(settings.get("RATE_LIMIT_WEBHOOK_TESTS"))
        self.chat = parse_rate(settings.get("RATE_LIMIT_CHAT"))
        self.chat_address = parse_rate(settings.get("RATE_LIMIT_CHAT_ADDRESS"))
        self.reports_address = parse_rate(settings.get("RATE_LIMIT_REPORTS_ADDRESS"))
        self.prefix = prefix
        self._blocked: dict[str, float] = {}  # address -> time.monotonic() it ends
        self._what: dict[str, str] = {}  # endpoint -> what its limit counts
        timeout = settings["REDIS_SOCKET_TIMEOUT"]
        self.limiter = Limiter(
            key_func=client_address,
            strategy="fixed-window",
            storage_uri=storage_uri(settings),
            storage_options={
                "key_prefix": f"{prefix}:rl",
                "socket_timeout": timeout,
                "socket_connect_timeout": timeout,
                "max_connections": settings.get("REDIS_MAX_CONNECTIONS", 4000),
            },
            key_prefix="addr",
            headers_enabled=False,
            swallow_errors=False,
        )
        # flask-limiter's init_app adds three hooks to every request: a check of default,
        # application and blueprint limits (this app has none: its limits decorate two
        # views, whose wrappers check them), rate-limit headers (off) with deductions
        # "when" a response says so (none), and a reset of its per-request context (which
        # dies with the request). They cost every request ~6% of a move's CPU, for
        # nothing: init_app skips them for a limiter already listed in app.extensions.
        app.extensions.setdefault("limiter", set()).add(self.limiter)
        self.limiter.init_app(app)
        app.register_error_handler(RateLimitExceeded, self._exceeded)
        if self.auth_failures is not None:
            app.before_request(self._refuse_blocked)
            app.after_request(self._count_auth_failure)
        app.extensions["address_limits"] = self

    @property
    def blocking(self) -> bool:
        """Whether this process refuses requests with a token from some address now."""
        return bool(self._blocked)

    def limit_views(self, app: Flask, creates: str, joins: str) -> None:
        """Put the create and join limits on those views (endpoint names), outermost:
        a request is counted before its body is even parsed."""
        for endpoint, rate, what in (
            (creates, self.creates, "games created"),
            (joins, self.joins, "joins"),
        ):
            if rate is not None:
                view = app.view_functions[endpoint]
                limit = self.limiter.limit(f"{rate.amount}/{rate.get_expiry()} second")
                app.view_functions[endpoint] = limit(view)  # type: ignore[assignment]
                self._what[endpoint] = what

    def _exceeded(self, error: RateLimitExceeded) -> Response:
        rate = error.limit.limit
        current = self.limiter.current_limit
        retry_after = rate.get_expiry()
        try:  # the window started at its first hit: ask the storage when it ends
            if current is not None:
                retry_after = min(retry_after, max(1, math.ceil(current.reset_at - time.time())))
        except StoreError as failure:
            log.warning("rate limit storage: %s", failure)
        limited = rate_limited(
            rate, retry_after, self._what.get(request.endpoint or "", "requests")
        )
        return game_problem(limited)

    def count_webhook_test(self, game_id: str) -> None:
        """Count a ``POST /games/{id}/webhooks/test`` against ``RATE_LIMIT_WEBHOOK_TESTS``
        per game and client address (one call to the storage; a second one, for
        ``Retry-After``, only over the rate): ``rate-limited`` over it."""
        rate = self.webhook_tests
        if rate is None:
            return
        address = client_address()
        strategy = self.limiter.limiter
        if strategy.hit(rate, self.prefix, _WEBHOOK_TEST_SCOPE, game_id, address):
            return
        reset, _ = strategy.get_window_stats(
            rate, self.prefix, _WEBHOOK_TEST_SCOPE, game_id, address
        )
        retry_after = min(rate.get_expiry(), max(1, math.ceil(reset - time.time())))
        raise rate_limited(rate, retry_after, "webhook tests of this game")

    def count_chat(self, sender: str) -> None:
        """Count a chat message against ``RATE_LIMIT_CHAT`` per ``sender`` (a game's
        seat, or a player) and ``RATE_LIMIT_CHAT_ADDRESS`` per client address (one call
        to the storage each; one more, for ``Retry-After``, only over a rate):
        ``rate-limited`` over either."""
        for rate, who, what in (
            (self.chat, sender, "chat messages"),
            (self.chat_address, client_address(), "chat messages from this address"),
        ):
            self._hit(rate, _CHAT_SCOPE, who, what)

    def count_report(self) -> None:
        """Count a report (of a player or of a chat message) against
        ``RATE_LIMIT_REPORTS_ADDRESS`` per client address, before it is filed (one call
        to the storage; one more, for ``Retry-After``, only over the rate):
        ``rate-limited`` over it. The per-player (or per-seat) hourly count is the
        moderation's own; this one stops an address holding many seats."""
        self._hit(
            self.reports_address, _REPORT_SCOPE, client_address(), "reports from this address"
        )

    def _hit(self, rate: Rate | None, scope: str, who: str, what: str) -> None:
        """Count one against ``rate`` for ``who`` in ``scope``: ``rate-limited`` (``what``
        is counted) with the seconds left in its window, over it."""
        if rate is None:
            return
        strategy = self.limiter.limiter
        if strategy.hit(rate, self.prefix, scope, who):
            return
        reset, _ = strategy.get_window_stats(rate, self.prefix, scope, who)
        retry_after = min(rate.get_expiry(), max(1, math.ceil(reset - time.time())))
        raise rate_limited(rate, retry_after, what)

    # -- failed authentication --------------------------------------------------------

    def _refuse_blocked(self) -> None:
        """429 for a request with a token or an invite code from an address this process
        has blocked."""
        if not self._blocked or not _authenticates():
            return
        ends = self._blocked.get(client_address())
        if ends is None:
            return
        left = ends - time.monotonic()
        if left <= 0:
            del self._blocked[client_address()]
            return
        raise self._auth_limited(math.ceil(left))

    def _auth_limited(self, retry_after: int) -> RateLimited:
        assert self.auth_failures is not None
        return rate_limited(self.auth_failures, retry_after, "failed authentications")

    def _count_auth_failure(self, response: Response) -> Response:
        """Count a failed authentication; the one over the rate becomes the 429 itself
        (changed in place, so headers other hooks set stay)."""
        if not _auth_failed(response):
            return response
        rate = self.auth_failures
        assert rate is not None
        address = client_address()
        strategy = self.limiter.limiter
        try:
            if strategy.hit(rate, self.prefix, _AUTH_SCOPE, address):
                return response
            reset, _ = strategy.get_window_stats(rate, self.prefix, _AUTH_SCOPE, address)
        except StoreError as failure:  # the answer stands; count later
            log.warning("could not count a failed authentication: %s", failure)
            return response
        retry_after = min(rate.get_expiry(), max(1, math.ceil(reset - time.time())))
        self._block(address, retry_after)
        limited = self._auth_limited(retry_after)
        body = problem(429, limited.code, limited.template, params=limited.params)
        response.status_code = 429
        response.set_data(body.get_data())
        response.mimetype = PROBLEM_MIME
        response.headers["Content-Language"] = body.headers["Content-Language"]
        response.headers["Retry-After"] = str(retry_after)
        response.headers.pop("WWW-Authenticate", None)
        return response

    def _block(self, address: str, seconds: int) -> None:
        now = time.monotonic()
        if len(self._blocked) > 10_000:  # forget the expired ones
            self._blocked = {a: t for a, t in self._blocked.items() if t > now}
        self._blocked[address] = now + seconds


def _authenticates() -> bool:
    """Whether the request carries a credential: a token, a spectator's watch code, or an
    invite code (a join's body, read only for an address this process has blocked)."""
    if "Authorization" in request.headers or "watch" in request.args:
        return True
    if request.method != "POST":
        return False
    body = request.get_json(silent=True)
    return isinstance(body, dict) and "invite" in body


def _auth_failed(response: Response) -> bool:
    """A 401 or a 403 ``invalid-token`` to a request that carried a token (the token sent
    is no token of this game), a 403 ``admin-required`` to one that carried a bearer (no
    operator's key), or a 403 ``invalid-invite`` (a join's wrong code) or
    ``invalid-watch-code`` (a spectator's)."""
    if response.status_code not in (401, 403) or response.mimetype != PROBLEM_MIME:
        return False
    try:
        code = json.loads(response.get_data())["code"]
    except (ValueError, KeyError, TypeError):
        return False
    if code in ("invalid-invite", "invalid-watch-code"):
        return True
    has_token = "Authorization" in request.headers
    if code == "admin-required":  # a bearer that is no operator's key (issue 41)
        return has_token
    return has_token and (response.status_code == 401 or code == "invalid-token")

"""The HTTP plumbing of the service client (:mod:`clients.cli.client`): one request with
its headers, retries on connection errors and ``503`` (``Retry-After`` honoured), and
the services' default URLs. No import from ``services/`` or ``shared/``; errors become
:mod:`clients.cli.errors` exceptions.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import requests

from .errors import (
    ServiceUnavailable,
    TransportError,
    describe_transport,
    error_from_response,
)
from .i18n import _

Json = dict[str, Any]

DEFAULT_URLS = {
    "manhattan": ("MANHATTAN_URL", "http://127.0.0.1:8001"),
    "windcity": ("WINDCITY_URL", "http://127.0.0.1:8002"),
}
GAMES = tuple(DEFAULT_URLS)


def default_url(game: str | None) -> str:
    """The base URL of ``game``'s service: env ``MANHATTAN_URL``/``WINDCITY_URL`` or the default."""
    if game not in DEFAULT_URLS:
        raise ValueError(f"unknown game {game!r}")
    env, fallback = DEFAULT_URLS[game]
    return os.environ.get(env) or fallback


class Transport:
    """Requests to one service at ``base_url`` (default: the game's, see :func:`default_url`).

    ``language`` goes as ``Accept-Language`` (problems' words). With ``retry`` a request
    is retried on connection errors and ``503`` (``Retry-After`` honoured, at most
    ``max_retries`` times, never waiting more than ``max_retry_wait`` seconds at once).
    """

    game: str | None = None
    language = "en"
    watch_code: str | None = None
    """A game's watch code (its watch link): a spectator's reads of a game whose
    ``spectators`` is ``link`` carry it as ``?watch=``."""

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        game: str | None = None,
        *,
        host_token: str | None = None,
        timeout: float = 10.0,
        max_retries: int = 4,
        max_retry_wait: float = 5.0,
        backoff: float = 0.2,
        session: requests.Session | None = None,
        api_key: str | None = None,
    ) -> None:
        self.game = game or self.game
        # the operator's API key for creating and listing games, when the service has
        # keys turned on (docs/operations.md); from $BOARDGAMES_API_KEY by default
        self.api_key = api_key or os.environ.get("BOARDGAMES_API_KEY") or None
        self.base_url = (base_url or default_url(self.game)).rstrip("/")
        self.token = token
        self.host_token = host_token
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.backoff = backoff
        self.session = session or requests.Session()
        self.seat: int | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r}, game={self.game!r}, seat={self.seat})"

    def _headers(self, token: str | None, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Accept": "application/json", "Accept-Language": self.language}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if extra:
            headers.update(extra)
        return headers

    def _retry_delay(self, attempt: int, retry_after: float | None) -> float:
        delay = retry_after if retry_after is not None else self.backoff * (2**attempt)
        return min(delay, self.max_retry_wait)

    def _pause(self, failures: int) -> None:
        """Back off linearly after the ``failures``-th failure in a row of a wait loop."""
        time.sleep(min(self.backoff * failures, self.max_retry_wait))

    def _request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json_body: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        retry: bool = False,
        timeout: float | None = None,
    ) -> Any:
        """Send one request and return its JSON body (``{}`` when empty).

        With ``retry``, connection errors and 503s are retried (see the class docstring).
        """
        url = self.base_url + path
        if self.watch_code and method == "GET" and path.startswith("/games/"):
            params = {**(params or {}), "watch": self.watch_code}
        attempt = 0
        while True:
            try:
                resp = self.session.request(
                    method,
                    url,
                    json=json_body,
                    params={k: v for k, v in (params or {}).items() if v is not None},
                    headers=self._headers(token, headers),
                    timeout=timeout or self.timeout,
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                if not retry or attempt >= self.max_retries:
                    raise TransportError(describe_transport(self.base_url, exc)) from exc
                time.sleep(self._retry_delay(attempt, None))
                attempt += 1
                continue
            if resp.status_code < 400:
                try:
                    return resp.json() if resp.content else {}
                except ValueError:
                    raise TransportError(
                        _(
                            "{url} did not answer with JSON; is it a boardgames service?",
                            url=self.base_url,
                        )
                    ) from None
            err = error_from_response(resp)
            if retry and isinstance(err, ServiceUnavailable) and attempt < self.max_retries:
                time.sleep(self._retry_delay(attempt, err.retry_after))
                attempt += 1
                continue
            raise err

    def _get(self, path: str, token: str | None = None, **kw: Any) -> Any:
        """A GET, retried: reading twice is harmless."""
        return self._request("GET", path, token=token, retry=True, **kw)

    def _resilient(self, call: Callable[[], Json], deadline: float | None) -> Json:
        """Call ``call`` until it does not fail with a transport error or a 503."""
        failures = 0
        while True:
            try:
                return call()
            except (TransportError, ServiceUnavailable):
                failures += 1
                if deadline is not None and time.monotonic() > deadline:
                    raise
                self._pause(failures)

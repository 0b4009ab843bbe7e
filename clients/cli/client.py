"""A thin HTTP client for the board-game services (Manhattan, Wind City).

It speaks the HTTP contract of ``docs/architecture.md`` and nothing else: no import
from ``services/`` or ``shared/``. Errors become :mod:`clients.cli.errors` exceptions.

>>> c = ManhattanClient()
>>> g = c.create(players=2)
>>> c.join(g["id"], "ann")  # keeps the seat token in ``c.token``
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import requests

from .errors import (
    ApiError,
    ServiceUnavailable,
    TransportError,
    describe_transport,
    error_from_response,
)

Json = dict[str, Any]

DEFAULT_URLS = {
    "manhattan": ("MANHATTAN_URL", "http://127.0.0.1:8001"),
    "windcity": ("WINDCITY_URL", "http://127.0.0.1:8002"),
}
GAMES = tuple(DEFAULT_URLS)
OVER = ("finished", "cancelled")
TERMINAL_EVENTS = ("game_finished", "game_cancelled")


def default_url(game: str | None) -> str:
    """The base URL of ``game``'s service: env ``MANHATTAN_URL``/``WINDCITY_URL`` or the default."""
    if game not in DEFAULT_URLS:
        raise ValueError(f"unknown game {game!r}")
    env, fallback = DEFAULT_URLS[game]
    return os.environ.get(env) or fallback


def is_over(view: Json) -> bool:
    """Whether a game view is finished or cancelled."""
    return view.get("status") in OVER


def my_turn(view: Json, seat: int | None = None) -> bool:
    """Whether ``seat`` (default: the view's ``you``) is among the seats to act."""
    seat = view.get("you") if seat is None else seat
    return seat is not None and seat in (view.get("to_act") or [])


class GameClient:
    """A client for one game service (``base_url`` defaults to the game's, see :func:`default_url`).

    ``token`` is the seat's bearer token (set by :meth:`join`), ``host_token`` the token
    that may start or cancel a game (set by :meth:`create`); every method takes a ``token=``
    to override them. ``language`` goes as ``Accept-Language`` (problems' words). GETs and
    moves are retried on connection errors and ``503`` (``Retry-After`` honoured, at most
    ``max_retries`` times, never waiting more than ``max_retry_wait`` seconds at once); a
    move's ``Idempotency-Key`` stays the same across its retries: no second move.
    """

    game: str | None = None
    language = "en"

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

    # -- plumbing -------------------------------------------------------------------------

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
                        f"{self.base_url} did not answer with JSON; is it a boardgames service?"
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

    # -- health ---------------------------------------------------------------------------

    def healthz(self) -> Json:
        """``GET /healthz``: the process is alive."""
        return self._get("/healthz")

    def readyz(self) -> Json:
        """``GET /readyz``: the service can reach Redis."""
        return self._get("/readyz")

    def openapi(self) -> Json:
        """The service's OpenAPI document."""
        return self._get("/openapi.json")

    # -- games ----------------------------------------------------------------------------

    def create(self, players: int, **options: Any) -> Json:
        """``POST /games``: a new game for ``players`` seats; keeps the ``host_token``.

        Returns ``{"id", "host_token", "game": <view>}``.
        """
        body = {"players": players, **{k: v for k, v in options.items() if v is not None}}
        data = self._request("POST", "/games", json_body=body, token=self.api_key)
        self.host_token = data.get("host_token", self.host_token)
        return data

    def list_games(
        self, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> Json:
        """``GET /games``: one page ``{"games": [...], "next_cursor"}``."""
        params = {"status": status, "limit": limit, "cursor": cursor}
        return self._get("/games", token=self.api_key, params=params)

    def iter_games(self, status: str | None = None, page_size: int = 50) -> Iterator[Json]:
        """Every game summary, following ``next_cursor`` across pages."""
        cursor = None
        while True:
            page = self.list_games(status=status, limit=page_size, cursor=cursor)
            yield from page.get("games", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def join(
        self,
        game_id: str,
        name: str | None = None,
        *,
        invite: str | None = None,
        player_key: str | None = None,
    ) -> Json:
        """``POST /games/{id}/players``: take a seat; keeps its ``token`` and ``seat``.

        With ``player_key`` (a ``bgp_...`` key) the seat is bound to that player and
        ``name`` may be left out (the player's name is taken). ``invite`` is the invite
        code an unlisted game needs. Returns ``{"seat", "token", "game": <view>}``.
        """
        body: Json = {"name": name, "invite": invite}
        body = {k: v for k, v in body.items() if v is not None}
        path = f"/games/{game_id}/players"
        data = self._request("POST", path, json_body=body, token=player_key)
        self.token = data.get("token", self.token)
        self.seat = data.get("seat", self.seat)
        return data

    # -- players --------------------------------------------------------------------------

    def create_player(self, name: str) -> Json:
        """``POST /players``: a new player → ``{"id", "name", "external_id", "created_at",
        "key"}``; ``key`` (``bgp_...``) is shown only this once."""
        return self._request("POST", "/players", json_body={"name": name}, token=self.api_key)

    def me(self, player_key: str) -> Json:
        """``GET /players/me``: the player of ``player_key``."""
        return self._get("/players/me", player_key)

    def my_games(
        self,
        player_key: str,
        status: str | None = None,
        mine: bool = False,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Json:
        """``GET /players/me/games``: one page ``{"games": [...], "next_cursor"}`` of the
        games the player sits in at this service (``mine``: only where it is to act)."""
        params = {
            "status": status,
            "turn": "mine" if mine else None,
            "limit": limit,
            "cursor": cursor,
        }
        return self._get("/players/me/games", player_key, params=params)

    def iter_my_games(
        self,
        player_key: str,
        status: str | None = None,
        mine: bool = False,
        page_size: int = 100,
        max_pages: int = 10,
    ) -> Iterator[Json]:
        """The player's games here, following ``next_cursor`` for at most ``max_pages``."""
        cursor = None
        for _ in range(max_pages):
            page = self.my_games(player_key, status, mine, page_size, cursor)
            yield from page.get("games", [])
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def player(self, player_id: str) -> Json:
        """``GET /players/{id}``: a player's public profile ``{"id", "name", "ratings":
        {game: {"mu", "sigma", "ordinal", "games", "win_share"}}}``."""
        return self._get(f"/players/{player_id}")

    def leaderboard(self, limit: int | None = None, cursor: str | None = None) -> Json:
        """``GET /leaderboards/{game}``: one page ``{"game", "entries": [{"rank",
        "player": {"id", "name"}, "ordinal", "mu", "sigma", "games", "win_share"}],
        "next_cursor"}`` of this service's game, best first."""
        params = {"limit": limit, "cursor": cursor}
        return self._get(f"/leaderboards/{self.game}", token=self.api_key, params=params)

    def quick_match(self, player_key: str, players: int | None = None, **options: Any) -> Json:
        """``POST /matches``: a seat at an open public table with these options (a new
        one if none) → ``{"game_id", "seat", "token", "game"}``; ``token`` is ``None``
        when the player already sat there (the player key acts for the seat)."""
        body = {"players": players, **options}
        body = {k: v for k, v in body.items() if v is not None}
        data = self._request("POST", "/matches", json_body=body, token=player_key)
        self.token = data.get("token") or player_key
        self.seat = data.get("seat", self.seat)
        return data

    def add_bot(
        self,
        game_id: str,
        bot: str = "greedy",
        name: str | None = None,
        host_token: str | None = None,
    ) -> Json:
        """``POST /games/{id}/players`` with ``{"bot"}`` and the host token: seat a server
        bot (``random`` or ``greedy``). Returns ``{"seat", "token": None, "game"}``."""
        body = {"bot": bot, **({"name": name} if name is not None else {})}
        tok = host_token or self.host_token
        return self._request("POST", f"/games/{game_id}/players", token=tok, json_body=body)

    def resign(self, game_id: str, token: str | None = None) -> Json:
        """``POST /games/{id}/resign``: a bot plays the seat to the end → the view."""
        return self._request("POST", f"/games/{game_id}/resign", token=token or self.token)

    def leave(self, game_id: str, token: str | None = None) -> Json:
        """``DELETE /games/{id}/players/me``: free the seat of an open game → the view."""
        return self._request("DELETE", f"/games/{game_id}/players/me", token=token or self.token)

    def start(self, game_id: str, host_token: str | None = None) -> Json:
        """``POST /games/{id}/start`` with the host token → the view."""
        tok = host_token or self.host_token or self.token
        return self._request("POST", f"/games/{game_id}/start", token=tok)

    def cancel(self, game_id: str, host_token: str | None = None) -> Json:
        """``DELETE /games/{id}`` with the host token → the view (status ``cancelled``)."""
        tok = host_token or self.host_token or self.token
        return self._request("DELETE", f"/games/{game_id}", token=tok)

    def view(
        self,
        game_id: str,
        token: str | None = None,
        spectator: bool = False,
        legal_moves: bool = False,
    ) -> Json:
        """``GET /games/{id}``: the game as this seat (or, with ``spectator``, anyone) sees it;
        with ``legal_moves`` also the seat's legal moves (``include=legal_moves``: one read)."""
        path = f"/games/{game_id}" + ("?include=legal_moves" if legal_moves else "")
        return self._get(path, None if spectator else (token or self.token))

    def legal_moves(self, game_id: str, token: str | None = None) -> list[Json]:
        """``GET /games/{id}/legal-moves``: the seat's legal moves now (each sendable as is)."""
        return self._get(f"/games/{game_id}/legal-moves", token or self.token).get("moves", [])

    def move(
        self,
        game_id: str,
        move: Json,
        token: str | None = None,
        *,
        if_match: str | int | None = None,
        idempotency_key: str | None = None,
    ) -> Json:
        """``POST /games/{id}/moves``: make ``move``; returns ``{"game": <view>, "events"}``.

        Safe to retry: one ``Idempotency-Key`` (a fresh uuid4 unless given) is sent on
        every attempt. ``if_match`` (a version or ETag) makes a stale move fail with
        :class:`~clients.cli.errors.PreconditionFailed`.
        """
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if if_match is not None:
            tag = str(if_match)
            headers["If-Match"] = tag if tag.startswith(('"', "W/")) else f'"{tag}"'
        path = f"/games/{game_id}/moves"
        return self._request(
            "POST", path, token=token or self.token, json_body=move, headers=headers, retry=True
        )

    def score(self, game_id: str) -> Json:
        """``GET /games/{id}/score`` → ``{"status", "score", "result"}``."""
        return self._get(f"/games/{game_id}/score")

    def log(self, game_id: str, token: str | None = None) -> Json:
        """``GET /games/{id}/log``: events, and moves + seed once the game is over."""
        return self._get(f"/games/{game_id}/log", token or self.token)

    # -- events ---------------------------------------------------------------------------

    def events(
        self,
        game_id: str,
        after: str | int | None = None,
        wait: float | None = None,
        limit: int | None = None,
    ) -> Json:
        """``GET /games/{id}/events?after=&wait=``: ``{"events": [...], "last_id"}``.

        ``after`` is an event id (``"<version>-<n>"``) or a bare version (everything
        after that version). With ``wait`` the call long-polls: it returns as soon as an
        event newer than ``after`` exists, or empty after ``wait`` seconds. Not retried
        (callers resume from the last id they saw).
        """
        params: dict[str, Any] = {"after": None if after is None else str(after), "limit": limit}
        if wait:
            params["wait"] = int(wait) if float(wait).is_integer() else wait
        timeout = self.timeout + (float(wait) if wait else 0.0)
        return self._request("GET", f"/games/{game_id}/events", params=params, timeout=timeout)

    def stream_events(
        self,
        game_id: str,
        after: str | None = None,
        *,
        reconnect: bool = True,
        max_reconnects: int = 50,
        read_timeout: float = 60.0,
    ) -> Iterator[Json]:
        """Yield events from the SSE stream, reconnecting with ``Last-Event-ID`` when dropped.

        Each yielded dict has the event's fields plus ``id`` (its stream id). Ends after
        the game's final event (``game_finished``/``game_cancelled``) or, when a stream
        closes with nothing new, once the game is over.
        """
        last_id = after
        failures = 0
        while True:
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if last_id:
                headers["Last-Event-ID"] = last_id
            got = 0
            try:
                with self.session.get(
                    f"{self.base_url}/games/{game_id}/events",
                    params={"after": last_id} if last_id else None,
                    headers=headers,
                    stream=True,
                    timeout=(self.timeout, read_timeout),
                ) as resp:
                    if resp.status_code >= 400:
                        raise error_from_response(resp)
                    failures = 0
                    for event in _parse_sse(resp.iter_lines(decode_unicode=True)):
                        last_id = event.get("id", last_id)
                        got += 1
                        yield event
                        if event.get("type") in TERMINAL_EVENTS:
                            return
            except (requests.ConnectionError, requests.Timeout) as exc:
                failures += 1
                if not reconnect or failures > max_reconnects:
                    detail = describe_transport(self.base_url, exc)
                    raise TransportError(f"event stream of {game_id}: {detail}") from exc
                self._pause(failures)
                continue
            if not reconnect:
                return
            if not got:  # the server closed an idle stream: over already, or just its lifetime?
                if is_over(self.view(game_id, spectator=True)):
                    return
                time.sleep(self.backoff)

    def wait_for_turn(
        self,
        game_id: str,
        token: str | None = None,
        *,
        seat: int | None = None,
        timeout: float | None = None,
        poll_wait: float = 20.0,
        on_events: Callable[[list[Json]], None] | None = None,
        after: str | None = None,
        view: Json | None = None,
    ) -> Json:
        """Block until ``seat`` must act or the game is over; return the fresh view.

        Long-polls the event stream from the last event id seen; a dropped connection or
        a 503 is survived by waiting a little and resuming from that id, so no event is
        missed. ``on_events`` is called with every batch of new events (e.g. to show
        what the others did). ``seat`` defaults to the view's ``you`` (the token's seat).
        ``view``: a view just received (e.g. a move's answer), saving the first GET.
        Raises :class:`TimeoutError` after ``timeout`` seconds.
        """
        deadline = None if timeout is None else time.monotonic() + timeout

        def fetch() -> Json:
            return self._resilient(lambda: self.view(game_id, token=token), deadline)

        view = view or fetch()
        # The first time, resume after the view's version (the service reads a bare
        # version ``v`` as "after every event of v or older"); then after the last id seen.
        cursor = after or str(view.get("version", 0))
        batches = self.event_batches(game_id, cursor, wait=poll_wait, deadline=deadline)
        try:
            while not (is_over(view) or my_turn(view, seat)):
                evs = next(b for b in batches if b)
                if on_events:
                    on_events(evs)
                view = fetch()
        except TimeoutError:
            raise TimeoutError(f"not our turn in {game_id} after {timeout}s") from None
        return view

    def event_batches(
        self, game_id: str, after: str, *, wait: float = 20.0, deadline: float | None = None
    ) -> Iterator[list[Json]]:
        """Long-poll the events after ``after`` for ever, yielding each batch (``[]``: none).

        A dropped connection or a 503 is survived by waiting a little and resuming from
        the last event id seen, so no event is missed. Past ``deadline`` (a
        ``time.monotonic()`` value) it raises :class:`TimeoutError`.
        """
        cursor, failures = after, 0
        while True:
            timeout = wait
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no new event in {game_id} before the deadline")
                timeout = max(1.0, min(wait, left))
            try:
                batch = self.events(game_id, after=cursor, wait=timeout)
            except (TransportError, ServiceUnavailable):
                failures += 1
                self._pause(failures)
                continue
            failures = 0
            evs = batch.get("events") or []
            if evs:
                cursor = evs[-1].get("id") or batch.get("last_id") or cursor
            yield evs

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


def _parse_sse(lines: Iterator[str]) -> Iterator[Json]:
    """Parse Server-Sent Events lines into event dicts (``data`` JSON merged with ``id``)."""
    data: list[str] = []
    ev_id: str | None = None
    ev_type: str | None = None
    for line in lines:
        if line == "":
            if data:
                raw = "\n".join(data)
                try:
                    payload = json.loads(raw)
                except ValueError:
                    payload = {"data": raw}
                if not isinstance(payload, dict):
                    payload = {"data": payload}
                if ev_id is not None:
                    payload.setdefault("id", ev_id)
                if ev_type and "type" not in payload:
                    payload["type"] = ev_type
                yield payload
            data, ev_id, ev_type = [], None, None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "id":
            ev_id = value
        elif field == "event":
            ev_type = value


class ManhattanClient(GameClient):
    """Client of the Manhattan service (``MANHATTAN_URL``, default http://127.0.0.1:8001)."""

    game = "manhattan"

    def place(self, game_id: str, city: int, lot: int, floors: int, **kw: Any) -> Json:
        """Place a selected piece of ``floors`` on board ``lot`` of ``city``."""
        move = {"type": "place", "city": city, "lot": lot, "floors": floors}
        return self.move(game_id, move, **kw)

    def select(self, game_id: str, pieces: list[int], **kw: Any) -> Json:
        """Select this round's pieces (their floor counts)."""
        return self.move(game_id, {"type": "select", "pieces": list(pieces)}, **kw)


class WindCityClient(GameClient):
    """Client of the Wind City service (``WINDCITY_URL``, default http://127.0.0.1:8002)."""

    game = "windcity"

    def plan(
        self,
        game_id: str,
        actions: list[int],
        kauf: str | None = None,
        renew: list[str] | None = None,
        **kw: Any,
    ) -> Json:
        """The active player's secret plan (1–3 action numbers, Kauf target) and renewals."""
        move = {"type": "plan", "actions": list(actions), "kauf": kauf, "renew": list(renew or [])}
        return self.move(game_id, move, **kw)

    def insure(self, game_id: str, squares: list[str], **kw: Any) -> Json:
        """Buy insurance from the active player for one's own houses on ``squares``."""
        return self.move(game_id, {"type": "insure", "squares": list(squares)}, **kw)


_CLIENTS: dict[str, type[GameClient]] = {"manhattan": ManhattanClient, "windcity": WindCityClient}


def client_for(
    game: str, base_url: str | None = None, token: str | None = None, **kw: Any
) -> GameClient:
    """The per-game client for ``game`` ("manhattan" or "windcity")."""
    if game not in _CLIENTS:
        raise ValueError(f"unknown game {game!r}")
    return _CLIENTS[game](base_url, token, **kw)


__all__ = [
    "ApiError",
    "GameClient",
    "ManhattanClient",
    "WindCityClient",
    "client_for",
    "default_url",
    "is_over",
    "my_turn",
]

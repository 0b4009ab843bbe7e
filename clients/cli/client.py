"""A thin HTTP client for the board-game services (Manhattan, Wind City).

It speaks the HTTP contract of ``docs/architecture.md`` and nothing else: no import
from ``services/`` or ``shared/``. Errors become :mod:`clients.cli.errors` exceptions.

>>> c = ManhattanClient()
>>> g = c.create(players=2)
>>> c.join(g["id"], "ann")  # keeps the seat token in ``c.token``
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from .chat_calls import ChatCalls
from .errors import ApiError
from .event_feed import OVER, TERMINAL_EVENTS, EventFeed, is_over, my_turn
from .transport import DEFAULT_URLS, GAMES, default_url

Json = dict[str, Any]


class GameClient(EventFeed, ChatCalls):
    """A client for one game service (``base_url`` defaults to the game's, see :func:`default_url`).

    ``token`` is the seat's bearer token (set by :meth:`join`), ``host_token`` the token
    that may start or cancel a game (set by :meth:`create`); every method takes a ``token=``
    to override them. ``language`` goes as ``Accept-Language`` (problems' words). GETs and
    moves are retried on connection errors and ``503`` (``Retry-After`` honoured, at most
    ``max_retries`` times, never waiting more than ``max_retry_wait`` seconds at once); a
    move's ``Idempotency-Key`` stays the same across its retries: no second move.
    """

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

    def export_me(self, player_key: str) -> Json:
        """``GET /players/me/export``: everything this service stores about the player
        (``{"player", "games": [...]}``; each service exports its own games)."""
        return self._get("/players/me/export", player_key)

    def delete_me(self, player_key: str) -> None:
        """``DELETE /players/me``: the player is erased (its key stops working)."""
        self._request("DELETE", "/players/me", token=player_key)

    def rematch(self, game_id: str, token: str | None = None) -> Json:
        """``POST /games/{id}/rematch`` with a seat token or player key: the next game
        (the same one for every player) → ``{"game_id", "host_token", "game"}``."""
        return self._request("POST", f"/games/{game_id}/rematch", token=token or self.token)

    def push_key(self) -> Json:
        """``GET /push/key``: ``{"public_key", "events"}`` (404 ``push-disabled``: no push)."""
        return self._get("/push/key")

    def push_settings(self, player_key: str, changes: Json | None = None) -> Json:
        """``GET`` (or, with ``changes``, ``PATCH``) ``/players/me/push``: the player's
        ``events``, ``quiet_hours``, ``time_zone``, ``language`` and ``subscriptions``."""
        if changes is None:
            return self._get("/players/me/push", player_key)
        return self._request("PATCH", "/players/me/push", token=player_key, json_body=changes)

    def remove_push_subscription(self, player_key: str, subscription_id: str) -> None:
        """``DELETE /players/me/push/subscriptions/{id}``: that device gets no more pushes."""
        path = f"/players/me/push/subscriptions/{subscription_id}"
        self._request("DELETE", path, token=player_key)

    def player(self, player_id: str) -> Json:
        """``GET /players/{id}``: a player's public profile ``{"id", "name", "ratings":
        {game: {"rating", "mu", "sigma", "ordinal", "games", "games_to_rank",
        "win_share"}}}``."""
        return self._get(f"/players/{player_id}")

    def leaderboard(self, limit: int | None = None, cursor: str | None = None) -> Json:
        """``GET /leaderboards/{game}``: one page ``{"game", "min_games", "entries":
        [{"rank", "player": {"id", "name"}, "rating", "ordinal", "mu", "sigma", "games",
        "win_share"}], "next_cursor"}`` of this service's game, best first."""
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
        bot (``random``, ``greedy``, ``medium`` or ``strong``) → ``{"seat", "token": None,
        "game"}``."""
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

    def hint(self, game_id: str, token: str | None = None) -> Json:
        """``POST /games/{id}/hint``: the bot's move for your seat (counts one hint) →
        ``{"move", "level", "seat", "used", "left", "version"}``."""
        return self._request("POST", f"/games/{game_id}/hint", token=token or self.token)

    def analysis(self, game_id: str) -> Json:
        """``GET /games/{id}/analysis``: the finished game's analysis, or the
        ``analysis-pending`` problem (202) while the worker makes it."""
        return self._get(f"/games/{game_id}/analysis")

    def log(self, game_id: str, token: str | None = None) -> Json:
        """``GET /games/{id}/log``: events, and moves + seed once the game is over."""
        return self._get(f"/games/{game_id}/log", token or self.token)


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
    "DEFAULT_URLS",
    "GAMES",
    "OVER",
    "TERMINAL_EVENTS",
    "ApiError",
    "GameClient",
    "ManhattanClient",
    "WindCityClient",
    "client_for",
    "default_url",
    "is_over",
    "my_turn",
]

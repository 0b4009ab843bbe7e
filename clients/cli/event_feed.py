"""Following a game as it moves (the service client's event methods, see
:mod:`clients.cli.client`): long-polls and the SSE stream, resumed from the last event
id seen after a dropped connection or a ``503``, and waiting for a seat's turn.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import requests

from .errors import ServiceUnavailable, TransportError, describe_transport, error_from_response
from .i18n import _
from .transport import Transport

Json = dict[str, Any]

CHAT_SEQ = 2**32
"""The first sequence number of a table chat message's event id (``<v>-<2**32 + j>``)."""
OVER = ("finished", "cancelled")
TERMINAL_EVENTS = ("game_finished", "game_cancelled")


def after_version(version: int | str) -> str:
    """The cursor after the game's events of ``version`` but before its chat messages: a
    bare version would skip the messages sent while the game stays at that version."""
    return f"{int(version)}-{CHAT_SEQ - 1}"


def is_over(view: Json) -> bool:
    """Whether a game view is finished or cancelled."""
    return view.get("status") in OVER


def my_turn(view: Json, seat: int | None = None) -> bool:
    """Whether ``seat`` (default: the view's ``you``) is among the seats to act."""
    seat = view.get("you") if seat is None else seat
    return seat is not None and seat in (view.get("to_act") or [])


class EventFeed(Transport):
    """The event methods of :class:`~clients.cli.client.GameClient`."""

    def view(
        self,
        game_id: str,
        token: str | None = None,
        spectator: bool = False,
        legal_moves: bool = False,
    ) -> Json:
        """``GET /games/{id}``: the game as this seat (or, with ``spectator``, anyone) sees it;
        with ``legal_moves`` also the seat's legal moves (``include=legal_moves``: one read).
        Here because the waits read it between events."""
        path = f"/games/{game_id}" + ("?include=legal_moves" if legal_moves else "")
        return self._get(path, None if spectator else (token or self.token))

    def events(
        self,
        game_id: str,
        after: str | int | None = None,
        wait: float | None = None,
        limit: int | None = None,
        token: str | None = None,
    ) -> Json:
        """``GET /games/{id}/events?after=&wait=``: ``{"events": [...], "last_id"}``.

        ``after`` is an event id (``"<version>-<n>"``) or a bare version (everything
        after that version). With ``wait`` the call long-polls: it returns as soon as an
        event newer than ``after`` exists, or empty after ``wait`` seconds. Not retried
        (callers resume from the last id they saw). Sent with ``token`` (default: the
        client's seat token, if any): a seat reads the table chat's messages among the
        events as it may (its mutes applied), and a game only its players may watch.
        """
        params: dict[str, Any] = {"after": None if after is None else str(after), "limit": limit}
        if wait:
            params["wait"] = int(wait) if float(wait).is_integer() else wait
        timeout = self.timeout + (float(wait) if wait else 0.0)
        path = f"/games/{game_id}/events"
        return self._request("GET", path, token=token or self.token, params=params, timeout=timeout)

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
                    params={
                        k: v
                        for k, v in (("after", last_id), ("watch", self.watch_code))
                        if v is not None
                    },
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
                    raise TransportError(
                        _("event stream of {game}: {detail}", game=game_id, detail=detail)
                    ) from exc
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
        # The first time, resume after the view's version (its game events; its chat
        # messages come again: the caller shows each once); then after the last id seen.
        cursor = after or after_version(view.get("version", 0))
        batches = self.event_batches(game_id, cursor, wait=poll_wait, deadline=deadline)
        try:
            while not (is_over(view) or my_turn(view, seat)):
                evs = next(b for b in batches if b)
                if on_events:
                    on_events(evs)
                view = fetch()
        except TimeoutError:
            raise TimeoutError(
                _("not our turn in {game} after {seconds}s", game=game_id, seconds=timeout)
            ) from None
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
                    raise TimeoutError(
                        _("no new event in {game} before the deadline", game=game_id)
                    )
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

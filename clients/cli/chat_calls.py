"""The table chat and the players' moderation through the HTTP API (a part of
:class:`~clients.cli.client.GameClient`): a game's messages, sending one (text or a
canned phrase), the phrases in the client's language, mutes, blocks and reports.
No import from ``services/`` or ``shared/``; errors are :mod:`clients.cli.errors`'.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .transport import Transport

Json = dict[str, Any]


class ChatCalls(Transport):
    """Chat and moderation calls; ``token`` is a seat token or a player key."""

    def chat(
        self,
        game_id: str,
        token: str | None = None,
        after: str | None = None,
        limit: int | None = None,
        channel: str | None = None,
    ) -> Json:
        """``GET /games/{id}/chat``: ``{"messages": [...], "last_id"}`` after ``after``,
        oldest first, as this reader may read them (mutes and blocks applied)."""
        params = {"after": after, "limit": limit, "channel": channel}
        return self._get(f"/games/{game_id}/chat", token, params=params)

    def chat_all(
        self, game_id: str, token: str | None = None, channel: str | None = None
    ) -> list[Json]:
        """Every message this reader may read, oldest first (page after page)."""
        out: list[Json] = []
        after: str | None = None
        while True:
            page = self.chat(game_id, token, after=after, limit=200, channel=channel)
            messages = page.get("messages") or []
            out += messages
            if len(messages) < 200 or not page.get("last_id"):
                return out
            after = page["last_id"]

    def say(
        self,
        game_id: str,
        text: str | None = None,
        phrase: str | None = None,
        token: str | None = None,
    ) -> Json:
        """``POST /games/{id}/chat`` with ``{"text"}`` or ``{"phrase"}``: the message sent."""
        body = {"phrase": phrase} if phrase else {"text": text}
        answer = self._request(
            "POST", f"/games/{game_id}/chat", token=token or self.token, json_body=body
        )
        return answer.get("message", answer)

    def phrases(self) -> list[Json]:
        """``GET /chat/phrases``: ``[{"code", "text"}]`` in the client's language."""
        return self._get("/chat/phrases").get("phrases", [])

    def mute(self, game_id: str, target: str, token: str | None = None, on: bool = True) -> Json:
        """``PUT`` (or, with ``on=False``, ``DELETE``) ``/games/{id}/chat/mutes/{target}``:
        ``target`` is a seat number, or ``player:<id>`` for a spectator."""
        path = f"/games/{game_id}/chat/mutes/{quote(target, safe=':')}"
        return self._request("PUT" if on else "DELETE", path, token=token or self.token)

    def block(self, player_id: str, player_key: str, on: bool = True) -> Json:
        """``PUT`` (or ``DELETE``) ``/players/me/blocks/{player_id}`` with the player key."""
        path = f"/players/me/blocks/{quote(player_id, safe='')}"
        return self._request("PUT" if on else "DELETE", path, token=player_key)

    def blocks(self, player_key: str) -> Json:
        """``GET /players/me/blocks``: the players this player blocked."""
        return self._get("/players/me/blocks", player_key)

    def report_message(
        self,
        game_id: str,
        message_id: str,
        reason: str,
        note: str | None = None,
        token: str | None = None,
    ) -> Json:
        """``POST /games/{id}/chat/{message_id}/report`` ``{"reason", "note"?}``."""
        body = {"reason": reason, **({"note": note} if note else {})}
        path = f"/games/{game_id}/chat/{quote(message_id, safe='')}/report"
        return self._request("POST", path, token=token or self.token, json_body=body)

    def report_player(
        self, player_id: str, reason: str, note: str | None = None, token: str | None = None
    ) -> Json:
        """``POST /players/{id}/report`` ``{"reason", "note"?}``."""
        body = {"reason": reason, **({"note": note} if note else {})}
        path = f"/players/{quote(player_id, safe='')}/report"
        return self._request("POST", path, token=token or self.token, json_body=body)

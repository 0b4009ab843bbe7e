"""The per-user token file: host and seat tokens of the games you created or joined,
and your player key (``boardgames register``).

Kept at ``$BOARDGAMES_HOME/tokens.json`` or ``~/.config/boardgames/tokens.json``,
mode 0600. Layout::

    {"manhattan": {"<game id>": {"url": ..., "host_token": ...,
                                 "seats": {"0": {"token": ..., "name": ...}}}},
     "last": {"manhattan": "<game id>"},
     "player": {"id": ..., "name": ..., "key": "bgp_...", "url": ...}}

A game record may also hold ``"invite"``, the invite code of an unlisted game you created.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def store_path() -> Path:
    """Where the token file lives."""
    home = os.environ.get("BOARDGAMES_HOME")
    base = Path(home) if home else Path.home() / ".config" / "boardgames"
    return base / "tokens.json"


class TokenStore:
    """Read-modify-write access to the token file (atomic replace, mode 0600)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or store_path()

    def load(self) -> dict[str, Any]:
        """The whole file as a dict (empty when missing or unreadable)."""
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, data: dict[str, Any]) -> None:
        """Write the file atomically with mode 0600."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens.")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, indent=2, sort_keys=True)
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        os.chmod(self.path, 0o600)

    def game(self, game: str, game_id: str) -> dict[str, Any]:
        """The stored record of one game (``{}`` if none)."""
        return self.load().get(game, {}).get(game_id, {})

    def _update(self, game: str, game_id: str, url: str | None, **fields: Any) -> None:
        data = self.load()
        rec = data.setdefault(game, {}).setdefault(game_id, {})
        if url:
            rec["url"] = url
        for key, value in fields.items():
            if key == "seat":
                seat, token, name = value
                rec.setdefault("seats", {})[str(seat)] = {"token": token, "name": name}
            else:
                rec[key] = value
        data.setdefault("last", {})[game] = game_id
        self.save(data)

    def add_host(self, game: str, game_id: str, host_token: str, url: str | None = None) -> None:
        """Remember the host token of a game you created."""
        self._update(game, game_id, url, host_token=host_token)

    def add_seat(
        self, game: str, game_id: str, seat: int, token: str, name: str, url: str | None = None
    ) -> None:
        """Remember the token of a seat you joined."""
        self._update(game, game_id, url, seat=(seat, token, name))

    def add_invite(self, game: str, game_id: str, code: str, url: str | None = None) -> None:
        """Remember the invite code of an unlisted game you created."""
        self._update(game, game_id, url, invite=code)

    def invite(self, game: str, game_id: str) -> str | None:
        """The invite code of an unlisted game you created (``None`` if none)."""
        return self.game(game, game_id).get("invite")

    def player(self) -> dict[str, Any] | None:
        """Your player ``{"id", "name", "key", "url", ...}`` (``None`` without one)."""
        rec = self.load().get("player")
        return rec if isinstance(rec, dict) and rec.get("key") else None

    def set_player(self, record: dict[str, Any]) -> None:
        """Remember your player (its key included); replaces any other."""
        data = self.load()
        data["player"] = record
        self.save(data)

    def forget_player(self) -> bool:
        """Forget your player; whether there was one."""
        data = self.load()
        had = data.pop("player", None) is not None
        if had:
            self.save(data)
        return had

    def host_token(self, game: str, game_id: str) -> str | None:
        """The host token of a game you created (``None`` if none)."""
        return self.game(game, game_id).get("host_token")

    def seats(self, game: str, game_id: str) -> dict[int, dict[str, str]]:
        """Your seats in a game: seat → ``{"token", "name"}``."""
        return {int(k): v for k, v in self.game(game, game_id).get("seats", {}).items()}

    def last_game(self, game: str) -> str | None:
        """The game id last created or joined for ``game``."""
        return self.load().get("last", {}).get(game)

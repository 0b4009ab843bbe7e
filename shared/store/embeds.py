"""The embeds' state in Redis, common to every service on one Redis (like the player
registry): the secret their tokens are signed with, when the ``EMBED_SECRET`` setting
leaves it to the service, and the one-use claims of the links.

- ``embed:secret``: 32 random bytes (hex), made by the first process that needs them
  (``SET NX``) and read by every other, so every worker and both services sign alike;
- ``embed:used:{<link id>}``: a link that was opened (``SET NX`` with the link's own
  lifetime left: it expires when the link would have).

May import the store's own modules and redis.
"""

from __future__ import annotations

import secrets
from typing import Any

SECRET_KEY = "embed:secret"


def used_key(link_id: str) -> str:
    return f"embed:used:{{{link_id}}}"


class EmbedLinks:
    """The embed secret and the links' one-use claims on one redis-py client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def secret(self) -> str:
        """The shared secret (hex), made now if nobody made it yet."""
        self.client.set(SECRET_KEY, secrets.token_hex(32), nx=True)
        return str(self.client.get(SECRET_KEY))

    def claim(self, link_id: str, seconds: int) -> bool:
        """Take the link ``link_id`` once: True the first time, False ever after (while
        the link could still be valid, ``seconds``)."""
        return bool(self.client.set(used_key(link_id), "1", nx=True, ex=max(1, seconds)))

    def used(self, link_id: str) -> bool:
        """Whether the link was taken already."""
        return bool(self.client.exists(used_key(link_id)))

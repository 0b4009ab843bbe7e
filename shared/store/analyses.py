"""Analyses of finished games (shared/bots/analysis.py): the queue of games to analyse,
the claim of the worker analysing one, and the stored analysis.

Keys (prefix ``p``): ``<p>:analysis:todo``, a sorted set of game ids by the time they
were queued; ``<p>:{<id>}:analysis:claim``, the claiming worker's token with a lease
(``SET NX PX``, renewed while it works; a killed worker's claim expires and another
worker takes the game); ``<p>:{<id>}:analysis``, the analysis as JSON, kept as long as
a finished game.
"""

from __future__ import annotations

import time
from typing import Any

RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'drop' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
"""


def todo_key(prefix: str) -> str:
    """The queue of games to analyse (a finishing game joins it with the status sets'
    round trip, shared/store/status.py)."""
    return f"{prefix}:analysis:todo"


class Analyses:
    """The analyses of one service's games."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self.prefix = prefix
        self.todo_key = todo_key(prefix)
        self._renew = client.register_script(RENEW)

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:analysis"

    def claim_key(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:analysis:claim"

    def enqueue(self, game_id: str) -> None:
        """Queue ``game_id`` for analysis (once: a queued game keeps its place)."""
        self.client.zadd(self.todo_key, {game_id: time.time()}, nx=True)

    def queued(self, game_id: str) -> bool:
        return self.client.zscore(self.todo_key, game_id) is not None

    def waiting(self, count: int) -> list[str]:
        """The oldest ``count`` queued game ids."""
        return [
            i.decode() if isinstance(i, bytes) else i
            for i in self.client.zrange(self.todo_key, 0, count - 1)
        ]

    def claim(self, game_id: str, token: str, lease_ms: int) -> bool:
        """Take ``game_id`` for ``lease_ms`` unless another worker holds it."""
        return bool(self.client.set(self.claim_key(game_id), token, nx=True, px=lease_ms))

    def renew(self, game_id: str, token: str, lease_ms: int) -> bool:
        """Extend our claim; ``False`` when it is no longer ours."""
        return bool(self._renew(keys=[self.claim_key(game_id)], args=[token, lease_ms]))

    def release(self, game_id: str, token: str) -> None:
        self._renew(keys=[self.claim_key(game_id)], args=[token, "drop"])

    def save(self, game_id: str, text: str, ttl: int) -> None:
        """Keep the analysis (the same game gives the same analysis: a second save of a
        racing worker writes the same text)."""
        self.client.set(self.key(game_id), text, ex=max(1, ttl))

    def load(self, game_id: str) -> str | None:
        found = self.client.get(self.key(game_id))
        return found.decode() if isinstance(found, bytes) else found

    def done(self, game_id: str) -> None:
        """Take ``game_id`` off the queue."""
        self.client.zrem(self.todo_key, game_id)

"""The table chat's long-poll (``GET /games/{id}/chat?wait=``): the messages a reader
reads after a cursor, waiting for the first when there are none yet. It waits on the
chat alone, so it also waits once the game is over, when the event stream has closed
(the after-game "gg"). A wait takes a slot of the process's :class:`WaitGate` like an
events long-poll.

May import ``shared.games``, ``shared.store`` and ``shared.ops`` (as events.py).
"""

from __future__ import annotations

import time
from contextlib import nullcontext

from shared.games import Games
from shared.games.chat import ChatReader
from shared.games.document import GameDoc
from shared.ops import metrics
from shared.store import Message
from shared.streaming.events import WaitGate


def chat_poll(
    games: Games,
    doc: GameDoc,
    view: ChatReader,
    channel: str | None,
    after: str,
    limit: int,
    wait: float,
    gate: WaitGate | None = None,
    address: str = "",
) -> list[Message]:
    """Up to ``limit`` messages ``view``'s reader reads after ``after`` (of
    ``channel``); when there are none, waits up to ``wait`` seconds for the first (in a
    slot of ``gate``, for ``address``). Messages it does not read never end a wait."""
    found, cursor = games.chat.page(doc, view, channel, after, limit)
    if found or wait <= 0:
        return found
    ends = time.monotonic() + wait
    with metrics.waiting("long-poll"), gate.enter(address) if gate else nullcontext():
        while not found:
            left = int((ends - time.monotonic()) * 1000)
            if left <= 0 or not games.store.chat_wait(doc["id"], cursor, left):
                break
            found, cursor = games.chat.page(doc, view, channel, cursor, limit)
    return found

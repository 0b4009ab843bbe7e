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
from shared.games.chat import ChatReader, visible_version
from shared.games.document import GameDoc
from shared.games.errors import GameError
from shared.ops import metrics
from shared.store import Message, normalize_after
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
    slot of ``gate``, for ``address``). Messages it does not read never end a wait; a
    delayed spectator's wait wakes when the game moves its cut."""
    found, cursor = games.chat.page(doc, view, channel, after, limit)
    if found or wait <= 0:
        return found
    ends = time.monotonic() + wait
    with metrics.waiting("long-poll"), gate.enter(address) if gate else nullcontext():
        while not found:
            left = int((ends - time.monotonic()) * 1000)
            if left <= 0 or not _woken(games, doc, view, cursor, left):
                break
            if view.cut is not None:  # a delayed reader: the game moved, its cut too
                try:
                    doc = games.writes.load(doc["id"])
                except GameError:  # gone meanwhile
                    break
                view.cut = visible_version(view.reader, doc)
            found, cursor = games.chat.page(doc, view, channel, cursor, limit)
    return found


def _woken(games: Games, doc: GameDoc, view: ChatReader, cursor: str, block_ms: int) -> bool:
    """Wait up to ``block_ms`` for what may bring the reader a message: a new one, or
    for a delayed reader the game's next write (which moves its cut); whether it came."""
    if view.cut is None:
        return games.store.chat_wait(doc["id"], cursor, block_ms)
    after = normalize_after(str(doc["version"]))  # (after every event of this version)
    return bool(games.store.events(doc["id"], after, 1, block_ms))

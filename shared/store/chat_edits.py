"""What moderation reads of a game's chat stream (shared/store/chat.py keeps it): a
message with the ones around it (a report's context). An operator's deletion is the
chat's own rewrite (:meth:`ChatStore.rewrite_chat`: the stream written again with every
id kept, so the text leaves Redis and every read serves the placeholder).

May import the store's own modules (chat, layout).
"""

from __future__ import annotations

from typing import Any

from shared.store.chat import Message, message_of
from shared.store.layout import Layout


class ChatEdits(Layout):
    """The moderation part of :class:`shared.store.gamestore.GameStore`'s chat."""

    client: Any

    def chat_around(
        self, game_id: str, message_id: str, each_side: int
    ) -> tuple[Message | None, list[Message]]:
        """The message ``message_id`` (``None``: not in the stream) and up to
        ``each_side`` messages before and after it, in order, itself included."""
        chat_key = self.chat_keys(game_id)[0]
        pipe = self.client.pipeline(transaction=False)
        pipe.xrevrange(chat_key, message_id, "-", count=each_side + 1)
        pipe.xrange(chat_key, f"({message_id}", "+", count=each_side)
        before, after = pipe.execute()
        around = [message_of(i, f) for i, f in [*reversed(before), *after]]
        found = next((m for m in around if m["id"] == message_id), None)
        return found, around if found is not None else []

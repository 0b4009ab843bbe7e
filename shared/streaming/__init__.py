"""The event stream to clients: long-poll and Server-Sent Events over a game's Redis
stream (``events``).

May import ``shared.games`` (terminal events, statuses, and the events a capped stream
no longer holds, rebuilt), ``shared.store`` and ``shared.ops``; the HTTP layer mounts it
and turns its refusals into problem answers."""

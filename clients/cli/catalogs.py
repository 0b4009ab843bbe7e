"""The CLI's message catalogs (``locales/``): what the code marks, and what they lack.

Babel's extractor reads the sources (nothing is imported) for every ``_("...")``,
``N_("...")`` and ``ngettext("...", "...", n)`` with literal text, into
``locales/boardgames.pot``; ``scripts/i18n.py extract`` writes it and merges it into
each language's ``.po``, ``scripts/i18n.py check`` (and ``tests/cli/test_languages.py``)
fails on a stale ``.pot``, a msgid a language lacks, leaves empty or marks fuzzy, and a
translation whose ``{fields}`` differ from its msgid's. Only the tools use this module.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LANGUAGES, LOCALES, catalog_path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parents[1]
POT = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
FIELDS = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")


def fields_of(text: str) -> set[str]:
    """The ``{name}`` fields of a msgid or msgstr."""
    return {match.group(1) for match in FIELDS.finditer(text)}


def template_catalog() -> Catalog:
    """The ``.pot`` of every text the code marks (``#:`` lines say where)."""
    pot = Catalog(project="boardgames", version="", charset="utf-8", fuzzy=False, domain=DOMAIN)
    found = extract_from_dir(
        PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
    )
    for filename, lineno, message, comments, _context in found:
        where = (str((PACKAGE / filename).relative_to(ROOT)), lineno)
        texts = message if isinstance(message, tuple) else (message,)
        flags = ("python-brace-format",) if any(fields_of(t) for t in texts) else ()
        known = pot.get(message if isinstance(message, str) else message[0])
        if known is not None:
            known.locations.append(where)
            continue
        pot.add(message, locations=[where], flags=flags, auto_comments=comments)
    return pot


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=language, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as po:
        write_po(po, catalog, width=100, sort_output=True, include_lineno=False)


def merge(language: str, pot: Catalog) -> Catalog:
    """``language``'s catalog updated to ``pot``: a new msgid comes in untranslated, a gone
    one goes, every translation stays."""
    path = catalog_path(language)
    if path.exists():
        catalog = read(path, language)
    else:
        catalog = Catalog(
            locale=language,
            domain=DOMAIN,
            header_comment="",
            project="boardgames",
            version="0.1.0",
            last_translator="boardgames <boardgames@localhost>",
            language_team=language,
            fuzzy=False,
        )
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return catalog


def untranslated(catalog: Catalog, pot: Catalog) -> list[str]:
    """The msgids of ``pot`` that ``catalog`` lacks, leaves empty or marks fuzzy, and the
    translations whose fields differ from their msgid's."""
    failures = []
    for wanted in pot:
        if not wanted.id:
            continue
        key = wanted.id if isinstance(wanted.id, str) else wanted.id[0]
        have = catalog.get(key)
        strings = () if have is None else have.string
        strings = (strings,) if isinstance(strings, str) else tuple(strings or ())
        if have is None or have.fuzzy or not strings or not all(strings):
            failures.append(f"untranslated: {key!r}")
            continue
        if not isinstance(wanted.id, str) and len(strings) != catalog.num_plurals:
            failures.append(f"{len(strings)} plural forms, not {catalog.num_plurals}: {key!r}")
        ids = (wanted.id,) if isinstance(wanted.id, str) else tuple(wanted.id)
        fields = set().union(*(fields_of(i) for i in ids))
        for string in strings:
            if fields_of(string) != fields:
                failures.append(f"fields {sorted(fields_of(string))} not {sorted(fields)}: {key!r}")
    return failures


def problems() -> list[str]:
    """What ``scripts/i18n.py check`` fails on for the CLI: a stale ``.pot``, and per
    language every msgid untranslated, fuzzy or with other ``{fields}`` than its msgid's."""
    pot = template_catalog()
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in pot if m.id}
    stored = {m.id if isinstance(m.id, str) else m.id[0] for m in read(POT) if m.id}
    failures = [f"not in {POT.name}: {text!r}" for text in sorted(map(str, wanted - stored))]
    failures += [f"gone from the code: {text!r}" for text in sorted(map(str, stored - wanted))]
    if failures:
        failures.append("run: python scripts/i18n.py extract")
    for language in LANGUAGES[1:]:
        path = catalog_path(language)
        catalog = read(path, language) if path.exists() else Catalog(locale=language)
        failures += [f"{language}: {p}" for p in untranslated(catalog, pot)]
    return failures

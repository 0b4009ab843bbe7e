"""The message catalogs of the API (shared/i18n/locales) and of the CLI
(clients/cli/locales): ``extract`` and ``check``.

``python scripts/i18n.py extract`` reads the sources for every problem title and detail
template (shared/i18n/extract.py), writes ``locales/messages.pot`` and merges it into each
language's ``messages.po``: a new msgid comes in untranslated, a gone one goes, every
translation stays. A catalog whose only change would be its dates (``POT-Creation-Date``,
``PO-Revision-Date``) or its wrapping is left as it is, so running it twice changes
nothing. Translate the new entries (a translator needs only the ``.po``), then
``python scripts/i18n.py check``: it fails (exit 1) on a stale ``.pot``, a detail built
with an f-string, or a msgid a language lacks (``tests/kit/test_languages.py`` runs the
same check). The service reads the ``.po`` files at start; nothing is compiled.

The CLI's catalogs go the same way: every ``_()``, ``N_()`` and ``ngettext()`` text in
``clients/cli`` (clients/cli/catalogs.py) into ``locales/boardgames.pot`` and each
language's ``boardgames.po``; ``check`` covers them too (``tests/cli/test_languages.py``
runs the same check). The CLI reads a ``.po`` when its language is chosen.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clients.cli import catalogs as cli  # noqa: E402
from clients.cli import i18n as cli_i18n  # noqa: E402
from shared.i18n import LANGUAGES, catalog_path  # noqa: E402
from shared.i18n.extract import POT, problems, read, scan, template_catalog, write  # noqa: E402

DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): [^"]*"$', re.MULTILINE)
"""The header lines a catalog's writer re-dates every time."""


def _rendered(writer: Callable[[Path, Catalog], None], catalog: Catalog, name: str) -> bytes:
    """``catalog`` as ``writer`` writes it."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / name
        writer(fresh, catalog)
        return fresh.read_bytes()


def save(writer: Callable[[Path, Catalog], None], path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` to ``path`` with ``writer`` unless the file already holds the
    same catalog (its dates and line wrapping aside); whether it wrote."""
    text = _rendered(writer, catalog, path.name)
    if path.exists():
        with path.open("rb") as stored:
            old = read_po(stored, locale=catalog.locale, domain=catalog.domain)
        if DATES.sub(b"", _rendered(writer, old, path.name)) == DATES.sub(b"", text):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return True


def _save(writer: Callable[[Path, Catalog], None], path: Path, catalog: Catalog) -> None:
    where = path.relative_to(ROOT)
    wrote = save(writer, path, catalog)
    print(f"wrote {where}: {len(catalog)} messages" if wrote else f"{where}: unchanged")


def extract() -> None:
    found = scan()
    pot = template_catalog(found)
    _save(write, POT, pot)
    for language in LANGUAGES[1:]:
        path = catalog_path(language)
        catalog = read(path, language)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _save(write, path, catalog)
    for where in found.fstrings:
        print(f"{where}: a detail built with an f-string; pass its values as parameters")
    extract_cli()


def extract_cli() -> None:
    pot = cli.template_catalog()
    _save(cli.write, cli.POT, pot)
    for language in cli_i18n.LANGUAGES[1:]:
        path = cli_i18n.catalog_path(language)
        _save(cli.write, path, cli.merge(language, pot))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("extract", "check"))
    args = parser.parse_args()
    if args.command == "extract":
        extract()
        return
    found = problems() + cli.problems()
    for problem in found:
        print(problem)
    if found:
        sys.exit(1)
    print("catalogs complete")


if __name__ == "__main__":
    main()

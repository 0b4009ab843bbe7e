"""``scripts/i18n.py extract`` rewrites a catalog only when it changed: a catalog that
differs from its file only in its dates (``POT-Creation-Date``) or its wrapping is left
untouched, one with a new message is written."""

from __future__ import annotations

import datetime
from pathlib import Path

from babel.messages.catalog import Catalog

from scripts.i18n import save
from shared.i18n.extract import write


def _catalog(day: int, *texts: str) -> Catalog:
    created = datetime.datetime(2026, 11, day, 12, 0, tzinfo=datetime.UTC)
    catalog = Catalog(locale="de", domain="messages", creation_date=created, fuzzy=False)
    for text in texts:
        catalog.add(text, f"übersetzt: {text}", locations=[("shared/x.py", 0)])
    return catalog


def test_a_catalog_changed_only_in_its_dates_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "messages.po"
    assert save(write, path, _catalog(1, "Game over."))
    before = path.read_bytes()
    assert b"POT-Creation-Date: 2026-11-01" in before
    assert not save(write, path, _catalog(2, "Game over."))
    assert path.read_bytes() == before


def test_a_catalog_wrapped_by_hand_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "messages.po"
    long = "A detail long enough to be wrapped over two lines by the writer, " * 2
    save(write, path, _catalog(1, long))
    wrapped = 'msgstr ""\n"übersetzt'.encode()
    assert wrapped in path.read_bytes()
    rewrapped = path.read_bytes().replace(wrapped, 'msgstr "übersetzt'.encode())
    path.write_bytes(rewrapped)
    assert not save(write, path, _catalog(2, long))
    assert path.read_bytes() == rewrapped


def test_a_catalog_with_a_new_message_is_written(tmp_path: Path) -> None:
    path = tmp_path / "messages.po"
    save(write, path, _catalog(1, "Game over."))
    assert save(write, path, _catalog(2, "Game over.", "Not your turn."))
    text = path.read_text(encoding="utf-8")
    assert 'msgid "Not your turn."' in text
    assert "POT-Creation-Date: 2026-11-02" in text

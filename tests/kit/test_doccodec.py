"""Stored game documents: compressed behind a plain head, older plain ones still read."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

from shared.store import document_codec as doccodec
from shared.store import jsoncodec, load_doc
from tests.kit.helpers import auth, started_game


def _doc(**extra: Any) -> dict[str, Any]:
    return {
        "version": 12,
        "events_from": 9,
        "id": "0123456789abcdef",
        "status": "running",
        "players": [{"seat": 0, "name": "Zoë 🎲", "token_hash": "ab" * 32}],
        "state": {"rng": 2**64 - 1, "huge": 2**70, "houses": {"B18": [1, 1, False]}},
        **extra,
    }


def test_a_document_round_trips_behind_a_plain_head() -> None:
    doc = _doc()
    text = doccodec.pack(doc)
    assert re.match(r'^\{"version":12,"events_from":9,"z":"1:[A-Za-z0-9+/=]+"\}$', text)
    assert doccodec.unpack(text) == doc
    assert list(doccodec.unpack(text)) == list(doc)  # the head first, then in order


def test_the_head_wins_as_the_write_script_edits_it() -> None:
    text = doccodec.pack(_doc())  # remembered: read back without decompressing
    raised = text.replace('"events_from":9,', '"events_from":11,', 1)
    assert doccodec.unpack(raised)["events_from"] == 11
    doccodec._recent.clear()  # another process wrote it
    assert doccodec.unpack(raised) == _doc(events_from=11)


def test_recent_documents_are_remembered_by_content_and_bounded() -> None:
    doccodec._recent.clear()
    docs = [_doc(n=n) for n in range(doccodec._RECENT_MAX + 10)]
    texts = [doccodec.pack(d) for d in docs]
    assert len(doccodec._recent) == doccodec._RECENT_MAX
    assert [doccodec.unpack(t) for t in texts] == docs  # the oldest 10 decompressed again
    assert len(doccodec._recent) == doccodec._RECENT_MAX


def test_a_document_without_events_from_keeps_its_version_first() -> None:
    doc = _doc()
    del doc["events_from"]
    text = doccodec.pack(doc)
    assert text.startswith('{"version":12,"z":"1:')
    assert doccodec.unpack(text) == doc


def test_plain_documents_and_other_dictionaries_still_read(monkeypatch) -> None:
    doc = _doc()
    assert doccodec.unpack(jsoncodec.dumps_text(doc)) == doc  # written before packing
    monkeypatch.setattr(doccodec, "CURRENT", 0)  # no dictionary
    text = doccodec.pack(doc)
    assert text.startswith('{"version":12,"events_from":9,"z":"0:')
    monkeypatch.undo()
    assert doccodec.unpack(text) == doc


def test_callers_one_after_another_share_one_compressor() -> None:
    """(gevent's ``threading.local`` is per greenlet, i.e. per connection: one
    compressor each, each with its own tables, would pile up.)"""
    doccodec._idle.clear()
    doccodec._recent.clear()

    def round_trip(n: int) -> None:
        text = doccodec.pack(_doc(n=n))
        doccodec._recent.clear()  # so that unpack decompresses
        assert doccodec.unpack(text) == _doc(n=n)

    for n in range(20):
        t = threading.Thread(target=round_trip, args=(n,))
        t.start()
        t.join()
    assert [len(doccodec._idle[k]) for k in sorted(doccodec._idle)] == [1, 1]


def test_threads_each_pack_their_own() -> None:
    docs = [_doc(n=n, filler="x" * n) for n in range(200)]
    out: dict[int, list[str]] = {}

    def pack_all(k: int) -> None:
        out[k] = [doccodec.pack(d) for d in docs]

    threads = [threading.Thread(target=pack_all, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for texts in out.values():
        assert [doccodec.unpack(t) for t in texts] == docs


@pytest.mark.parametrize("players", [2, 4])
def test_the_stored_game_is_packed_and_the_dictionary_pays(
    toy_client, redis_client, monkeypatch, players
):
    game_id, host, tokens = started_game(toy_client, players)
    raw = redis_client.get(f"toy:{{{game_id}}}:game")
    doc = load_doc(raw)
    assert raw.startswith(f'{{"version":{doc["version"]},"events_from":{doc["events_from"]},')
    assert doc["id"] == game_id and len(doc["players"]) == players
    plain = jsoncodec.dumps_text(doc)
    assert len(raw) < 0.6 * len(plain)
    monkeypatch.setattr(doccodec, "CURRENT", 0)
    assert len(raw) < 0.8 * len(doccodec.pack(doc))  # the dictionary's part
    monkeypatch.undo()
    # the service reads it back: the seat's view and a move work on the packed document
    r = toy_client.get(f"/games/{game_id}", headers=auth(tokens[0]))
    assert r.status_code == 200 and r.get_json()["version"] == doc["version"]

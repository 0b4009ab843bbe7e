"""shared/store/jsoncodec.py: orjson's bytes where it can, the standard library's where
it cannot."""

from __future__ import annotations

import json

import pytest

from shared.store import jsoncodec


def _stdlib(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "value",
    [
        {"id": "g1", "players": [{"seat": 0, "name": "Zoë 李", "bot": None}], "ok": True},
        [1, -2, 2**63 - 1, "\u2028", 'quote " and \\ slash'],
        {"big": 2**70, "neg": -(2**80)},  # past 64 bits: the fallback
        {1: "a", 2: ["b"]},  # non-string keys: the fallback, as json writes them
    ],
)
def test_dumps_writes_what_json_writes(value: object) -> None:
    assert jsoncodec.dumps(value) == _stdlib(value)
    assert jsoncodec.dumps_text(value) == _stdlib(value).decode()


def test_a_lone_surrogate_does_not_fail() -> None:
    assert json.loads(jsoncodec.dumps({"s": "\ud800"}).decode("utf-8", "surrogatepass")) == {
        "s": "\ud800"
    }


def test_loads_reads_what_dumps_wrote_and_refuses_invalid_json() -> None:
    value = {"n": 2**70, "s": "é", "l": [None, True, 1.5]}
    assert jsoncodec.loads(jsoncodec.dumps(value)) == value
    assert jsoncodec.loads('{"a": 1}') == {"a": 1}
    with pytest.raises(ValueError):
        jsoncodec.loads(b"{not json")


def test_default_converts_other_types() -> None:
    class Thing:
        pass

    assert jsoncodec.dumps({"t": Thing()}, default=lambda _: "thing") == b'{"t":"thing"}'
    with pytest.raises(TypeError):
        jsoncodec.dumps({"t": Thing()})

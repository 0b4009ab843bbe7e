"""shared/http/jsonbody.py: ``loads`` parses the usual body with orjson and any other
with ``json.loads`` and the strict hooks; either way the answer (a value, or a refusal)
is what ``json.loads`` with the hooks alone gives, for random bodies of every kind."""

from __future__ import annotations

import json
import random
from typing import Any

from shared.http import jsonbody

PIECES = ['"a"', '"b"', '"\\u00e9"', '"x\\"y"', '"\\ud800"', '"C7"', '""', '"a:b"', '"\u2028"']
NUMBERS = ["0", "-0", "7", "-12", "1.5", "1e400", "-2.0e-3", "18446744073709551615"]
NUMBERS += ["18446744073709551616", "-9223372036854775809", "123456789012345678901", "01"]
WORDS = ["true", "false", "null", "NaN", "Infinity", "-Infinity"]


def _value(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if depth < 4 and roll < 0.25:
        keys = [rng.choice(PIECES) for _ in range(rng.randint(0, 4))]
        return "{" + ",".join(f"{k}:{_value(rng, depth + 1)}" for k in keys) + "}"
    if depth < 4 and roll < 0.45:
        return "[" + ",".join(_value(rng, depth + 1) for _ in range(rng.randint(0, 4))) + "]"
    return rng.choice([*PIECES, *NUMBERS, *WORDS])


def _reference(text: str) -> Any:
    """What ``json.loads`` with jsonbody's hooks gives: a value, or the kind of refusal."""
    try:
        return (
            "value",
            repr(
                json.loads(
                    text,
                    parse_int=jsonbody._parse_int,
                    parse_constant=jsonbody._parse_constant,
                    object_pairs_hook=jsonbody._unique_keys,
                )
            ),
        )
    except json.JSONDecodeError:
        return ("refused",)
    except ValueError:  # the hooks' refusals, which loads words as InvalidJSON
        return ("refused",)


def _loads(text: str) -> Any:
    try:
        return ("value", repr(jsonbody.loads(text)))
    except json.JSONDecodeError:
        return ("refused",)


def test_loads_answers_as_json_loads_with_the_hooks_would():
    rng = random.Random(11)
    fast = 0
    for _ in range(20000):
        text = _value(rng, 0)
        if rng.random() < 0.1:
            text = rng.choice([" ", "\t", "\ufeff", ""]) + text + rng.choice(["", " ", ",", "]"])
        assert _loads(text) == _reference(text), text
        fast += "\\" not in text
    assert fast > 5000


def test_a_move_body_parses_to_the_same_value_and_key_order():
    body = '{"type":"plan","actions":[1,3],"kauf":null,"renew":["A1","C7"]}'
    loaded = jsonbody.loads(body)
    assert loaded == json.loads(body) and list(loaded) == ["type", "actions", "kauf", "renew"]

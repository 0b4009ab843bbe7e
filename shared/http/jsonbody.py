"""Reading and parsing request bodies strictly: hostile input is a 4xx, never a 5xx.

Python's ``json`` accepts what a hostile client can turn into a 500 or a silent surprise:
nesting deep enough to exhaust the recursion limit, integers past the 4300-digit
int-from-string limit (``ValueError``), ``NaN``/``Infinity``, and duplicate keys where
the last one silently wins. Here the first three and duplicates are invalid JSON
(``400 invalid-json``); an integer too long to be any accepted value parses to a
:class:`HugeInt` that no schema field accepts (``422 validation-error``).

Chunked bodies (no ``Content-Length``) are read up to ``MAX_CONTENT_LENGTH`` plus one
byte, so one too large is a ``413`` (werkzeug silently truncates them), and a malformed
or truncated chunk, which gunicorn reports while the body is read, is a
``400 malformed-request``.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from json.decoder import scanstring  # type: ignore[attr-defined]  # (C speed, untyped)
from typing import Any, cast

import orjson
from flask import Request
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import RequestEntityTooLarge

from shared.http.errors import ApiError

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (every request needs 3 at most)."""
MAX_INT_DIGITS = 20
"""Longer integers (sign excluded) exceed 64 bits, and every integer field is smaller."""

_BRACKETS = re.compile(r"[\[\]{}]+")
_ONE_KIND = str.maketrans("{}", "[]")
_DEPTH_STEP = {"[": 1, "]": -1}
_OPENER_RUN = re.compile(r"[\[{]{" + str(MAX_DEPTH + 1) + "}")
_CACHE = "boardgames.body"


class InvalidJSON(json.JSONDecodeError):
    """A body that is JSON to Python but not to this API (the message says why)."""


class HugeInt:
    """An integer literal of more than :data:`MAX_INT_DIGITS` digits, kept unconverted:
    an object no schema field accepts, so it ends in a 422 naming the field."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<integer of {self.digits} digits>"


def _outside_strings(text: str) -> str:
    """``text`` without its string literals (skipped by json's own C scanner, one loop
    iteration per string, never a regex that could backtrack on an unterminated one)."""
    if '"' not in text:
        return text
    pieces = []
    pos = 0
    while (quote := text.find('"', pos)) >= 0:
        pieces.append(text[pos:quote])
        try:
            _, pos = scanstring(text, quote + 1)
        except json.JSONDecodeError as error:  # an unterminated string: not JSON
            raise InvalidJSON(error.msg, text, error.pos) from error
    pieces.append(text[pos:])
    return "".join(pieces)


def _check_depth(text: str) -> None:
    """Raise :class:`InvalidJSON` when arrays/objects nest deeper than :data:`MAX_DEPTH`.

    Iterative (no recursion to blow up), and at C speed but for one step per string:
    on the brackets outside strings, each pass drops the innermost pairs,
    so a pair left after MAX_DEPTH passes nests deeper. Brackets left without a pair
    (unbalanced: invalid JSON anyway) are measured by a running sum. Free for the
    usual body, which has too few brackets to nest that deep.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    # One kind of bracket: depth ignores kinds (json.loads judges the pairing), and one
    # str.replace per pass drops exactly one level (two replaces in a row would cascade).
    brackets = "".join(_BRACKETS.findall(_outside_strings(text))).translate(_ONE_KIND)
    too_deep = InvalidJSON(f"nested deeper than {MAX_DEPTH} levels", text, 0)
    if _OPENER_RUN.search(brackets):
        raise too_deep
    for _ in range(MAX_DEPTH):
        reduced = brackets.replace("[]", "")
        if len(reduced) == len(brackets):
            break
        brackets = reduced
    else:
        if "[]" in brackets:
            raise too_deep
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH:
        raise too_deep


def _parse_int(literal: str) -> int | HugeInt:
    digits = len(literal) - literal.startswith("-")
    return HugeInt(digits) if digits > MAX_INT_DIGITS else int(literal)


def _parse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


_DECODER = json.JSONDecoder(
    parse_int=_parse_int, parse_constant=_parse_constant, object_pairs_hook=_unique_keys
)
# Without a run of more digits than any integer may have, every integer literal is short:
# ``int`` parses it as _parse_int would, without a Python call per literal.
_SHORT_INTS_DECODER = json.JSONDecoder(
    parse_constant=_parse_constant, object_pairs_hook=_unique_keys
)
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_INT_DIGITS + 1}}}")


def _strings(value: Any) -> int:
    """How many strings (keys included) ``value`` holds; -1 if it holds a float."""
    kind = type(value)
    if kind is str:
        return 1
    if kind is float:
        return -1
    if kind is list or kind is dict:
        count = len(value) if kind is dict else 0
        for item in value.values() if kind is dict else value:
            found = 1 if type(item) is str else 0 if type(item) is int else _strings(item)
            if found < 0:
                return -1
            count += found
        return count
    return 0


def loads(text: str) -> Any:
    """Parse a request body: RFC 8259 JSON, bounded depth, unique keys. Raises
    :class:`json.JSONDecodeError` (an :class:`InvalidJSON` for our own refusals).

    The usual body (no escape, no number but 64-bit integers) is parsed by orjson, whose
    answer is then exactly ``json.loads``': every ``"`` in a body without an escape
    delimits a string, so a key orjson dropped as a duplicate shows as a missing pair
    (and orjson refuses a BOM, NaN and Infinity, and makes a longer integer a float).
    Any other body: ``json.loads`` with the hooks above, by decoders made once."""
    _check_depth(text)
    if "\\" not in text:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            if 2 * _strings(value) == text.count('"'):
                return value
    if text.startswith("\ufeff"):  # as json.loads
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    decoder = _DECODER if _LONG_DIGITS.search(text) else _SHORT_INTS_DECODER
    try:
        return decoder.decode(text)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as error:  # raised by the hooks above
        raise InvalidJSON(str(error), text, 0) from error


def keep_body(environ: dict[str, Any], data: bytes) -> None:
    """Keep a body read before Flask's request existed (shared/http/fastpath.py), where
    :func:`read_body` finds it."""
    environ[_CACHE] = data


def read_body(request: Request) -> bytes:
    """The request body; a chunked one is bounded by ``MAX_CONTENT_LENGTH`` (413 above
    it), and a malformed one is a 400 instead of gunicorn's exception."""
    environ = request.environ
    if _CACHE in environ:
        return cast(bytes, environ[_CACHE])
    limit = request.max_content_length
    try:
        if request.content_length is not None or limit is None:
            data = request.get_data(cache=True)
        elif "wsgi.input_terminated" not in environ:
            data = request.get_data(cache=True)  # werkzeug reads nothing: no length
        else:
            data = environ["wsgi.input"].read(limit + 1)
    except (ParseException, NoMoreData) as error:
        raise ApiError(
            400, "malformed-request", "The request body's chunked encoding is malformed."
        ) from error
    if limit is not None and len(data) > limit:
        raise RequestEntityTooLarge()
    environ[_CACHE] = data
    return data

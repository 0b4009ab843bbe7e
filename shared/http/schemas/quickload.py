"""A move schema's load, done straight from the schema's own declarations when the body
is a plain valid one: marshmallow's field-by-field machinery costs a tenth of a move's
CPU, and nearly every body sent is valid.

:func:`quick_loader` reads a schema's fields and validators once and returns a function
that loads ``data`` exactly as ``schema.load(data)`` would, or returns :data:`UNSURE`
for anything it does not see to be valid, and then marshmallow's load decides (and words
any error). It knows only what moves are made of: the kit's strict :class:`Int`,
``String``, ``List`` of those, ``allow_none`` and ``load_default``, and the validators
``Range``, ``Length``, ``Equal``, ``OneOf`` and ``Regexp``; a schema with anything
else (another field, validator, hook, ``data_key``...) gets no quick loader.
``tests/kit/test_quickload.py`` compares the two loads over whole games and altered bodies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import RAISE, Schema, fields, missing, validate

from shared.http.schemas.fields import Int

UNSURE: Any = object()
"""What a quick loader returns when marshmallow's own load must decide."""

Check = Callable[[Any], Any]
"""A field's value as its load returns it, or :data:`UNSURE`."""


def quick_loader(schema: Schema) -> Callable[[Any], Any] | None:
    """The quick load of ``schema`` (see the module doc), or ``None`` if it has
    something the quick load does not know."""
    if any(schema._hooks.values()) or schema.unknown != RAISE or schema.many or schema.partial:
        return None
    if schema.dict_class is not dict:
        return None
    plan: list[tuple[str, bool, Any, Check]] = []
    for name, field in schema.load_fields.items():
        check = _field_check(field)
        if check is None or field.data_key is not None or field.attribute is not None:
            return None
        plan.append((name, field.required, field.load_default, check))
    names = frozenset(schema.load_fields)

    def load(data: Any) -> Any:
        if type(data) is not dict or not names.issuperset(data):
            return UNSURE
        loaded = {}
        for name, required, default, check in plan:
            if name in data:
                value = check(data[name])
                if value is UNSURE:
                    return UNSURE
                loaded[name] = value
            elif required:
                return UNSURE
            elif default is not missing:
                loaded[name] = default() if callable(default) else default
        return loaded

    return load


def _field_check(field: fields.Field[Any]) -> Check | None:
    kind = type(field)
    if isinstance(field, fields.List) and kind is fields.List:
        inner = _field_check(field.inner)
        return None if inner is None else _nullable(field, _list_check(inner, field))
    if kind not in (Int, fields.String):
        return None
    value_type = int if kind is Int else str
    passes = _tests(field)
    if passes is None:
        return None

    if len(passes) == 1:  # the usual field: one test, checked without a loop
        test = passes[0]

        def check(value: Any) -> Any:
            return value if type(value) is value_type and test(value) else UNSURE

    else:

        def check(value: Any) -> Any:
            if type(value) is not value_type:
                return UNSURE
            for test in passes:
                if not test(value):
                    return UNSURE
            return value

    return _nullable(field, check)


def _list_check(inner: Check, field: fields.List[Any]) -> Check | None:
    passes = _tests(field)
    if passes is None:
        return None

    def check(value: Any) -> Any:
        if type(value) is not list:
            return UNSURE
        items = [inner(item) for item in value]
        if UNSURE in items:
            return UNSURE
        for test in passes:
            if not test(items):
                return UNSURE
        return items

    return check


def _tests(field: fields.Field[Any]) -> tuple[Callable[[Any], bool], ...] | None:
    """The field's validators as tests (``None`` if one is not known)."""
    tests = tuple(_validator_test(v) for v in field.validators)
    return None if None in tests else tests  # type: ignore[return-value]


def _nullable(field: fields.Field[Any], check: Check | None) -> Check | None:
    if check is None or not field.allow_none:
        return check
    return lambda value: None if value is None else check(value)


def _validator_test(validator: Any) -> Callable[[Any], bool] | None:
    """``validator``'s verdict as a test that never raises (``None``: not one known)."""
    kind = type(validator)
    if kind is validate.Range:
        low, high = validator.min, validator.max
        low_in, high_in = validator.min_inclusive, validator.max_inclusive
        if low is not None and high is not None and low_in and high_in:
            return lambda v: low <= v <= high
        return lambda v: (
            (low is None or (low <= v if low_in else low < v))
            and (high is None or (v <= high if high_in else v < high))
        )
    if kind is validate.Length:
        low, high, equal = validator.min, validator.max, validator.equal
        if equal is not None:
            return lambda v: len(v) == equal
        return lambda v: (low is None or len(v) >= low) and (high is None or len(v) <= high)
    if kind is validate.Equal:
        comparable = validator.comparable
        return lambda v: v == comparable
    if kind is validate.OneOf:
        choices = validator.choices
        return lambda v: v in choices
    if kind is validate.Regexp:
        regex = validator.regex
        return lambda v: regex.match(v) is not None
    return None

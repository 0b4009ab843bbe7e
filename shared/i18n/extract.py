"""Find every text the API may answer with, for the catalogs (``scripts/i18n.py``).

A problem's ``detail`` is raised in code as an English template: the second argument of
a domain error (``Conflict("not-your-turn", "Seat {seat} ...", seat=seat)``), of a
:class:`shared.engine.RuleError`, the third of an ``ApiError`` ... (:data:`CALLS`). This
reads the sources (``ast``, nothing is imported) and collects each such argument that is
a string, a name bound to strings (in the function or the module) or a module-level
dict of them; a detail built with an f-string is reported instead (its values would be
translated with it: pass them as parameters). The titles come from
``shared.http.errors.HTTP``; werkzeug's own error descriptions, which some answers
carry, from werkzeug.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from shared.i18n import LANGUAGES, LOCALES, catalog_path

ROOT = Path(__file__).resolve().parents[2]
POT = LOCALES / "messages.pot"
SOURCES = ("shared", "services")

# the callee's name -> the position of the detail argument
CALLS = {
    "GameError": 1,
    "NotFound": 1,
    "Unauthorized": 1,
    "Forbidden": 1,
    "Conflict": 1,
    "PreconditionFailed": 1,
    "Invalid": 1,
    "RateLimited": 1,
    "RuleError": 1,
    "ApiError": 2,
    "invalid": 2,
    "problem": 2,
    "problem_body": 2,
    "_unavailable": 1,
    "_over_quota": 0,
    "refused": 0,
    "push_text": 0,
    "phrase": 1,  # a chat phrase's English text (shared/games/chat.py)
    "TooManyWaits": 0,
    "ServerBusy": 0,
}
FIELD = 2  # Invalid.field(location, name, detail, message)
FIELDS = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")
"""A ``{name}`` field of a template (``str.format`` syntax, named fields only)."""
ERRORS = "shared/http/errors.py"
OTHER_TITLE = "Error"
"""The title of a status ``HTTP`` does not list (``errors.title``)."""
OWN_DETAIL = (404, 405, 413, 422)
"""Statuses whose werkzeug description never reaches an answer (errors.py has its own)."""


@dataclass
class Found:
    """What the sources hold: each msgid with where it is, and the f-string details."""

    messages: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    fstrings: list[str] = field(default_factory=list)

    def add(self, text: str, where: str, line: int) -> None:
        self.messages.setdefault(text, []).append((where, line))


def _detail_arg(call: ast.Call) -> ast.expr | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "field":
        is_field = isinstance(func.value, ast.Name) and func.value.id in ("Invalid", "cls")
        return call.args[FIELD] if is_field and len(call.args) > FIELD else None
    name = func.id if isinstance(func, ast.Name) else None
    if isinstance(func, ast.Attribute):
        name = func.attr
    if name not in CALLS:
        return None
    position = CALLS[name]
    if len(call.args) > position:
        return call.args[position]
    keyword = next((k for k in call.keywords if k.arg in ("detail", "message")), None)
    return keyword.value if keyword is not None else None


def _strings(node: ast.expr | None) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from _strings(value)
    elif isinstance(node, ast.Tuple):
        for value in node.elts:
            yield from _strings(value)


def _bindings(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """Values assigned to each plain name in ``scope`` (tuple targets unpacked)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(scope):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(value)
            elif isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                for t, v in zip(target.elts, value.elts, strict=False):
                    if isinstance(t, ast.Name):
                        found.setdefault(t.id, []).append(v)
    return found


def _module_bindings(tree: ast.Module) -> dict[str, list[ast.expr]]:
    found: dict[str, list[ast.expr]] = {}
    for node in tree.body:
        for name, values in _bindings(node).items():
            if isinstance(node, ast.Assign | ast.AnnAssign):
                found.setdefault(name, []).extend(values)
    return found


def _resolve(
    node: ast.expr, local: dict[str, list[ast.expr]], module: dict[str, list[ast.expr]]
) -> tuple[list[str], bool]:
    """The strings ``node`` may be, and whether it is (or may be) an f-string."""
    if isinstance(node, ast.JoinedStr):
        return [], True
    if isinstance(node, ast.BoolOp | ast.IfExp):
        parts = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
        texts: list[str] = []
        fstring = False
        for part in parts:
            t, f = _resolve(part, local, module)
            texts += t
            fstring = fstring or f
        return texts, fstring
    if isinstance(node, ast.Name):
        values = local.get(node.id) or module.get(node.id) or []
        texts = [t for v in values for t in _strings(v)]
        return texts, any(isinstance(v, ast.JoinedStr) for v in values)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return [t for v in module.get(node.value.id, []) for t in _strings(v)], False
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
    ):
        return [t for v in module.get(node.func.value.id, []) for t in _strings(v)], False
    return list(_strings(node)), False


def scan_file(path: Path, found: Found) -> None:
    """Add ``path``'s details to ``found``."""
    where = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _module_bindings(tree)
    scopes: list[tuple[ast.AST, dict[str, list[ast.expr]]]] = [(tree, {})]
    scopes += [
        (node, _bindings(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    seen: set[int] = set()
    for scope, local in reversed(scopes):  # innermost functions first
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or id(node) in seen:
                continue
            seen.add(id(node))
            detail = _detail_arg(node)
            if detail is None:
                continue
            texts, fstring = _resolve(detail, local, module)
            if fstring:
                found.fstrings.append(f"{where}:{node.lineno}")
            for text in texts:
                found.add(text, where, node.lineno)


def http_titles(root: Path = ROOT) -> dict[int, str]:
    """``status -> title`` of ``shared.http.errors.HTTP``, read from its source (this
    layer is below ``http`` and never imports it)."""
    tree = ast.parse((root / ERRORS).read_text(encoding="utf-8"))
    table = next(v for v in _module_bindings(tree)["HTTP"] if isinstance(v, ast.Dict))
    titles = {}
    for key, value in zip(table.keys, table.values, strict=True):
        assert isinstance(key, ast.Constant) and isinstance(key.value, int)
        assert isinstance(value, ast.Tuple)
        title = value.elts[1]
        assert isinstance(title, ast.Constant)
        titles[int(key.value)] = str(title.value)
    return titles


def werkzeug_descriptions(statuses: Iterable[int]) -> dict[str, str]:
    """werkzeug's description of each status the API answers (an ``abort``'s detail)."""
    from werkzeug.exceptions import default_exceptions

    return {
        str(default_exceptions[s].description): f"werkzeug {s}"
        for s in statuses
        if s in default_exceptions and s not in OWN_DETAIL
    }


def scan(root: Path = ROOT) -> Found:
    """Every title and detail of the API, with where each is (sorted by path)."""
    found = Found()
    for top in SOURCES:
        for path in sorted((root / top).rglob("*.py")):
            scan_file(path, found)
    titles = http_titles(root)
    for status, name in sorted(titles.items()):
        found.add(name, ERRORS, status)
    found.add(OTHER_TITLE, ERRORS, 0)
    for text, where in werkzeug_descriptions(titles).items():
        found.add(text, where, 0)
    return found


def template_catalog(found: Found) -> Catalog:
    """The ``messages.pot`` of what ``found`` holds (``#:`` lines say where)."""
    pot = Catalog(project="boardgames", version="", charset="utf-8", fuzzy=False, domain="messages")
    for text, places in found.messages.items():
        flags = ("python-brace-format",) if FIELDS.search(text) else ()
        pot.add(text, locations=sorted(set(places)), flags=flags)
    return pot


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=language, domain="messages")


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as po:
        write_po(po, catalog, width=100, sort_output=False, include_lineno=False)


def fields_of(text: str) -> set[str]:
    """The ``{name}`` fields of a template (``{name!r}`` counts as ``name``)."""
    return {match.group(1) for match in FIELDS.finditer(text)}


def untranslated(catalog: Catalog, pot: Catalog) -> list[str]:
    """The msgids of ``pot`` that ``catalog`` lacks, leaves empty or marks fuzzy, and the
    translations whose fields differ from their msgid's."""
    missing = []
    for message in pot:
        if not message.id:
            continue
        found = catalog.get(message.id)
        if found is None or not found.string or found.fuzzy:
            missing.append(f"untranslated: {message.id!r}")
        elif FIELDS.search(str(message.id)) and fields_of(str(found.string)) != fields_of(
            str(message.id)
        ):
            missing.append(f"fields differ: {message.id!r} -> {found.string!r}")
    return missing


def problems() -> list[str]:
    """What ``scripts/i18n.py check`` fails on: details built with f-strings, a stale
    ``messages.pot``, and per language every msgid untranslated, fuzzy or with other
    ``{fields}`` than its msgid's."""
    found = scan()
    pot = template_catalog(found)
    stored = {m.id for m in read(POT) if m.id}
    wanted = {m.id for m in pot if m.id}
    failures = [f"{where}: detail built with an f-string" for where in found.fstrings]
    failures += [f"not in messages.pot: {text!r}" for text in sorted(map(str, wanted - stored))]
    failures += [f"gone from the code: {text!r}" for text in sorted(map(str, stored - wanted))]
    if failures:
        failures.append("run: python scripts/i18n.py extract")
    for language in LANGUAGES[1:]:
        catalog = read(catalog_path(language), language)
        failures += [f"{language}: {p}" for p in untranslated(catalog, pot)]
    return failures

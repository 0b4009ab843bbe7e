"""The finishing touches of a service's OpenAPI document, so that generated clients are
typed end to end: the game's own schemas in place of the kit's untyped payloads, moves
and events as ``oneOf`` unions discriminated by ``type``, ``servers``, a description and
examples taken from a real game (docs/openapi/examples/<game>.json, recorded by
scripts/openapi_examples.py: ``make openapi`` records them, then writes the documents)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask_smorest import Api
from marshmallow import Schema

from shared.http.errors import PROBLEM_MIME
from shared.http.schemas.answers import PROBLEM_DESCRIPTION
from shared.http.schemas.events import KIT_EVENTS

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "openapi" / "examples"
PORTS = {"manhattan": 8001, "windcity": 8002}
DESCRIPTION = """\
{title} as a REST service: create a game, let players join (each gets a secret seat
token, shown once), start it, then post moves in turn. Every answer that carries a game
version has an `ETag`; send it back in `If-Match` to apply a write only at that version
(else 412). A move with an `Idempotency-Key` is applied at most once. Events can be read
by long-poll (`wait`) or as a Server-Sent Events stream. Every error is
`application/problem+json` (RFC 9457) with a stable `code`.

Tokens are bearer tokens (`Authorization: Bearer <token>`): the host token starts and
cancels, a seat's token moves for that seat alone. Without a token, `GET /games/{{id}}`
is a spectator's view.
"""


def union(refs: Mapping[str, str]) -> dict[str, Any]:
    """A ``oneOf`` of component references discriminated by their ``type``."""
    mapping = {kind: f"#/components/schemas/{name}" for kind, name in refs.items()}
    return {
        "oneOf": [{"$ref": ref} for ref in dict.fromkeys(mapping.values())],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


def register(api: Api, name: str, schema: type[Schema]) -> str:
    """Add ``schema`` as the component ``name`` (once); returns the name."""
    if name not in api.spec.components.schemas:
        api.spec.components.schema(name, schema=schema)
    return name


def document_game(
    api: Api,
    game: str,
    prefix: str,
    payloads: Mapping[str, type[Schema]],
    events: Mapping[str, type[Schema]],
) -> None:
    """Register the game's payload and event schemas and finish the document on output.

    ``prefix`` names the game's components (``ManhattanState``...); the kit's fields
    marked ``x-payload: <Name>`` become references to ``<prefix><Name>``.
    """
    for name, schema in payloads.items():
        register(api, prefix + name, schema)
    kinds = {}
    for kind, schema in {**KIT_EVENTS, **events}.items():
        kinds[kind] = register(api, schema.__name__.removesuffix("Schema"), schema)
    api.spec.components.schema(prefix + "Event", component=union(kinds))
    examples = _load_examples(game)
    spec = api.spec
    original: Callable[[], dict[str, Any]] = spec.to_dict
    cache: dict[str, dict[str, Any]] = {}

    def to_dict() -> dict[str, Any]:
        if "doc" not in cache:
            cache["doc"] = finish(original(), game, prefix, examples)
        return copy.deepcopy(cache["doc"])

    spec.to_dict = to_dict


def _load_examples(game: str) -> dict[str, Any]:
    path = EXAMPLES / f"{game}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def finish(
    doc: dict[str, Any], game: str, prefix: str, examples: Mapping[str, Any]
) -> dict[str, Any]:
    """The finished document: payload references, servers, description, examples."""
    title = {"manhattan": "Manhattan", "windcity": "Wind City"}.get(game, game)
    doc["info"]["description"] = DESCRIPTION.format(title=title)
    doc["servers"] = [
        {"url": f"http://127.0.0.1:{PORTS.get(game, 8000)}", "description": "`make run`"}
    ]
    components = doc.setdefault("components", {})
    if "Problem" in components.get("schemas", {}):
        components["schemas"]["Problem"]["description"] = PROBLEM_DESCRIPTION
    for schema in components.get("schemas", {}).values():
        _resolve_payloads(schema, prefix)
        _constants(schema)
    for response in components.get("responses", {}).values():  # flask-smorest's errors
        content = response.get("content", {})
        if "application/json" in content:
            content[PROBLEM_MIME] = content.pop("application/json")
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                _markdown(operation)
                _add_examples(operation, examples.get(operation["operationId"]))
                if operation["operationId"] == "getEvents":
                    content = operation["responses"]["200"]["content"]
                    content["text/event-stream"] = {"schema": {"type": "string"}}
    return doc


def _markdown(operation: dict[str, Any]) -> None:
    """The docstrings' reStructuredText literals as the Markdown that /docs renders: a
    description's ``x`` becomes `x`; a summary, shown as plain text, loses its backticks
    and line breaks."""
    if "summary" in operation:
        operation["summary"] = " ".join(operation["summary"].replace("`", "").split())
    if "description" in operation:
        operation["description"] = operation["description"].replace("``", "`")


def _resolve_payloads(node: Any, prefix: str) -> None:
    """Replace every ``{"x-payload": Name, ...}`` under ``node`` by a reference."""
    if isinstance(node, list):
        for item in node:
            _resolve_payloads(item, prefix)
        return
    if not isinstance(node, dict):
        return
    for key, value in list(node.items()):
        if isinstance(value, dict) and "x-payload" in value:
            node[key] = _reference(value, prefix)
        else:
            _resolve_payloads(value, prefix)


def _reference(field: dict[str, Any], prefix: str) -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{prefix}{field['x-payload']}"}
    nullable = field.get("x-nullable", False)
    out: dict[str, Any] = {"nullable": True, "allOf": [ref]} if nullable else ref
    if "description" in field:
        out["description"] = field["description"]
    return out


def _constants(node: Any) -> None:
    """A discriminator ``type`` with one allowed value becomes a ``const``, which
    generators type as a plain string literal (``Literal["select"]``), not an enum."""
    if isinstance(node, dict):
        kind = node.get("properties", {}).get("type")
        if isinstance(kind, dict) and len(kind.get("enum", ())) == 1:
            kind["const"] = kind["enum"][0]  # for tools reading const; enum for the rest
        if node.get("nullable") and "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]  # 3.0.3: a nullable enum lists null
        if _nullable_nested(node):  # apispec: anyOf [$ref, {type: object, nullable}]
            ref = node.pop("anyOf")[0]
            node["nullable"], node["allOf"] = True, [ref]  # null or that object, not any object
        if "default" in node and node["default"] is None:
            del node["default"]  # says nothing, and TypeScript would make the field required
        for value in node.values():
            _constants(value)


def _nullable_nested(node: dict[str, Any]) -> bool:
    """A nested schema that may be null, as apispec writes it: its second branch would
    let any object through (a fuzzer sends ``{}``)."""
    either = node.get("anyOf")
    return (
        isinstance(either, list)
        and len(either) == 2
        and "$ref" in either[0]
        and either[1] == {"type": "object", "nullable": True}
    )


def _add_examples(operation: dict[str, Any], example: Mapping[str, Any] | None) -> None:
    """Set the operation's request and success examples, where the game recorded them."""
    if not example:
        return
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None and "request" in example:
        body["example"] = example["request"]
    for status, response in operation.get("responses", {}).items():
        content = response.get("content", {}).get("application/json")
        if content is not None and status.startswith("2") and "response" in example:
            content["example"] = example["response"]

"""A small Kustomize for the Kubernetes tests beside it, which render every overlay of
deploy/kubernetes/ offline and check it for what docs/operations.md ("Kubernetes")
promises.

There is no kubectl or kustomize binary here and nothing may be downloaded at test time,
so :func:`render` below is a small Kustomize of its own for exactly the features the
manifests use, refusing any other: ``resources`` (files and directories), ``components``,
``namespace``, ``images`` and ``patches`` (JSON 6902 operations with a ``target``, or a
strategic-merge patch of maps only, whose meaning is then the same as Kustomize's).
``test_render.py`` validates each rendered object against the Kubernetes OpenAPI schemas
that ``kubernetes-validate`` ships (strict: an unknown field fails), for the oldest and
the newest Kubernetes version checked.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]

KUSTOMIZATION_FIELDS = {
    "apiVersion", "kind", "resources", "components", "namespace", "images", "patches",
}  # fmt: skip
CLUSTER_SCOPED = {"Namespace"}
HEADER = {"apiVersion", "kind", "metadata"}


class KustomizeError(Exception):
    """A kustomization this renderer does not understand, or would render wrongly."""


def _kustomization(folder: Path, kind: str) -> dict[str, Any]:
    data = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(data) - KUSTOMIZATION_FIELDS
    if unknown:
        raise KustomizeError(f"{folder}: fields this renderer does not know: {unknown}")
    if data.get("kind", "Kustomization") != kind:
        raise KustomizeError(f"{folder}: a {data.get('kind')}, expected a {kind}")
    return data


def _load(path: Path) -> list[Resource]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def _key(resource: Resource) -> tuple[str, str]:
    return resource["kind"], resource["metadata"]["name"]


def _matches(resource: Resource, target: dict[str, Any]) -> bool:
    unknown = set(target) - {"kind", "name"}
    if unknown:
        raise KustomizeError(f"patch target fields this renderer does not know: {unknown}")
    # Kustomize matches a target's kind and name as anchored regular expressions
    return all(
        re.fullmatch(target[field], value)
        for field, value in zip(("kind", "name"), _key(resource), strict=True)
        if field in target
    )


def _pointer(path: str) -> list[str]:
    if not path.startswith("/"):
        raise KustomizeError(f"not a JSON pointer: {path}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _json6902(document: Resource, operations: list[dict[str, Any]]) -> None:
    for operation in operations:
        *parents, last = _pointer(operation["path"])
        node: Any = document
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        op = operation["op"]
        if isinstance(node, list):
            index = len(node) if last == "-" else int(last)
            if op == "add":
                node.insert(index, copy.deepcopy(operation["value"]))
            elif op == "replace":
                node[index] = copy.deepcopy(operation["value"])
            elif op == "remove":
                del node[index]
            else:
                raise KustomizeError(f"JSON patch operation this renderer does not know: {op}")
        elif op == "add" or (op == "replace" and last in node):
            node[last] = copy.deepcopy(operation["value"])
        elif op == "remove":
            del node[last]
        else:
            raise KustomizeError(f"cannot {op} {operation['path']}")


def _merge_maps(document: dict[str, Any], patch: dict[str, Any]) -> None:
    for name, value in patch.items():
        if isinstance(value, list):
            # strategic merge merges some lists by key (containers by name...): not here
            raise KustomizeError(f"a list in a strategic-merge patch: {name}")
        if isinstance(value, dict) and isinstance(document.get(name), dict):
            _merge_maps(document[name], value)
        elif value is None:
            document.pop(name, None)
        else:
            document[name] = copy.deepcopy(value)


def _apply_patches(folder: Path, resources: list[Resource], patches: list[Any]) -> None:
    for entry in patches:
        if set(entry) - {"path", "target"}:
            raise KustomizeError(f"{folder}: patch fields this renderer does not know: {entry}")
        body = yaml.safe_load((folder / entry["path"]).read_text())
        if "target" in entry:
            hits = [r for r in resources if _matches(r, entry["target"])]
        else:  # a strategic-merge patch names its object itself
            hits = [r for r in resources if _key(r) == _key(body)]
        if isinstance(body, list):  # JSON 6902
            for resource in hits:
                _json6902(resource, body)
        else:
            for resource in hits:
                _merge_maps(resource, {k: v for k, v in body.items() if k not in HEADER})
                _merge_maps(resource["metadata"], {
                    k: v for k, v in body["metadata"].items() if k in ("labels", "annotations")
                })  # fmt: skip
        if not hits:
            raise KustomizeError(f"{folder}: patch {entry['path']} matches nothing")


def _containers(resource: Resource) -> Iterator[dict[str, Any]]:
    spec = resource.get("spec", {}).get("template", {}).get("spec", {})
    yield from spec.get("initContainers", [])
    yield from spec.get("containers", [])


def _set_images(resources: list[Resource], images: list[dict[str, str]]) -> None:
    for image in images:
        if set(image) - {"name", "newName", "newTag"}:
            raise KustomizeError(f"image fields this renderer does not know: {image}")
        for resource in resources:
            for container in _containers(resource):
                name, _, tag = container["image"].partition(":")
                if name == image["name"]:
                    new_tag = image.get("newTag", tag)
                    new_name = image.get("newName", name)
                    container["image"] = f"{new_name}:{new_tag}" if new_tag else new_name


def _accumulate(folder: Path, entries: list[str]) -> list[Resource]:
    resources: list[Resource] = []
    for entry in entries:
        path = folder / entry
        resources += render(path) if path.is_dir() else _load(path)
    return resources


def render(folder: Path, extra_components: tuple[Path, ...] = ()) -> list[Resource]:
    """The objects ``kubectl kustomize folder`` prints (in file order, not by kind);
    ``extra_components`` as if the kustomization listed them under ``components``."""
    data = _kustomization(folder, "Kustomization")
    resources = _accumulate(folder, data.get("resources", []))
    components = [folder / c for c in data.get("components", [])] + list(extra_components)
    for component in components:
        part = _kustomization(component, "Component")
        resources += _accumulate(component, part.get("resources", []))
        _apply_patches(component, resources, part.get("patches", []))
    _apply_patches(folder, resources, data.get("patches", []))
    _set_images(resources, data.get("images", []))
    if "namespace" in data:
        for resource in resources:
            if resource["kind"] not in CLUSTER_SCOPED:
                resource["metadata"]["namespace"] = data["namespace"]
    seen: set[tuple[str, str]] = set()
    for resource in resources:
        if _key(resource) in seen:
            raise KustomizeError(f"{folder}: {_key(resource)} twice")
        seen.add(_key(resource))
    return resources

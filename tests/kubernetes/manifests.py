"""What the Kubernetes tests know of the manifests (deploy/kubernetes/): where the
overlays are, the app's names and ports, and helpers to find objects in a rendering."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]  # no py.typed
import yaml

Resource = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent.parent
KUBE = ROOT / "deploy" / "kubernetes"
OVERLAYS = {"dev": KUBE / "overlays" / "dev", "production": KUBE / "overlays" / "production"}
SERVICEMONITOR = KUBE / "components" / "servicemonitor"
KUBE_VERSIONS = ["1.29", kubernetes_validate.utils.latest_version()]
GAMES = {"manhattan": 8001, "windcity": 8002}
APP = {*GAMES, "worker"}
IMAGE = "boardgames"  # the base's name for the one image (Dockerfile)


def _load(path: Path) -> list[Resource]:
    """The objects of a YAML file."""
    return [r for r in yaml.safe_load_all(path.read_text()) if r]


def _key(resource: Resource) -> tuple[str, str]:
    return resource["kind"], resource["metadata"]["name"]


def _containers(resource: Resource) -> Iterator[dict[str, Any]]:
    spec = resource.get("spec", {}).get("template", {}).get("spec", {})
    yield from spec.get("initContainers", [])
    yield from spec.get("containers", [])


def _one(resources: list[Resource], kind: str, name: str) -> Resource:
    found = [r for r in resources if _key(r) == (kind, name)]
    assert len(found) == 1, (kind, name)
    return found[0]


def _of_kind(resources: list[Resource], kind: str) -> list[Resource]:
    return [r for r in resources if r["kind"] == kind]


def _workloads(resources: list[Resource]) -> list[Resource]:
    return [r for r in resources if r["kind"] in ("Deployment", "StatefulSet")]


def _pod(resource: Resource) -> dict[str, Any]:
    return resource["spec"]["template"]["spec"]


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """Whether a label selector (matchLabels, matchExpressions In) selects these labels."""
    if set(selector) - {"matchLabels", "matchExpressions"}:
        raise AssertionError(f"selector this test does not know: {selector}")
    for key, value in selector.get("matchLabels", {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions", []):
        assert expression["operator"] == "In", expression
        if labels.get(expression["key"]) not in expression["values"]:
            return False
    return True


def _settings_env(resources: list[Resource], container: dict[str, Any]) -> dict[str, str]:
    """What the container's environment holds from its ConfigMaps and literal values."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(_one(resources, "ConfigMap", source["configMapRef"]["name"])["data"])
    for variable in container.get("env", []):
        env[variable["name"]] = variable.get("value", "<from a Secret>")
    return env


def _dockerfile_uid() -> int:
    return int(re.search(r"--uid (\d+)", (ROOT / "Dockerfile").read_text()).group(1))

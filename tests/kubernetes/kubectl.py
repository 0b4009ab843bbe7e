"""The overlays of deploy/kubernetes/ rendered as operators render them: ``kubectl
kustomize`` (offline). Without kubectl the tests that need a rendering skip, saying how
to get it (README.md, "Kubernetes")."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from .manifests import KUBE, Resource

KUBECTL = shutil.which("kubectl")
MISSING = (
    "kubectl is not installed: the manifests are rendered with `kubectl kustomize` "
    '(README.md, "Kubernetes", says how to get it)'
)


def kustomize(folder: Path) -> list[Resource]:
    """The objects ``kubectl kustomize folder`` prints."""
    if KUBECTL is None:
        pytest.skip(MISSING)
    run = subprocess.run(
        [KUBECTL, "kustomize", str(folder)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, f"kubectl kustomize {folder}: {run.stderr}"
    return [r for r in yaml.safe_load_all(run.stdout) if r]


def render(folder: Path, extra_components: tuple[Path, ...] = ()) -> list[Resource]:
    """The overlay ``folder`` rendered; ``extra_components`` added to its kustomization's
    ``components``, as docs/operations.md tells an operator to (on a copy of
    deploy/kubernetes/)."""
    if not extra_components:
        return kustomize(folder)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "kubernetes"
        shutil.copytree(KUBE, copy)
        overlay = copy / folder.relative_to(KUBE)
        kustomization = overlay / "kustomization.yaml"
        data = yaml.safe_load(kustomization.read_text())
        data.setdefault("components", []).extend(
            os.path.relpath(copy / component.relative_to(KUBE), overlay)
            for component in extra_components
        )
        kustomization.write_text(yaml.safe_dump(data))
        return kustomize(overlay)

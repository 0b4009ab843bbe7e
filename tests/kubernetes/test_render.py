"""Every overlay rendered by ``kubectl kustomize`` and validated offline (the
Kubernetes OpenAPI schemas of the oldest and the newest version checked), what each
overlay holds, and the skip without kubectl."""

from __future__ import annotations

import kubernetes_validate  # type: ignore[import-untyped]  # no py.typed
import pytest

from shared.ops.config import SETTINGS

from . import kubectl
from .kubectl import render
from .manifests import (
    APP,
    GAMES,
    IMAGE,
    KUBE_VERSIONS,
    OVERLAYS,
    ROOT,
    _containers,
    _key,
    _of_kind,
    _one,
    _pod,
    _settings_env,
    _workloads,
)


@pytest.mark.parametrize("version", KUBE_VERSIONS)
def test_every_overlay_renders_and_every_object_validates(overlay, version):
    name, resources = overlay
    assert resources, name
    for resource in resources:
        try:
            kubernetes_validate.validate(resource, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            where = ".".join(str(part) for part in error.path)
            pytest.fail(f"{name}: {_key(resource)} at {where}: {error.message}")


def test_the_overlays_hold_what_they_promise():
    dev, production = render(OVERLAYS["dev"]), render(OVERLAYS["production"])
    for resources, namespace in ((dev, "boardgames-dev"), (production, "boardgames")):
        _one(resources, "Namespace", namespace)
        assert all(
            r["metadata"].get("namespace") == namespace
            for r in resources
            if r["kind"] != "Namespace"
        )
        assert {r["metadata"]["name"] for r in _of_kind(resources, "Deployment")} == APP

    # dev: one Redis with its AOF on a claimed volume, and the app pointed at it
    redis = _one(dev, "StatefulSet", "redis")
    args = _pod(redis)["containers"][0]["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--stream-node-max-bytes") + 1] == "1024"  # docs/operations.md
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    claim = redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"]
    mounts = _pod(redis)["containers"][0]["volumeMounts"]
    assert {"name": claim, "mountPath": "/data"} in mounts
    service = _one(dev, "Service", "redis")
    assert service["spec"]["clusterIP"] == "None" and redis["spec"]["serviceName"] == "redis"
    settings = _one(dev, "ConfigMap", "boardgames-settings")["data"]
    assert settings["REDIS_URL"].startswith("redis://redis:6379/")
    assert settings["REDIS_CLUSTER"] == "0"

    # production: no Redis of its own, a cluster by URL; 3 pods per game, 2 workers at least
    assert not _of_kind(production, "StatefulSet")
    settings = _one(production, "ConfigMap", "boardgames-settings")["data"]
    assert SETTINGS["REDIS_CLUSTER"][0] is bool and settings["REDIS_CLUSTER"] == "1"
    assert settings["REDIS_URL"].startswith(("redis://", "rediss://"))
    assert "redis:6379" not in settings["REDIS_URL"]
    for game in GAMES:
        assert _one(production, "HorizontalPodAutoscaler", game)["spec"]["minReplicas"] == 3
    assert _one(production, "HorizontalPodAutoscaler", "worker")["spec"]["minReplicas"] == 2
    # the real Secrets are the operator's: applying the overlay never overwrites them
    assert not _of_kind(production, "Secret")
    images = {c["image"] for r in _workloads(production) for c in _containers(r)}
    assert len(images) == 1 and images.pop().endswith(":0.1.0")


def test_every_app_container_runs_the_one_image(overlay):
    _, resources = overlay
    images = {
        c["image"].partition(":")[0]
        for r in _of_kind(resources, "Deployment")
        for c in _containers(r)
    }
    assert len(images) == 1 and images.pop().endswith(IMAGE)
    games = [_one(resources, "Deployment", game) for game in GAMES]
    for game, deployment in zip(GAMES, games, strict=True):
        container = _pod(deployment)["containers"][0]
        env = _settings_env(resources, container)
        assert env["GAME"] == game and env["PORT"] == str(GAMES[game])
        assert "command" not in container  # the Dockerfile's gunicorn command line
    worker = _pod(_one(resources, "Deployment", "worker"))["containers"][0]
    assert worker["command"] == ["python", "-m", "shared.worker"]


def test_without_kubectl_the_renderings_skip_saying_how_to_get_it(monkeypatch):
    monkeypatch.setattr(kubectl, "KUBECTL", None)
    with pytest.raises(pytest.skip.Exception, match="kubectl is not installed"):
        render(OVERLAYS["dev"])
    for doc in ("README.md", "docs/operations.md"):
        assert (
            "kubectl kustomize" in (ROOT / doc).read_text()
            and "pkgs.k8s.io" in (ROOT / doc).read_text()
        )

"""The Kubernetes manifests (deploy/kubernetes/): every overlay rendered and validated
offline, then checked for what docs/operations.md ("Kubernetes") promises.

There is no kubectl or kustomize binary here and nothing may be downloaded at test time,
so :func:`render` below is a small Kustomize of its own for exactly the features the
manifests use, refusing any other: ``resources`` (files and directories), ``components``,
``namespace``, ``images`` and ``patches`` (JSON 6902 operations with a ``target``, or a
strategic-merge patch of maps only, whose meaning is then the same as Kustomize's).
Each rendered object is validated against the Kubernetes OpenAPI schemas that
``kubernetes-validate`` ships (strict: an unknown field fails), for the oldest and the
newest Kubernetes version checked.
"""

from __future__ import annotations

import copy
import re
import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]  # no py.typed
import pytest
import yaml

from shared.ops.config import SETTINGS
from shared.worker import loop

ROOT = Path(__file__).resolve().parent.parent
KUBE = ROOT / "deploy" / "kubernetes"
OVERLAYS = {"dev": KUBE / "overlays" / "dev", "production": KUBE / "overlays" / "production"}
SERVICEMONITOR = KUBE / "components" / "servicemonitor"
KUBE_VERSIONS = ["1.29", kubernetes_validate.utils.latest_version()]
GAMES = {"manhattan": 8001, "windcity": 8002}
APP = {*GAMES, "worker"}
IMAGE = "boardgames"  # the base's name for the one image (Dockerfile)

Resource = dict[str, Any]

# ----------------------------------------------------------------------------- the renderer

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


# ----------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module", params=sorted(OVERLAYS))
def overlay(request: pytest.FixtureRequest) -> tuple[str, list[Resource]]:
    return request.param, render(OVERLAYS[request.param])


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


# ----------------------------------------------------------------------------- rendering


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


def test_the_renderer_refuses_what_it_does_not_know(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources: []\ncommonLabels: {a: b}\n")
    with pytest.raises(KustomizeError, match="commonLabels"):
        render(tmp_path)
    (tmp_path / "kustomization.yaml").write_text(
        "resources: [cm.yaml]\npatches: [{path: p.yaml}]\n"
    )
    (tmp_path / "cm.yaml").write_text("kind: ConfigMap\nmetadata: {name: a}\ndata: {}\n")
    (tmp_path / "p.yaml").write_text("kind: ConfigMap\nmetadata: {name: b}\ndata: {x: y}\n")
    with pytest.raises(KustomizeError, match="matches nothing"):
        render(tmp_path)
    (tmp_path / "p.yaml").write_text("kind: ConfigMap\nmetadata: {name: a}\ndata: {x: [1]}\n")
    with pytest.raises(KustomizeError, match="a list"):
        render(tmp_path)


# ----------------------------------------------------------------------------- pods


def test_probes_point_at_health_and_readiness(overlay, tmp_path, monkeypatch):
    _, resources = overlay
    for game, port in GAMES.items():
        pod = _pod(_one(resources, "Deployment", game))
        container = pod["containers"][0]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        for probe, path in (
            ("startupProbe", "/healthz"),
            ("livenessProbe", "/healthz"),
            ("readinessProbe", "/readyz"),
        ):
            get = container[probe]["httpGet"]
            assert get["path"] == path, (game, probe)
            assert ports.get(get["port"], get["port"]) == port, (game, probe)

    # the worker: its heartbeat, through its own check, on a writable volume
    worker = _pod(_one(resources, "Deployment", "worker"))
    container = worker["containers"][0]
    check = ["python", "-m", "shared.worker", "--check"]
    assert container["livenessProbe"]["exec"]["command"] == check
    assert container["startupProbe"]["exec"]["command"] == check
    heartbeat = _settings_env(resources, container)["WORKER_HEARTBEAT_FILE"]
    mounted = {m["mountPath"] for m in container["volumeMounts"]}
    assert str(Path(heartbeat).parent) in mounted
    # the check holds what the probe expects of it: 0 on a fresh heartbeat, 1 without
    monkeypatch.setenv("WORKER_HEARTBEAT_FILE", str(tmp_path / "beat"))
    assert loop.main(["--check"]) == 1
    (tmp_path / "beat").touch()
    assert loop.main(["--check"]) == 0
    # a probe's period must leave the worker's own threshold (10 s) room to be met
    assert container["livenessProbe"]["periodSeconds"] >= 10


def test_every_container_is_locked_down(overlay):
    _, resources = overlay
    for workload in _workloads(resources):
        pod = _pod(workload)
        name = workload["metadata"]["name"]
        assert pod.get("automountServiceAccountToken") is False, name
        assert pod.get("enableServiceLinks") is False, name  # no REDIS_PORT=tcp://...
        for container in _containers(workload):
            context = {**pod["securityContext"], **container["securityContext"]}
            where = (name, container["name"])
            assert context["runAsNonRoot"] is True, where
            assert isinstance(context["runAsUser"], int) and context["runAsUser"] > 0, where
            assert context["allowPrivilegeEscalation"] is False, where
            assert context["readOnlyRootFilesystem"] is True, where
            assert context["capabilities"] == {"drop": ["ALL"]}, where
            assert context["seccompProfile"] == {"type": "RuntimeDefault"}, where
            assert "privileged" not in context, where
        if name in APP:  # the image's own user (Dockerfile), numeric for runAsNonRoot
            assert pod["securityContext"]["runAsUser"] == _dockerfile_uid()


def test_what_the_app_writes_is_on_a_writable_volume(overlay):
    _, resources = overlay
    for name in APP:
        pod = _pod(_one(resources, "Deployment", name))
        container = pod["containers"][0]
        volumes = {v["name"]: v for v in pod["volumes"]}
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        env = _settings_env(resources, container)
        writable = ["/tmp"]  # tempfile, gunicorn's worker heartbeat files
        if name in GAMES:
            writable.append(env["METRICS_DIR"])  # the multiprocess metric files
        else:
            writable.append(str(Path(env["WORKER_HEARTBEAT_FILE"]).parent))
        for path in writable:
            mount = next(m for p, m in mounts.items() if path == p or path.startswith(p + "/"))
            assert "emptyDir" in volumes[mount["name"]] and not mount.get("readOnly"), path
        if name in GAMES:  # the API keys file: the Secret, mounted whole (no subPath), so
            # that an update reaches the running pods (the services re-read a changed file)
            keys = env["API_KEYS_FILE"]
            mount = mounts[str(Path(keys).parent)]
            assert "subPath" not in mount and mount["readOnly"] is True
            secret = volumes[mount["name"]]["secret"]
            assert secret["secretName"] == "boardgames-api-keys"
            assert {"key": Path(keys).name, "path": Path(keys).name} in secret["items"]


def _quantity(value: str | int) -> float:
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    text = str(value)
    for unit, factor in units.items():
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


def test_every_container_has_resources(overlay):
    _, resources = overlay
    for workload in _workloads(resources):
        for container in _containers(workload):
            limits, requests = container["resources"]["limits"], container["resources"]["requests"]
            for kind in ("cpu", "memory"):
                assert _quantity(requests[kind]) <= _quantity(limits[kind]), (container, kind)
        pod = _pod(workload)
        if workload["metadata"]["name"] in GAMES:
            # gunicorn: one process per core of the CPU limit (docs/operations.md)
            container = pod["containers"][0]
            workers = int(_settings_env(resources, container)["WEB_CONCURRENCY"])
            assert workers == _quantity(container["resources"]["limits"]["cpu"])


def test_termination_lets_a_request_or_a_delivery_finish(overlay):
    _, resources = overlay
    gunicorn = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    for game in GAMES:
        pod = _pod(_one(resources, "Deployment", game))
        container = pod["containers"][0]
        sleep = container["lifecycle"]["preStop"]["exec"]["command"]
        assert sleep[0] == "sleep" and int(sleep[1]) >= 5  # the endpoint leaves first
        grace = pod["terminationGracePeriodSeconds"]
        assert grace > int(sleep[1]) + gunicorn["graceful_timeout"], game
    worker = _pod(_one(resources, "Deployment", "worker"))
    # the worker's stop: its tick, then up to WEBHOOK_TIMEOUT_SECONDS + 1 for a delivery
    delivery = SETTINGS["WEBHOOK_TIMEOUT_SECONDS"][1] + 1
    assert worker["terminationGracePeriodSeconds"] >= 2 * (
        delivery + SETTINGS["WORKER_LEASE_SECONDS"][1]
    )


def test_every_deployment_has_a_budget_and_an_autoscaler(overlay):
    _, resources = overlay
    budgets = _of_kind(resources, "PodDisruptionBudget")
    scalers = _of_kind(resources, "HorizontalPodAutoscaler")
    for deployment in _of_kind(resources, "Deployment"):
        name = deployment["metadata"]["name"]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert _selects(deployment["spec"]["selector"], labels)
        assert "replicas" not in deployment["spec"], name  # the autoscaler owns it
        strategy = deployment["spec"]["strategy"]
        assert strategy["rollingUpdate"]["maxUnavailable"] == 0, name
        mine = [b for b in budgets if _selects(b["spec"]["selector"], labels)]
        assert len(mine) == 1 and mine[0]["spec"]["maxUnavailable"] == 1, name
        mine = [s for s in scalers if s["spec"]["scaleTargetRef"]["name"] == name]
        assert len(mine) == 1, name
        scaler = mine[0]
        assert scaler["apiVersion"] == "autoscaling/v2"
        assert scaler["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 1 <= scaler["spec"]["minReplicas"] <= scaler["spec"]["maxReplicas"]
        metric = scaler["spec"]["metrics"][0]
        assert metric["type"] == "Resource" and metric["resource"]["name"] == "cpu"
    assert len(budgets) == len(scalers) == len(_of_kind(resources, "Deployment"))


def test_services_reach_their_pods(overlay):
    _, resources = overlay
    for service in _of_kind(resources, "Service"):
        pods = [
            w for w in _workloads(resources)
            if _selects({"matchLabels": service["spec"]["selector"]},
                        w["spec"]["template"]["metadata"]["labels"])
        ]  # fmt: skip
        assert len(pods) == 1, service["metadata"]["name"]
        names = {p["name"] for c in _containers(pods[0]) for p in c.get("ports", [])}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in names, service["metadata"]["name"]
    for game, port in GAMES.items():
        assert _one(resources, "Service", game)["spec"]["ports"][0]["port"] == port


def test_secrets_hold_every_key_the_pods_read(overlay):
    name, resources = overlay
    secrets = {
        s["metadata"]["name"]: s
        for s in _of_kind(resources, "Secret")
        or _load(OVERLAYS["production"] / "secrets.example.yaml")  # the operator's
    }
    for secret in secrets.values():
        kubernetes_validate.validate(secret, KUBE_VERSIONS[-1], strict=True)
        for value in secret["stringData"].values():
            assert value.startswith(("dev-only-", "REPLACE")) or value.strip() == '{"keys": []}'
    for workload in _workloads(resources):
        pod = _pod(workload)
        for container in _containers(workload):
            for variable in container.get("env", []):
                if "valueFrom" in variable:
                    ref = variable["valueFrom"]["secretKeyRef"]
                    assert ref["key"] in secrets[ref["name"]]["stringData"], (name, ref)
        for volume in pod.get("volumes", []):
            if "secret" in volume:
                held = secrets[volume["secret"]["secretName"]]["stringData"]
                assert all(item["key"] in held for item in volume["secret"]["items"])


# ----------------------------------------------------------------------------- settings


def _readme_settings() -> set[str]:
    text = (ROOT / "README.md").read_text()
    table = text.split("## Settings (environment variables)")[1].split("\n#")[0]
    names: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", line.split("|")[1]))
    return names


def _read_outside_settings() -> set[str]:
    """Variables read by gunicorn.conf.py and the Dockerfile's command, not settings."""
    gunicorn = (ROOT / "gunicorn.conf.py").read_text()
    names = set(re.findall(r"os\.environ(?:\.get\(|\[)\"([A-Z][A-Z0-9_]*)\"", gunicorn))
    dockerfile = (ROOT / "Dockerfile").read_text()
    names |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)\}", dockerfile))
    return names


def test_every_setting_the_code_reads_is_documented():
    documented = _readme_settings()
    assert set(SETTINGS) <= documented, set(SETTINGS) - documented
    assert _read_outside_settings() - {"PROMETHEUS_MULTIPROC_DIR"} <= documented


def test_every_variable_the_manifests_set_is_a_real_setting(overlay):
    name, resources = overlay
    real = (set(SETTINGS) | _read_outside_settings()) & _readme_settings()
    assert {"GAME", "PORT", "WEB_CONCURRENCY", "METRICS_DIR"} <= real
    for deployment in _of_kind(resources, "Deployment"):
        for container in _containers(deployment):
            unknown = set(_settings_env(resources, container)) - real
            assert not unknown, (name, deployment["metadata"]["name"], unknown)
            # set by gunicorn.conf.py for each service: never from outside
            assert "PROMETHEUS_MULTIPROC_DIR" not in _settings_env(resources, container)
    for config in _of_kind(resources, "ConfigMap"):
        for key, value in config["data"].items():
            kind = SETTINGS.get(key, (str, None))[0]
            if kind is bool:
                assert value in {"0", "1"}, (key, value)
            elif kind in (int, float):
                kind(value)  # a number the settings loader takes


# ----------------------------------------------------------------------------- network


def _policies_for(resources: list[Resource], labels: dict[str, str], kind: str) -> list:
    return [
        p
        for p in _of_kind(resources, "NetworkPolicy")
        if kind in p["spec"]["policyTypes"] and _selects(p["spec"]["podSelector"], labels)
    ]


def test_network_policies(overlay):
    name, resources = overlay
    labels = {
        w["metadata"]["name"]: w["spec"]["template"]["metadata"]["labels"]
        for w in _workloads(resources)
    }
    # every pod's egress is limited (a policy selects it), and each game's port is open
    for pod in labels.values():
        assert _policies_for(resources, pod, "Egress"), pod
    for game, port in GAMES.items():
        rules = [r for p in _policies_for(resources, labels[game], "Ingress")
                 for r in p["spec"]["ingress"]]  # fmt: skip
        assert any(
            "from" not in r and {"port": port, "protocol": "TCP"} in r["ports"] for r in rules
        ), game
    # webhooks: the worker may reach the internet, never the private ranges
    blocks = [
        peer["ipBlock"]
        for p in _policies_for(resources, labels["worker"], "Egress")
        for rule in p["spec"]["egress"]
        for peer in rule.get("to", [])
        if "ipBlock" in peer and peer["ipBlock"]["cidr"] == "0.0.0.0/0"
    ]
    assert len(blocks) == 1
    assert {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16"} <= set(
        blocks[0]["except"]
    )
    for game in GAMES:  # the game services call no one but Redis (and DNS)
        for policy in _policies_for(resources, labels[game], "Egress"):
            for rule in policy["spec"]["egress"]:
                for peer in rule.get("to", []):
                    assert peer.get("ipBlock", {}).get("cidr") != "0.0.0.0/0", game
    if name == "dev":  # Redis: from the app's pods only, on its port; no egress
        ingress = _policies_for(resources, labels["redis"], "Ingress")
        assert len(ingress) == 1
        (rule,) = ingress[0]["spec"]["ingress"]
        (peer,) = rule["from"]
        allowed = {n for n, pod in labels.items() if _selects(peer["podSelector"], pod)}
        assert allowed == APP and rule["ports"] == [{"port": 6379, "protocol": "TCP"}]
        egress = _policies_for(resources, labels["redis"], "Egress")
        assert [p["spec"].get("egress", []) for p in egress] == [[]]


# ----------------------------------------------------------------------------- monitoring


def test_the_servicemonitor_component_scrapes_every_service():
    base = render(OVERLAYS["production"])
    resources = render(OVERLAYS["production"], extra_components=(SERVICEMONITOR,))
    monitors = _of_kind(resources, "ServiceMonitor")
    assert len(resources) == len(base) + len(monitors) and len(monitors) == 2
    # the base never lists it: without the Prometheus Operator's CRD it would not apply
    assert not any(_of_kind(render(overlay), "ServiceMonitor") for overlay in OVERLAYS.values())
    scraped = set()
    for monitor in monitors:
        assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
        assert monitor["metadata"]["namespace"] == "boardgames"
        for service in _of_kind(resources, "Service"):
            if _selects(monitor["spec"]["selector"], service["metadata"]["labels"]):
                scraped.add(service["metadata"]["name"])
                ports = {p["name"] for p in service["spec"]["ports"]}
                for endpoint in monitor["spec"]["endpoints"]:
                    assert endpoint["port"] in ports and endpoint["path"] == "/metrics"
                    if service["metadata"]["name"] in GAMES:  # behind METRICS_TOKEN
                        credentials = endpoint["authorization"]["credentials"]
                        assert credentials == {"name": "boardgames", "key": "METRICS_TOKEN"}
    assert scraped == APP


def test_operations_says_how_to_deploy_each_overlay():
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Kubernetes")[1].split("\n## ")[0]
    for overlay in OVERLAYS:
        assert f"kubectl apply -k deploy/kubernetes/overlays/{overlay}" in section
    for secret in ("boardgames-api-keys", "WEBHOOK_SIGNING_KEY", "METRICS_TOKEN"):
        assert secret in section
    assert "docs/operations.md#kubernetes" in (ROOT / "README.md").read_text()

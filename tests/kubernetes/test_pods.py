"""What every pod gets (docs/operations.md, "Kubernetes"): probes, a locked-down
security context, writable volumes, resources, graceful termination, a budget and an
autoscaler, services that reach it, the Secrets it reads."""

from __future__ import annotations

import runpy
from pathlib import Path

import kubernetes_validate  # type: ignore[import-untyped]  # no py.typed

from shared.ops.config import SETTINGS
from shared.worker import loop

from .manifests import (
    APP,
    GAMES,
    KUBE_VERSIONS,
    OVERLAYS,
    ROOT,
    _containers,
    _dockerfile_uid,
    _load,
    _of_kind,
    _one,
    _pod,
    _selects,
    _settings_env,
    _workloads,
)


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
                    if ref.get("optional"):  # PUSH_VAPID_PRIVATE_KEY: no push without it
                        continue
                    assert ref["key"] in secrets[ref["name"]]["stringData"], (name, ref)
        for volume in pod.get("volumes", []):
            if "secret" in volume:
                held = secrets[volume["secret"]["secretName"]]["stringData"]
                assert all(item["key"] in held for item in volume["secret"]["items"])

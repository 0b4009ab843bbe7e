"""Helpers shared by the bench scripts: private Redis servers, gunicorn-served apps
(with the project's own ``gunicorn.conf.py``), CPU accounting, percentiles, machine facts.

Every process started here listens on 127.0.0.1 on a free port and is stopped by the
``with`` block that started it; nothing touches the shared Redis on port 6379.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
import redis.connection
import requests

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
APPS = {
    "manhattan": "services.manhattan.app:create_app()",
    "windcity": "services.windcity.app:create_app()",
    "floor": "bench.floor_app:create_app()",
}
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def taskset(cpus: str | None) -> list[str]:
    """The ``taskset -c`` prefix pinning a command to ``cpus`` (nothing if unset)."""
    if not cpus or not shutil.which("taskset"):
        return []
    return ["taskset", "-c", cpus]


def wait_until(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


@dataclass
class Redis:
    url: str
    port: int
    proc: subprocess.Popen
    workdir: str

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)


@contextlib.contextmanager
def redis_server(cpus: str | None = None, appendonly: bool = True) -> Iterator[Redis]:
    """A private redis-server (append-only like ``make run``'s) on a free port."""
    program = shutil.which("redis-server")
    if program is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    workdir = tempfile.mkdtemp(prefix="bench-redis-")
    port = free_port()
    cmd = [
        *taskset(cpus),
        program,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        workdir,
        "--appendonly",
        "yes" if appendonly else "no",
        "--save",
        "",
        "--maxclients",
        "10000",
        "--loglevel",
        "warning",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Redis(f"redis://127.0.0.1:{port}/0", port, proc, workdir)
    probe = redis.Redis(port=port, socket_timeout=1)
    try:
        wait_until(lambda: probe.ping(), 10, "redis-server")
        yield server
    finally:
        probe.close()
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(workdir, ignore_errors=True)


@dataclass
class Service:
    name: str
    base: str
    port: int
    proc: subprocess.Popen
    pids: list[int] = field(default_factory=list)


def cluster_ports(count: int) -> list[int]:
    """Free loopback ports whose cluster bus port (port + 10000) is free too."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port + 10000 > 65535 or port in ports or not _port_free(port + 10000):
            continue
        ports.append(port)
    return ports


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def redis_cluster(replicas: int = 0, **settings: str) -> Iterator[tuple[str, list[int], str]]:
    """A private cluster of three primaries with ``replicas`` replicas each, on free
    ports, by ``scripts/redis_cluster.sh`` (``settings``: more of its environment, e.g.
    ``CLUSTER_NODE_TIMEOUT``): its URL, ports and directory; stopped and removed after."""
    ports = cluster_ports(3 * (1 + replicas))
    workdir = tempfile.mkdtemp(prefix="redis-cluster-")
    env = {
        **os.environ,
        "CLUSTER_PORTS": " ".join(map(str, ports)),
        "CLUSTER_REPLICAS": str(replicas),
        "CLUSTER_DIR": workdir,
        **settings,
    }
    script = str(ROOT / "scripts" / "redis_cluster.sh")
    try:
        started = subprocess.run(["bash", script, "start"], env=env, capture_output=True, text=True)
        if started.returncode:
            raise RuntimeError(f"redis_cluster.sh start failed: {started.stderr[-1000:]}")
        yield f"redis://127.0.0.1:{ports[0]}/0", ports, workdir
    finally:
        subprocess.run(["bash", script, "stop"], env=env, check=False, capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (gunicorn's workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                found.append(int(entry))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (all their threads)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


@contextlib.contextmanager
def gunicorn(
    app: str,
    redis_url: str,
    cpus: str | None = None,
    env: dict[str, str] | None = None,
    cluster: bool = False,
) -> Iterator[Service]:
    """``app`` served exactly as ``make run`` serves it: ``gunicorn -c gunicorn.conf.py``
    (gevent workers, ``WEB_CONCURRENCY`` default 2) on a free port."""
    port = free_port()
    full_env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": "warning",
        **({"REDIS_CLUSTER": "1"} if cluster else {}),
        **(env or {}),
    }
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full_env.get("PYTHONPATH")]))
    cmd = [
        *taskset(cpus),
        str(BIN / "gunicorn"),
        "-c",
        str(ROOT / "gunicorn.conf.py"),
        "--bind",
        f"127.0.0.1:{port}",
        "--name",
        app,
        APPS[app],
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: (
                proc.poll() is None and requests.get(f"{base}/readyz", timeout=1).status_code == 200
            ),
            30,
            f"gunicorn serving {app}",
        )
        workers = int(full_env.get("WEB_CONCURRENCY", "2"))
        wait_until(lambda: len(children(proc.pid)) >= workers, 10, "gunicorn workers")
        yield Service(app, base, port, proc, [proc.pid, *children(proc.pid)])
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def machine() -> dict[str, str]:
    """nproc, CPU model, Python and Redis versions."""
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    redis_version = subprocess.run(
        ["redis-server", "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "python": platform.python_version(),
        "redis": redis_version,
        "kernel": platform.release(),
    }


def run_loadgen(args: list[str], cpus: str | None, timeout: float) -> dict:
    """Run ``python -m bench.loadgen ARGS`` (pinned to ``cpus``); its JSON result."""
    import json

    cmd = [*taskset(cpus), PYTHON, "-m", "bench.loadgen", *args]
    out = subprocess.run(
        cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )
    if out.returncode != 0:
        raise RuntimeError(f"loadgen failed ({out.returncode}): {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def system_busy() -> tuple[float, float]:
    """(busy CPU seconds of the whole machine so far, wall-clock now): the difference of
    two readings minus our own processes' CPU is what *other* work took meanwhile."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / CLK_TCK, time.monotonic()


class CpuMeter:
    """CPU used by groups of processes (and by everything else) over a window."""

    def __init__(self, groups: dict[str, list[int]]) -> None:
        self.groups = groups
        self.start = {name: cpu_seconds(pids) for name, pids in groups.items()}
        self.each = {pid: cpu_seconds([pid]) for pids in groups.values() for pid in pids}
        self.busy0, self.t0 = system_busy()

    def stop(self, extra_cpu: float = 0.0) -> dict[str, Any]:
        """Cores used per group, plus ``other`` (everything else on the machine;
        ``extra_cpu``: CPU seconds of processes measured elsewhere, e.g. the generator)."""
        busy, t = system_busy()
        wall = t - self.t0
        out: dict[str, Any] = {}
        ours = extra_cpu
        for name, pids in self.groups.items():
            used = cpu_seconds(pids) - self.start[name]
            ours += used
            out[name] = round(used / wall, 2)
            if len(pids) > 1:  # e.g. gunicorn's arbiter and each worker: one worker taking
                # most of the connections of a shared socket shows here
                each = (cpu_seconds([pid]) - self.each[pid] for pid in pids)
                out[f"{name} by process"] = "/".join(f"{c / wall:.2f}" for c in each)
        out["other"] = round(max(0.0, (busy - self.busy0) - ours) / wall, 2)
        return out


def start_workers(
    redis_url: str, workdir: str, count: int, settings: dict[str, str] | None = None
) -> list[subprocess.Popen[str]]:
    """``count`` real ``python -m shared.worker --report`` processes of this tree on
    ``redis_url`` (Manhattan only), each up (its heartbeat written) when this returns;
    ``settings``: more environment (e.g. ``WORKER_BOT_PROCESSES``)."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOG_LEVEL": "WARNING",
        "WORKER_GAMES": "manhattan",
        "PYTHONPATH": str(ROOT),
        **(settings or {}),
    }
    procs = []
    for n in range(count):
        beat = f"{workdir}/beat{n}"
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "shared.worker", "--report"],
                env={**env, "WORKER_HEARTBEAT_FILE": beat},
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        )
        wait_until(lambda b=beat: Path(b).exists(), 20, "worker")
    return procs


@contextlib.contextmanager
def each_send(record: Callable[[bytes], None]) -> Iterator[None]:
    """Calls ``record`` with every packet this process sends to Redis meanwhile, one call
    a round trip: redis-py's connections (``send_packed_command``; a pipeline is one) and
    the store's own lane (shared/store/connection.py)."""
    from shared.store import connection as lane  # (the benches' own processes only)

    sent = redis.connection.AbstractConnection.send_packed_command
    ask = lane.Conn.ask

    def counting(conn: Any, command: Any, check_health: bool = True) -> None:
        record(b"".join(command) if isinstance(command, list) else command)
        sent(conn, command, check_health)

    def asking(conn: lane.Conn, packed: bytes, *more: Any) -> Any:
        record(packed)
        return ask(conn, packed, *more)

    redis.connection.AbstractConnection.send_packed_command = counting  # type: ignore[method-assign]
    lane.Conn.ask = asking  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        redis.connection.AbstractConnection.send_packed_command = sent  # type: ignore[method-assign]
        lane.Conn.ask = ask  # type: ignore[method-assign]

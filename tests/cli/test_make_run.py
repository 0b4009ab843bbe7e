"""``make run`` and signals (issue 29, item 13): SIGINT or SIGTERM to the process that
``make run`` started (``scripts/run.sh``) stops both services and the worker, and it
exits 0; so does Ctrl-C in a terminal, and ``make run`` itself then exits 0 too.

Each test runs the script in a checkout of its own (a copy of ``scripts/run.sh`` beside
links to the code and the venv: its own ``var/``, so a developer's ``make run`` is not
in the way), on its own redis-server and free ports.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.conftest import ROOT, free_port, wait_until


@pytest.fixture
def own_redis() -> Iterator[str]:
    """A redis-server of this test alone (no persistence); its URL."""
    program = shutil.which("redis-server")
    if program is None:
        pytest.fail("redis-server is not installed (make test installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    wait_until(lambda: bool(redis.Redis.from_url(url).ping()), 10, "redis-server")
    yield url
    proc.terminate()
    proc.wait(10)


def _children() -> dict[int, list[int]]:
    """ppid → pids, from /proc."""
    out: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.setdefault(ppid, []).append(int(entry))
    return out


def _tree(pid: int) -> list[int]:
    """Every process below ``pid``."""
    children, out, todo = _children(), [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _checkout(path: Path) -> Path:
    """A private checkout for scripts/run.sh: its own var/, the real code and venv."""
    (path / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "run.sh", path / "scripts" / "run.sh")
    shutil.copy(ROOT / "gunicorn.conf.py", path / "gunicorn.conf.py")
    for name in ("shared", "services"):
        (path / name).symlink_to(ROOT / name)
    (path / ".venv").symlink_to(Path(sys.prefix))
    return path


def _env(redis_url: str) -> tuple[dict[str, str], list[int]]:
    ports = [free_port(), free_port()]
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "MANHATTAN_PORT": str(ports[0]),
        "WINDCITY_PORT": str(ports[1]),
        "WORKER_METRICS_PORT": "0",
        "WEB_CONCURRENCY": "1",
        "WEBHOOK_SIGNING_KEY": "test-key",
        "PYTHONPATH": str(ROOT),
    }
    return env, ports


def _serving(pid: int, ports: list[int]) -> list[int]:
    """Wait until both services answer and the worker runs; every process below ``pid``."""

    def up() -> bool:
        ready = all(
            requests.get(f"http://127.0.0.1:{p}/readyz", timeout=2).status_code == 200
            for p in ports
        )
        return ready and any("shared.worker" in _cmdline(c) for c in _tree(pid))

    wait_until(up, 60, "make run's services and worker")
    tree = _tree(pid)
    names = " ".join(_cmdline(c) for c in tree)
    assert names.count("gunicorn") >= 4 and "shared.worker" in names  # 2 masters, 2 workers
    return tree


def _all_gone(tree: list[int], ports: list[int]) -> None:
    wait_until(lambda: not any(_alive(p) for p in tree), 20, "every process to stop")
    for port in ports:
        with pytest.raises(requests.ConnectionError):
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)


def _ignore_sigint() -> None:
    """As a non-interactive shell starts a background job (``make run &`` in a script)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "ignored"),
    [(signal.SIGTERM, False), (signal.SIGINT, False), (signal.SIGINT, True)],
    ids=["SIGTERM", "SIGINT", "SIGINT-ignored-on-entry"],
)
def test_a_signal_to_the_script_stops_everything_and_exits_0(
    own_redis: str, tmp_path: Path, sig: signal.Signals, ignored: bool
) -> None:
    """The script used to leave everything running on a SIGINT it had inherited ignored
    (a background job of a script or tool): bash cannot trap such a signal."""
    checkout = _checkout(tmp_path)
    env, ports = _env(own_redis)
    proc = subprocess.Popen(
        ["bash", "scripts/run.sh"],
        cwd=checkout, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
        preexec_fn=_ignore_sigint if ignored else None,
    )  # fmt: skip
    try:
        tree = _serving(proc.pid, ports)
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=40)
        assert proc.returncode == 0, out
        assert out.rstrip().endswith("stopped."), out
        _all_gone(tree, ports)
        assert not (checkout / "var" / "run.pid").exists()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in _tree(proc.pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("tmux") and shutil.which("make")), reason="tmux, make")
def test_ctrl_c_in_a_terminal_stops_everything_and_make_exits_0(
    own_redis: str, tmp_path: Path
) -> None:
    """Ctrl-C reaches the terminal's foreground process group, make included; make used to
    die of it (exit 130) whatever the script did. The script now takes the terminal's
    foreground for itself, so Ctrl-C reaches it alone, and make exits 0 after it."""
    checkout = _checkout(tmp_path)
    env, ports = _env(own_redis)
    makefile = checkout / "Makefile"  # the repository's recipe, without its set-up step
    makefile.write_text("run:\n\t@bash scripts/run.sh\n")
    names = ("REDIS_URL", "MANHATTAN_PORT", "WINDCITY_PORT", "WORKER_METRICS_PORT")
    exports = " ".join(f"{k}={env[k]}" for k in (*names, "WEB_CONCURRENCY", "WEBHOOK_SIGNING_KEY"))
    done = tmp_path / "make-exit"
    server = f"bgrun{os.getpid()}"
    tmux = ["tmux", "-L", server]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "run", "-x", "100", "-y", "30", "bash", "--norc"],
        check=True, cwd=tmp_path,
    )  # fmt: skip
    try:

        def typed(line: str) -> None:
            subprocess.run([*tmux, "send-keys", "-t", "run", "-l", line], check=True)
            subprocess.run([*tmux, "send-keys", "-t", "run", "Enter"], check=True)

        typed(f"cd {checkout} && {exports} make run")
        pid_file = checkout / "var" / "run.pid"
        wait_until(pid_file.exists, 30, "run.sh to start")
        script = int(pid_file.read_text())
        tree = _serving(script, ports)
        subprocess.run([*tmux, "send-keys", "-t", "run", "C-c"], check=True)
        typed(f"echo $? > {done}")  # make's exit status, once the shell is back
        wait_until(done.exists, 40, "make to exit")
        time.sleep(0.2)
        pane = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "run"], capture_output=True, text=True
        ).stdout
        assert done.read_text().strip() == "0", pane
        assert "stopped." in pane
        _all_gone([script, *tree], ports)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)

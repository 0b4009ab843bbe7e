"""Gunicorn settings shared by both services (`make run`, Docker, the tests).

gevent workers: a long-poll or SSE client waits on a Redis XREAD for up to 30 s;
with sync workers each waiting client would hold a whole process, with gevent it
holds only a greenlet, so thousands can wait while moves keep flowing.
"""

import os

from gunicorn.glogging import Logger

worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "2000"))
timeout = 60
graceful_timeout = 10
keepalive = 5
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# gunicorn's access log: off unless ACCESS_LOG names a file (`-`: stdout), and then without
# the query string, the Basic-auth user or any header (referer, user agent), as the app's
# own request lines (docs/operations.md, "Logs"): address, time, method, path, protocol,
# status, bytes, milliseconds.
accesslog = os.environ.get("ACCESS_LOG") or None
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'


class AccessLogOnlyIfAsked(Logger):
    """gunicorn's logger, whose access log is written only when ``accesslog`` is set:
    gunicorn also writes it for any ``logconfig_dict`` (which LOG_FORMAT=json sets), where
    every request would be logged twice, query string and user included."""

    def _compute_access_log_enabled(self) -> bool:
        return bool(self.cfg.accesslog)

    def access(self, resp, req, environ, request_time) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


logger_class = AccessLogOnlyIfAsked
# SO_REUSEPORT (opt-in, GUNICORN_REUSE_PORT=1): each worker listens on a socket of its own
# and the kernel spreads new connections evenly over them, where on one shared socket the
# busiest worker may accept most of them. Measured both ways in docs/performance.md: it
# removed the occasional 100-260 ms tails of bench.waiters but not those of bench.load.
# Off by default: a worker that dies drops the connections queued on its own socket, and a
# sync or gthread worker busy with a long-poll would be handed connections the other
# worker could serve. When on, on_starting refuses a taken port (SO_REUSEPORT alone would
# let a second server share it silently).
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "").lower() in {"1", "true", "yes"}

# gunicorn's control socket (for `gunicornc`) defaults to one path in the home folder, so
# a second server on the machine cannot open it. scripts/run.sh gives each service its own
# under ./var/ (GUNICORN_CONTROL_SOCKET); without one it is off.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

# -- Prometheus multiprocess metrics (shared/ops/metrics.py, docs/operations.md) ------------
# Each worker writes its metric values to files in PROMETHEUS_MULTIPROC_DIR and any worker
# answering /metrics adds them all up. The directory must be this service's alone (two
# services sharing one would add their counts together) and empty at start (stale files
# of an earlier run would count again): one directory per service name and port under
# METRICS_DIR (default: <tmp>/boardgames-metrics), emptied when the master starts.


def _metrics_dir(server) -> str:
    import re
    import tempfile

    base = os.environ.get("METRICS_DIR") or os.path.join(
        tempfile.gettempdir(), "boardgames-metrics"
    )
    binds = "_".join(str(b) for b in server.cfg.bind)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{server.cfg.proc_name}-{binds}")
    return os.path.join(base, name)


def _refuse_taken_ports(server) -> None:
    """Fail as a server without SO_REUSEPORT would when a TCP address is taken."""
    import socket

    for address in server.cfg.address:
        if not isinstance(address, tuple) or not address[1]:
            continue  # a Unix socket, or a port the kernel picks
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address[:2])
            except OSError as error:
                server.log.error("Connection in use: %s (%s)", address, error)
                raise SystemExit(1) from None


def on_starting(server) -> None:
    """With SO_REUSEPORT (see reuse_port), a taken port refused; a fresh metrics
    directory for this service before any worker forks."""
    import shutil

    if server.cfg.reuse_port:
        _refuse_taken_ports(server)
    path = _metrics_dir(server)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path


def child_exit(server, worker) -> None:
    """Drop a dead worker's live gauges (its counters stay counted)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


# -- LOG_FORMAT=json: gunicorn's own lines as JSON too --------------------------------------
# (the app's: shared/http/middleware/request_log.py)
if os.environ.get("LOG_FORMAT", "").strip().lower() == "json":
    _json_formatter = {
        "()": "pythonjsonlogger.json.JsonFormatter",
        "fmt": "%(levelname)s %(name)s %(message)s",
        "rename_fields": {"levelname": "level", "name": "logger"},
        "timestamp": "time",
    }
    _handlers = {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stdout",
        },
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        },
    }
    if accesslog == "-":
        _handlers["access"] = {**_handlers["console"]}
    elif accesslog:
        _handlers["access"] = {
            "class": "logging.FileHandler",
            "formatter": "json",
            "filename": accesslog,
        }
    # Each of gunicorn's loggers to its own handler only: gunicorn's defaults let them
    # propagate to the root's handler too, so every line came out twice. No "level": the
    # error log keeps gunicorn's --log-level.
    logconfig_dict = {
        "formatters": {"json": _json_formatter},
        "handlers": _handlers,
        "root": {"level": "INFO", "handlers": ["console"]},
        "loggers": {
            "gunicorn.error": {"handlers": ["error_console"], "propagate": False},
            "gunicorn.access": {
                "handlers": ["access"] if accesslog else [],
                "propagate": False,
            },
        },
    }


def post_worker_init(worker: object) -> None:
    """gunicorn's own refusals (414, 431, 400 before Flask runs) in problem+json; then
    everything the loaded app holds is moved out of the garbage collector's sight, and full
    collections made ten times rarer.

    The app's modules, tables and engines live as long as the worker, yet every full
    collection walked them again: 70-110 ms a collection in a game worker under load
    (``gc.callbacks`` timings with 1,000 waiting clients), a stall for every request in
    that worker. ``gc.freeze()`` leaves collections only what requests make. What they
    make is still a lot with 1,000 long-polls parked (their requests, greenlets and
    connections): a full collection then took 23-48 ms, several a worker in 8 s of half
    load, and they set the POST p99. A full collection after every 100 collections of the
    middle generation instead of every 10 (``gc.set_threshold(700, 10, 100)``) halved that
    p99 in alternate runs (docs/performance.md, "the pipe"); garbage in cycles that
    survived two collections waits longer to be freed."""
    import gc

    from shared.http import gunicorn_errors

    gunicorn_errors.install()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)

"""Gunicorn settings shared by both services (`make run`, Docker, the tests).

gevent workers: a long-poll or SSE client waits on a Redis XREAD for up to 30 s;
with sync workers each waiting client would hold a whole process, with gevent it
holds only a greenlet, so thousands can wait while moves keep flowing.
"""

import os

worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "2000"))
timeout = 60
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("ACCESS_LOG") or None
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# SO_REUSEPORT (opt-in): the kernel spreads new connections evenly over the workers
# instead of letting the busiest one accept most of them (a shorter latency tail in
# bench/load.py). Off by default: with it, a second server started on a taken port
# shares it silently instead of failing with "address already in use".
reuse_port = os.environ.get("GUNICORN_REUSE_PORT", "").lower() in {"1", "true", "yes"}

# gunicorn's control socket (for `gunicornc`) defaults to one path in the home folder, so
# a second server on the machine cannot open it. scripts/run.sh gives each service its own
# under ./var/ (GUNICORN_CONTROL_SOCKET); without one it is off.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

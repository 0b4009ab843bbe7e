#!/usr/bin/env bash
# `make run`: make sure a Redis answers (start a local one under ./var/ if needed), then
# serve both games under gunicorn, with the worker, until SIGINT (Ctrl-C), SIGTERM or
# SIGHUP: each of these stops every service and the worker, and the script exits 0.
# (A service that stops by itself stops the others too, and the script exits non-zero.)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
PY=$BIN/python
[ -x "$PY" ] || PY=python3

# Signals, before anything else. Two things stood in the way of "stop everything and
# exit 0":
# - A script started in the background by a non-interactive shell (`make run &` in a
#   script or a tool) inherits SIGINT ignored, and bash cannot trap a signal that was
#   ignored on entry: `kill -INT` did nothing at all.
# - Ctrl-C goes to the terminal's whole foreground process group, make included, and
#   make then dies of SIGINT (exit 130) whatever this script does.
# So the script starts over once through a few lines of Python: the signals a shell or
# Python may have left ignored back to their defaults and, when it runs in the
# terminal's foreground, in a process group of its own that becomes the foreground
# one. Ctrl-C then reaches this script alone; it stops everything and exits 0, and
# make exits 0 after it. The terminal goes back to make's group when the script ends.
if [ -z "${BOARDGAMES_RUN_SIGNALS+set}" ]; then
  export BOARDGAMES_RUN_SIGNALS=1
  exec "$PY" -c '
import os, signal, sys
for name in ("SIGINT", "SIGQUIT", "SIGTERM", "SIGHUP", "SIGPIPE", "SIGXFSZ"):
    signal.signal(getattr(signal, name), signal.SIG_DFL)
try:
    foreground = os.isatty(0) and os.tcgetpgrp(0) == os.getpgrp()
except OSError:
    foreground = False
if foreground:
    before = os.getpgrp()
    try:
        os.setpgid(0, 0)
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.tcsetpgrp(0, os.getpgrp())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.environ["BOARDGAMES_RUN_TTY_PGRP"] = str(before)
    except OSError:
        pass
os.execvp("bash", ["bash", *sys.argv[1:]])
' "$0" "$@"
fi
unset BOARDGAMES_RUN_SIGNALS

HOST=${BIND_HOST:-127.0.0.1}
MANHATTAN_PORT=${MANHATTAN_PORT:-8001}
WINDCITY_PORT=${WINDCITY_PORT:-8002}
STOP_SECONDS=15 # then whatever is left is killed
RUN_DIR=$PWD/var # the lock, the pid file, control sockets, the webhook key, Redis's data
mkdir -p "$RUN_DIR"

pids=()  # the servers and the worker, each the leader of its own process group
sigs=()  # the signal that stops each quickly: INT for gunicorn, TERM for the worker
stopping=0
force=0
locked=0 # this script holds the lock (and wrote the pid file)

give_back_terminal() {
  [ -n "${BOARDGAMES_RUN_TTY_PGRP+set}" ] || return 0
  "$PY" -c '
import os, signal, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
os.tcsetpgrp(0, int(sys.argv[1]))
' "$BOARDGAMES_RUN_TTY_PGRP" 2>/dev/null || true
}

running() { # whether any server or the worker is still there
  local pid
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null && return 0
  done
  return 1
}

stop() { # every server and the worker; SIGKILL whatever is left after STOP_SECONDS
  [ "$stopping" = 0 ] || return 0
  stopping=1
  trap 'force=1' INT TERM HUP  # a second Ctrl-C: kill them now
  local i pid
  for i in "${!pids[@]}"; do
    kill -"${sigs[$i]}" "${pids[$i]}" 2>/dev/null || true
  done
  for ((i = 0; i < STOP_SECONDS * 10 && force == 0; i++)); do
    running || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do # a group with members left (a hung worker, orphans)
    if kill -0 -- "-$pid" 2>/dev/null; then
      echo "warning: process group $pid did not stop in time; killing it" >&2
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
  done
  wait 2>/dev/null || true
  [ "$locked" = 0 ] || rm -f "$RUN_DIR/run.pid"
  give_back_terminal
}
trap 'stop; echo "stopped."; exit 0' INT TERM HUP
trap stop EXIT

die() { echo "error: $*" >&2; exit 1; }

# One `make run` per checkout: a second one says so in one line instead of a page of
# gunicorn's "address already in use" retries.
exec 9>"$RUN_DIR/run.lock"
flock -n 9 || die "make run is already running in this checkout (pid $(cat "$RUN_DIR/run.pid" 2>/dev/null || echo '?')); stop it with Ctrl-C first"
locked=1
echo $$ >"$RUN_DIR/run.pid"

port_taken() { # host port: something already listens there
  "$PY" - "$HOST" "$1" <<'PY'
import socket, sys
with socket.socket() as s:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind((sys.argv[1], int(sys.argv[2])))
    except OSError:
        sys.exit(0)
sys.exit(1)
PY
}
for port in "$MANHATTAN_PORT" "$WINDCITY_PORT"; do
  if port_taken "$port"; then
    die "port $port on $HOST is already in use (another server?); free it or set MANHATTAN_PORT/WINDCITY_PORT"
  fi
done

redis_answers() {
  "$PY" - "$1" <<'PY' 2>/dev/null
import sys, redis
redis.Redis.from_url(sys.argv[1], socket_connect_timeout=0.5).ping()
PY
}

if [ -z "${REDIS_URL:-}" ]; then
  REDIS_URL=redis://127.0.0.1:${REDIS_PORT:-6379}/0
  if redis_answers "$REDIS_URL"; then
    echo "Using the Redis that already answers at $REDIS_URL"
  else
    bash scripts/need_redis_server.sh
    echo "Starting a local Redis (append-only, data in ./var/) at $REDIS_URL"
    redis-server --daemonize yes --bind 127.0.0.1 --port "${REDIS_PORT:-6379}" \
      --dir "$RUN_DIR" --appendonly yes --save "" --stream-node-max-bytes 1024 \
      --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" 9>&-
    for _ in $(seq 50); do redis_answers "$REDIS_URL" && break; sleep 0.1; done
    redis_answers "$REDIS_URL" || die "Redis did not start; see var/redis.log"
  fi
elif ! redis_answers "$REDIS_URL"; then
  echo "warning: REDIS_URL=$REDIS_URL does not answer yet; the services report not ready until it does" >&2
fi
export REDIS_URL
# webhook secrets derive from WEBHOOK_SIGNING_KEY: keep one generated key under ./var/
if [ -z "${WEBHOOK_SIGNING_KEY:-}" ]; then
  [ -s "$RUN_DIR/webhook_signing_key" ] || (umask 077 && head -c 32 /dev/urandom | base64 >"$RUN_DIR/webhook_signing_key")
  WEBHOOK_SIGNING_KEY="$(cat "$RUN_DIR/webhook_signing_key")"
fi
export WEBHOOK_SIGNING_KEY

# Each server and the worker in a process group of its own (job control on while they
# start): Ctrl-C reaches this script alone, which stops each of them once, so no
# gunicorn worker sees two signals (a gevent traceback).
set -m
serve() { # name module port
  GUNICORN_CONTROL_SOCKET="$RUN_DIR/$1.ctl" "$BIN/gunicorn" -c gunicorn.conf.py \
    --log-level "${GUNICORN_LOG_LEVEL:-warning}" --bind "$HOST:$3" --name "$1" \
    "services.$2.app:create_app()" 9>&- &
  pids+=($!)
  sigs+=(INT) # gunicorn: quick shutdown
  echo "$1: http://$HOST:$3  (docs: http://$HOST:$3/docs)"
}
serve manhattan manhattan "$MANHATTAN_PORT"
[ -f services/windcity/app.py ] && serve windcity windcity "$WINDCITY_PORT"
# one worker plays bot seats and timeouts of both games (any number may run)
WORKER_METRICS_PORT=${WORKER_METRICS_PORT:-9100} "$PY" -m shared.worker 9>&- &
pids+=($!)
sigs+=(TERM) # the worker stops after its tick (SIGINT while it imports: a traceback)
set +m
echo "worker: plays bots and turn timeouts (WORKER_GAMES=${WORKER_GAMES:-manhattan,windcity}; metrics: http://127.0.0.1:${WORKER_METRICS_PORT:-9100}/metrics)"
echo "Redis: $REDIS_URL.  Ctrl-C stops the services."

# Until a signal (the trap above exits 0) or one of them stops by itself.
set +e
wait -n
code=$?
echo "error: a service or the worker stopped by itself (exit $code); stopping the others" >&2
exit $((code == 0 ? 1 : code))

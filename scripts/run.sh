#!/usr/bin/env bash
# `make run`: make sure a Redis answers (start a local one under ./var/ if needed),
# then serve both games under gunicorn until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
HOST=${BIND_HOST:-127.0.0.1}
MANHATTAN_PORT=${MANHATTAN_PORT:-8001}
WINDCITY_PORT=${WINDCITY_PORT:-8002}
mkdir -p var

die() { echo "error: $*" >&2; exit 1; }

# One `make run` per checkout: a second one says so in one line instead of a page of
# gunicorn's "address already in use" retries.
exec 9>var/run.lock
flock -n 9 || die "make run is already running in this checkout (pid $(cat var/run.pid 2>/dev/null || echo '?')); stop it with Ctrl-C first"
echo $$ >var/run.pid

port_taken() { # host port: something already listens there
  "$BIN/python" - "$HOST" "$1" <<'PY'
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
  "$BIN/python" - "$1" <<'PY' 2>/dev/null
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
      --dir "$PWD/var" --appendonly yes --save "" --stream-node-max-bytes 1024 \
      --pidfile "$PWD/var/redis.pid" --logfile "$PWD/var/redis.log" 9>&-
    for _ in $(seq 50); do redis_answers "$REDIS_URL" && break; sleep 0.1; done
    redis_answers "$REDIS_URL" || die "Redis did not start; see var/redis.log"
  fi
elif ! redis_answers "$REDIS_URL"; then
  echo "warning: REDIS_URL=$REDIS_URL does not answer yet; the services report not ready until it does" >&2
fi
export REDIS_URL
# webhook secrets derive from WEBHOOK_SIGNING_KEY: keep one generated key under ./var/
if [ -z "${WEBHOOK_SIGNING_KEY:-}" ]; then
  [ -s var/webhook_signing_key ] || (umask 077 && head -c 32 /dev/urandom | base64 >var/webhook_signing_key)
  WEBHOOK_SIGNING_KEY="$(cat var/webhook_signing_key)"
fi
export WEBHOOK_SIGNING_KEY

# Each gunicorn in its own process group (job control on): Ctrl-C reaches this script
# alone, which stops each server once, so no worker sees two signals (a gevent traceback).
set -m
pids=()
serve() { # name module port
  GUNICORN_CONTROL_SOCKET="$PWD/var/$1.ctl" "$BIN/gunicorn" -c gunicorn.conf.py \
    --log-level "${GUNICORN_LOG_LEVEL:-warning}" --bind "$HOST:$3" --name "$1" \
    "services.$2.app:create_app()" 9>&- &
  pids+=($!)
  echo "$1: http://$HOST:$3  (docs: http://$HOST:$3/docs)"
}
stop() { # quick shutdown of every server, then wait for them
  trap - INT TERM EXIT
  kill -INT "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -f var/run.pid
}
trap 'stop; echo "stopped."; exit 0' INT TERM
trap stop EXIT
serve manhattan manhattan "$MANHATTAN_PORT"
[ -f services/windcity/app.py ] && serve windcity windcity "$WINDCITY_PORT"
# one worker plays bot seats and timeouts of both games (any number may run)
WORKER_METRICS_PORT=${WORKER_METRICS_PORT:-9100} "$BIN/python" -m shared.worker 9>&- &
pids+=($!)
echo "worker: plays bots and turn timeouts (WORKER_GAMES=${WORKER_GAMES:-manhattan,windcity}; metrics: http://127.0.0.1:${WORKER_METRICS_PORT:-9100}/metrics)"
echo "Redis: $REDIS_URL.  Ctrl-C stops the services."
wait -n

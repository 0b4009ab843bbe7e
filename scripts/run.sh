#!/usr/bin/env bash
# `make run`: make sure a Redis answers (start a local one under ./var/ if needed),
# then serve both games under gunicorn until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
HOST=${BIND_HOST:-127.0.0.1}
mkdir -p var

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
      --dir "$PWD/var" --appendonly yes --save "" \
      --pidfile "$PWD/var/redis.pid" --logfile "$PWD/var/redis.log"
    for _ in $(seq 50); do redis_answers "$REDIS_URL" && break; sleep 0.1; done
    redis_answers "$REDIS_URL" || { echo "error: Redis did not start; see var/redis.log" >&2; exit 1; }
  fi
elif ! redis_answers "$REDIS_URL"; then
  echo "warning: REDIS_URL=$REDIS_URL does not answer yet; the services report not ready until it does" >&2
fi
export REDIS_URL

pids=()
serve() { # name module port
  "$BIN/gunicorn" -c gunicorn.conf.py --bind "$HOST:$3" --name "$1" "services.$2.app:create_app()" &
  pids+=($!)
  echo "$1: http://$HOST:$3  (docs: http://$HOST:$3/docs)"
}
trap 'kill "${pids[@]}" 2>/dev/null; wait' INT TERM EXIT
serve manhattan manhattan "${MANHATTAN_PORT:-8001}"
[ -f services/windcity/app.py ] && serve windcity windcity "${WINDCITY_PORT:-8002}"
echo "Redis: $REDIS_URL.  Ctrl-C stops the services."
wait -n

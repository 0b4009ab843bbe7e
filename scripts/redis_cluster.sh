#!/usr/bin/env bash
# A Redis Cluster on loopback, for the scale-out bench, the API tests and the failover
# rehearsal: three primaries and three replicas by default.
#   scripts/redis_cluster.sh start   # prints REDIS_URL=... REDIS_CLUSTER=1
#   scripts/redis_cluster.sh stop
#   scripts/redis_cluster.sh status  # each node's state and role
# Settings: CLUSTER_PORTS (default "7101 7102 7103 7104 7105 7106"), CLUSTER_REPLICAS
# (replicas per primary; default 1 with six ports or more, else 0: the test session's
# three ports make three primaries and no replicas), CLUSTER_NODE_TIMEOUT (ms before a
# silent primary is failed over, default 5000), CLUSTER_DIR (default ./var/cluster).
# Each node: --cluster-enabled yes, append-only, its own dir; bus port = port + 10000.
set -euo pipefail
cd "$(dirname "$0")/.."
PORTS=(${CLUSTER_PORTS:-7101 7102 7103 7104 7105 7106})
DIR=${CLUSTER_DIR:-$PWD/var/cluster}
if [ "${#PORTS[@]}" -ge 6 ]; then default_replicas=1; else default_replicas=0; fi
REPLICAS=${CLUSTER_REPLICAS:-$default_replicas}
NODE_TIMEOUT=${CLUSTER_NODE_TIMEOUT:-5000}

ping() { redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null | grep -q PONG; }

start() {
  command -v redis-server >/dev/null || bash scripts/need_redis_server.sh
  for p in "${PORTS[@]}"; do
    if ping "$p"; then echo "error: something already answers on 127.0.0.1:$p" >&2; exit 1; fi
  done
  mkdir -p "$DIR"
  for p in "${PORTS[@]}"; do
    mkdir -p "$DIR/$p"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$p" \
      --cluster-enabled yes --cluster-config-file "$DIR/$p/nodes.conf" --cluster-node-timeout "$NODE_TIMEOUT" \
      --dir "$DIR/$p" --appendonly yes --save "" --maxclients 10000 \
      --pidfile "$DIR/$p/redis.pid" --logfile "$DIR/$p/redis.log"
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 100); do ping "$p" && break; sleep 0.05; done
    ping "$p" || { echo "error: node $p did not start; see $DIR/$p/redis.log" >&2; exit 1; }
  done
  nodes=()
  for p in "${PORTS[@]}"; do nodes+=("127.0.0.1:$p"); done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >"$DIR/create.log"
  for _ in $(seq 200); do
    ok=1
    for p in "${PORTS[@]}"; do
      redis-cli -p "$p" cluster info | grep -q 'cluster_state:ok' || ok=0
    done
    [ "$ok" = 1 ] && break
    sleep 0.05
  done
  [ "$ok" = 1 ] || { echo "error: the cluster did not reach state ok; see $DIR/create.log" >&2; exit 1; }
  if [ "$REPLICAS" -gt 0 ]; then  # every replica's link to its primary up (WAIT counts on it)
    for _ in $(seq 200); do
      ok=1
      for p in "${PORTS[@]}"; do
        info=$(redis-cli -p "$p" info replication)
        if grep -q 'role:slave' <<<"$info" && ! grep -q 'master_link_status:up' <<<"$info"; then ok=0; fi
      done
      [ "$ok" = 1 ] && break
      sleep 0.05
    done
    [ "$ok" = 1 ] || { echo "error: the replicas did not sync; see $DIR/*/redis.log" >&2; exit 1; }
  fi
  echo "REDIS_URL=redis://127.0.0.1:${PORTS[0]}/0 REDIS_CLUSTER=1"
}

stop() {
  for p in "${PORTS[@]}"; do
    if [ -f "$DIR/$p/redis.pid" ]; then
      kill "$(cat "$DIR/$p/redis.pid")" 2>/dev/null || true
    fi
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 100); do ping "$p" || break; sleep 0.05; done
  done
  rm -rf "$DIR"
}

status() {
  for p in "${PORTS[@]}"; do
    printf '%s: ' "$p"
    state=$(redis-cli -p "$p" cluster info 2>/dev/null | grep cluster_state | tr -d '\r') || state=""
    if [ -z "$state" ]; then echo down; continue; fi
    role=$(redis-cli -p "$p" info replication | grep '^role:' | tr -d '\r')
    echo "$state $role"
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac

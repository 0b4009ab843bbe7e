#!/usr/bin/env bash
# Makes sure the redis-server program exists (tests start their own server with it).
set -euo pipefail
command -v redis-server >/dev/null && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's redis-server package ..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  # Debian's package may start a system server; we only need the program.
  exit 0
fi
echo "error: redis-server is not installed; install it with: sudo apt-get install redis-server" >&2
exit 1

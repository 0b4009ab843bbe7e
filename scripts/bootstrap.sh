#!/usr/bin/env bash
# Creates the virtual environment and installs the project: `bootstrap.sh VENV` the
# runtime dependencies alone (`make run`), `bootstrap.sh VENV dev,rl` with the dev and
# rl extras too (tests and linters; rl: PettingZoo for the environments tests/rl tests).
# The editable install also records the games' entry points (shared/registry.py): run
# it again when they change.
set -euo pipefail
venv=${1:-.venv}
extras=${2:-}
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "error: $py not found; install Python 3.11+" >&2; exit 1; }
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
  { echo "error: Python 3.11+ is needed ($("$py" --version))" >&2; exit 1; }
if [ ! -x "$venv/bin/python" ]; then
  if ! "$py" -m venv "$venv" 2>/dev/null; then
    rm -rf "$venv"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "installing Debian's python3-venv ..."
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
      "$py" -m venv "$venv"
    else
      echo "error: '$py -m venv' failed; install it with: sudo apt-get install python3-venv" >&2
      exit 1
    fi
  fi
fi
"$venv/bin/python" -m pip install -q --upgrade pip
if [ -n "$extras" ]; then
  "$venv/bin/python" -m pip install -q -e ".[$extras]"
else
  "$venv/bin/python" -m pip install -q -e .
fi

#!/usr/bin/env bash
# Makes sure Chromium exists for the browser tests (tests/web drive Debian's chromium
# with Playwright; Playwright's own browser download is not used).
set -euo pipefail
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium package (for the browser tests) ..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "error: chromium is not installed; install it with: sudo apt-get install chromium" >&2
exit 1

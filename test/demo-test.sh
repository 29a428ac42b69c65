#!/usr/bin/env bash
# demo-test.sh -- make demo as a new user meets it: the banner comes only once the server is
# ready (after its "listening" line, with /readyz answering 200) and shows the raised session
# cap; the README's curl walkthrough runs as written and answers as its comments say; a second
# make demo on the same port fails with the port hint and shows no URL.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
first="$(mktemp)"; second="$(mktemp)"
cleanup() {
  local pid
  pid="$(ss -Htlnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)"
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  wait 2>/dev/null
  rm -f "$first" "$second"
}
trap cleanup EXIT
fail() { echo "demo-test: $*"; echo "--- first make demo:"; cat "$first"; echo "--- second:"; cat "$second"; exit 1; }

MCP_PORT="$port" MCP_LOG_FORMAT=json make -s demo >"$first" 2>&1 &
for _ in $(seq 100); do grep -q "mcp-gemstone demo: " "$first" && break; sleep 0.2; done
grep -q "mcp-gemstone demo: http://127.0.0.1:$port/mcp" "$first" || fail "no banner with the URL within 20 s"
grep -q "at most 20 sessions" "$first" || fail "the banner does not show the demo's session cap"
[ "$(grep -n '"message":"listening"' "$first" | cut -d: -f1)" -lt "$(grep -n 'mcp-gemstone demo: ' "$first" | cut -d: -f1)" ] ||
  fail "the banner came before the server listened"
curl -fsS "http://127.0.0.1:$port/readyz" | grep -q '"status":"ready"' || fail "/readyz is not ready after the banner"

# The README's curl walkthrough, run as it is written against this server.
walk="$(mktemp)"
awk '/^Once it prints its URL, in a second shell/ {want=1; next} want && /^```sh$/ {on=1; next} on && /^```$/ {exit} on {print}' README.md |
  sed "s|http://127.0.0.1:8000/mcp|http://127.0.0.1:$port/mcp|" >"$walk"
[ -s "$walk" ] || fail "README.md's walkthrough block was not found"
walked="$(timeout 60 bash "$walk" 2>&1)"; rm -f "$walk"
count() { grep -c -- "$1" <<<"$walked"; }
[ "$(count 'HTTP/1.1 202')" -ge 3 ] && [ "$(count 'HTTP/1.1 204')" -eq 1 ] && [ "$(count 'HTTP/1.1 404')" -eq 2 ] &&
  grep -q '"text":"hello"' <<<"$walked" && grep -q '"id":5,"result":{}' <<<"$walked" && grep -q '"sessionGone"' <<<"$walked" ||
  { echo "--- walkthrough output:"; echo "$walked"; fail "the README walkthrough did not answer as its comments say"; }

MCP_PORT="$port" MCP_LOG_FORMAT=json timeout 30 make -s demo >"$second" 2>&1 && fail "a second make demo on a taken port succeeded"
grep -q "port $port is in use" "$second" && grep -q "MCP_PORT" "$second" || fail "the second make demo does not name the taken port and MCP_PORT"
! grep -q "mcp-gemstone demo: " "$second" || fail "the second make demo printed a URL banner"
echo "demo-test: banner once ready, the README walkthrough as written, taken port refused with its hint"

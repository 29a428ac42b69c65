#!/usr/bin/env bash
# demo-test.sh -- make demo and make demo-fixtures as a new user meets them. For each: the banner
# comes only once the server is ready (after its "listening" line, with /readyz answering 200),
# shows the raised session cap and says what serves the tools; docs/demo.md's curl block for it runs
# as written and answers as its comments say; a second run on the same port fails with the port
# hint and shows no URL. make demo serves the real tools over the model of GemStone, whose stone
# starts with the server and stops with it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
url="http://127.0.0.1:$port/mcp"
stone_sock="build/demo-model/stone-$port.sock"
first="$(mktemp)"; second="$(mktemp)"; target=demo
listener() { ss -Htlnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1; }
cleanup() {
  local pid
  pid="$(listener)"
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  wait 2>/dev/null
  rm -f "$first" "$second"
}
trap cleanup EXIT
fail() { echo "demo-test: make $target: $*"; echo "--- first make $target:"; cat "$first"; echo "--- second:"; cat "$second"; exit 1; }

# start_demo runs make $target in the background and checks its banner; $banner_pid is the make.
start_demo() {
  : >"$first"; : >"$second"
  MCP_PORT="$port" MCP_LOG_FORMAT=json make -s "$target" >"$first" 2>&1 &
  banner_pid=$!
  for _ in $(seq 150); do grep -q "mcp-gemstone demo: " "$first" && break; sleep 0.2; done
  grep -q "mcp-gemstone demo: $url" "$first" || fail "no banner with the URL within 30 s"
  grep -q "at most 20 sessions" "$first" || fail "the banner does not show the demo's session cap"
  [ "$(grep -n '"message":"listening"' "$first" | cut -d: -f1)" -lt "$(grep -n 'mcp-gemstone demo: ' "$first" | cut -d: -f1)" ] ||
    fail "the banner came before the server listened"
  curl -fsS "http://127.0.0.1:$port/readyz" | grep -q '"status":"ready"' || fail "/readyz is not ready after the banner"
}

# walk runs docs/demo.md's sh block that follows the line starting with $1, against this server.
walk() {
  local file out
  file="$(mktemp)"
  awk -v marker="$1" 'index($0, marker) == 1 {want=1; next} want && /^```sh$/ {on=1; next} on && /^```$/ {exit} on {print}' docs/demo.md |
    sed "s|http://127.0.0.1:8000/mcp|$url|" >"$file"
  [ -s "$file" ] || fail "docs/demo.md's block after '$1' was not found"
  out="$(timeout 60 bash "$file" 2>&1)"; rm -f "$file"
  printf '%s' "$out"
}

# taken_port runs make $target a second time on the port the first holds.
taken_port() {
  MCP_PORT="$port" MCP_LOG_FORMAT=json timeout 30 make -s "$target" >"$second" 2>&1 && fail "a second run on a taken port succeeded"
  { grep -q "port $port is in use" "$second" && grep -q "MCP_PORT" "$second"; } ||
    fail "the second run does not name the taken port and MCP_PORT"
  ! grep -q "mcp-gemstone demo: " "$second" || fail "the second run printed a URL banner"
}

# stop_demo ends the server with SIGTERM and waits for the make to exit.
stop_demo() {
  local pid
  pid="$(listener)"
  [ -n "$pid" ] || fail "nothing listens on $port to stop"
  kill -TERM "$pid"
  for _ in $(seq 100); do kill -0 "$banner_pid" 2>/dev/null || break; sleep 0.1; done
  ! kill -0 "$banner_pid" 2>/dev/null || fail "make did not exit within 10 s of the server's SIGTERM"
  wait "$banner_pid" 2>/dev/null
}

# ---- make demo: the real tools over the model of GemStone --------------------------------------
start_demo
{ grep -q "a MODEL of GemStone" "$first" && grep -q "NOT GemStone" "$first"; } ||
  fail "the banner does not say the tools run on a model of GemStone, not GemStone"
[ -S "$stone_sock" ] || fail "no model stone listens on $stone_sock"
tools="$(curl -s "$url" -H 'Content-Type: application/json' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo-test","version":"1"}}}' -D - -o /dev/null |
  sed -n 's/^mcp-session-id: *//Ip' | tr -d '\r')"
[ -n "$tools" ] || fail "initialize opened no session"
tools="$(curl -s "$url" -H "Mcp-Session-Id: $tools" -H 'MCP-Protocol-Version: 2025-11-25' -H 'Content-Type: application/json' \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["result"]["tools"]))')"
[ "$tools" = 45 ] || fail "tools/list listed $tools tools, want the 45 real ones"
walked="$(walk 'Once it prints its URL, fix the sample')"
count() { grep -c -- "$1" <<<"$walked"; }
{ [ "$(count 'HTTP/1.1 202')" -eq 1 ] && [ "$(count 'HTTP/1.1 204')" -eq 1 ] &&
  grep -q '1 failed' <<<"$walked" && grep -q 'testInterestIsRoundedUp' <<<"$walked" &&
  grep -q '4 passed, 0 failed' <<<"$walked" && grep -q 'Committed' <<<"$walked" && ! grep -q '"isError":true' <<<"$walked"; } ||
  { echo "--- walkthrough output:"; echo "$walked"; fail "docs/demo.md's real-tools block did not answer as its comments say"; }
taken_port
! grep -q "gsmodel stone:" "$second" || fail "the second run started a model stone on a taken port"
stop_demo
[ ! -e "$stone_sock" ] || fail "the model stone's socket $stone_sock outlived the server"
! pgrep -f -- "-stone $PWD/$stone_sock" >/dev/null || fail "the model stone outlived the server"

# ---- make demo-fixtures: the stand-in's fixture tools -----------------------------------------
target=demo-fixtures
start_demo
grep -q "TEST FIXTURES, NOT GemStone" "$first" || fail "the banner does not say the tools are test fixtures"
walked="$(walk 'Once it prints its URL, in a second shell')"
{ [ "$(count 'HTTP/1.1 202')" -ge 3 ] && [ "$(count 'HTTP/1.1 204')" -eq 1 ] && [ "$(count 'HTTP/1.1 404')" -eq 2 ] &&
  grep -q '"text":"hello"' <<<"$walked" && grep -q '"id":5,"result":{}' <<<"$walked" && grep -q '"sessionGone"' <<<"$walked"; } ||
  { echo "--- walkthrough output:"; echo "$walked"; fail "docs/demo.md's fixture walkthrough did not answer as its comments say"; }
taken_port
stop_demo
echo "demo-test: make demo (the real tools over the model, its stone stopped with the server) and make demo-fixtures: banner once ready, docs/demo.md's blocks as written, taken port refused with its hint"

# shellcheck shell=bash
# Helpers shared by the proof scripts (conformance, clients, nginx): bin/mcp-gemstone on the GCI
# test stand-in, on a free loopback port, with its gems in a private session directory so that
# what it leaves behind can be counted.
#
# Callers set ROOT (the repository). GEMSTONE_STANDIN defaults to $ROOT/build/standin.

# start_server WORKDIR [NAME=value ...]: starts the server with its log in WORKDIR/server.log and
# its gems registered under WORKDIR/gems; sets SERVER_PID and SERVER_URL. Fails when the server
# does not say it is listening within 15 s.
start_server() {
  local work=$1
  shift
  local home=${GEMSTONE_STANDIN:-$ROOT/build/standin}
  if [ ! -x "$home/bin/standin-gem" ]; then
    echo "no stand-in at $home (bin/standin-gem): run make standin" >&2
    return 1
  fi
  mkdir -p "$work/gems"
  SERVER_GEMS=$work/gems
  env GEMSTONE="$home" GCI_LIBRARY= GCI_STANDIN_DIR="$SERVER_GEMS" GS_PASS=standin-password \
    MCP_HOST=127.0.0.1 MCP_PORT=0 MCP_LOG_FORMAT=json "$@" \
    "$ROOT/bin/mcp-gemstone" >"$work/server.log" 2>&1 &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 150; i++)); do
    SERVER_URL=$(grep -o '"url":"http://[^"]*"' "$work/server.log" | head -n1 | cut -d'"' -f4 || true)
    if [ -n "$SERVER_URL" ]; then
      return 0
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "the server exited at start:" >&2
      cat "$work/server.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "the server did not say it was listening within 15 s:" >&2
  cat "$work/server.log" >&2
  kill -KILL "$SERVER_PID" 2>/dev/null || true
  return 1
}

# stop_server: SIGTERM, then waits up to 30 s. Fails when the server does not exit, exits other
# than 0, or leaves a stand-in gem process alive.
stop_server() {
  local i rc=0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  for ((i = 0; i < 300; i++)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    echo "the server did not exit within 30 s of SIGTERM" >&2
    rc=1
  fi
  local code=0
  wait "$SERVER_PID" 2>/dev/null || code=$?
  if [ "$code" -ne 0 ]; then
    echo "the server exited $code after SIGTERM (want 0)" >&2
    rc=1
  fi
  local left
  left=$(live_gems "$SERVER_GEMS")
  if [ -n "$left" ]; then
    echo "stand-in gems left alive after the server stopped: $left" >&2
    # shellcheck disable=SC2086 # one pid per word
    kill -KILL $left 2>/dev/null || true
    rc=1
  fi
  return "$rc"
}

# live_gems DIR: pids of live (not zombie) stand-in gem processes registered under DIR.
live_gems() {
  local dir=$1 p pids=()
  for p in /proc/[0-9]*; do
    grep -q standin-gem "$p/cmdline" 2>/dev/null || continue
    tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qxF "GCI_STANDIN_DIR=$dir" || continue
    [ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" = Z ] && continue
    pids+=("${p#/proc/}")
  done
  echo "${pids[*]}"
}

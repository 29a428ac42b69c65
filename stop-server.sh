#!/usr/bin/env bash
# stop-server.sh PORT -- stop the mcp-gemstone server run-server.sh started on PORT, gracefully.
#
# SIGTERM first: the server stops accepting, logs every worker gem out and exits 0. If it is still
# running after MCP_STOP_GRACE seconds (default 45: the server's own MCP_SHUTDOWN_GRACE, 10 s, for
# running calls, plus up to 30 s to log its gems out), SIGKILL; its worker gems then end when their
# GCI connections drop, without a logout. Before signalling anything it checks that the pid really
# is our server: alive, an mcp-gemstone executable, and started when the pid file says (a recycled
# pid fails that). Without a pid file it looks for an mcp-gemstone listening on the port.
# Exit status: 0 stopped gracefully (or nothing was running); 2 stopped only by SIGKILL;
# 1 refused or failed (the process is left alone).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"
# shellcheck source=SCRIPTDIR/server-process.sh
. "$ROOT/server-process.sh"
gs_env_load_setenv || exit 1

PORT="${1:-${MCP_PORT:-}}"
[ -n "$PORT" ] || { echo "usage: $0 PORT" >&2; exit 1; }
server_valid_port "$PORT" || exit 1
GRACE="${MCP_STOP_GRACE:-45}"
PID_FILE="$(server_pid_file "$PORT")"

pid="" start=""
if [ -f "$PID_FILE" ]; then
  read -r pid start _ <"$PID_FILE" || true
  if ! kill -0 "${pid:-0}" 2>/dev/null; then
    echo "pid file $PID_FILE names pid $pid, which is not running; removing the stale pid file."
    rm -f "$PID_FILE"
    pid=""
  elif ! server_is_ours "$pid" "$start"; then
    server__err "pid $pid (from $PID_FILE) is not our server: it is $(server_proc_exe "$pid" || echo 'a process this user cannot inspect'), started $( [ "$(server_proc_start "$pid")" = "$start" ] && echo 'when recorded' || echo 'after the pid file was written')." \
      "Not signalling it. The server it recorded is gone; remove $PID_FILE once you have checked."
    exit 1
  fi
fi
if [ -z "$pid" ]; then
  holder="$(server_port_holder "$PORT")" || exit 1
  if [ -z "$holder" ]; then
    echo "nothing to stop: nothing is listening on port $PORT."
    exit 0
  fi
  pid="$(server_port_pid "$PORT")"
  if ! server_is_ours "$pid"; then
    server__err "port $PORT is held by $holder, which is not an mcp-gemstone server; not signalling it."
    exit 1
  fi
  start="$(server_proc_start "$pid")"
  echo "no pid file for port $PORT; found mcp-gemstone (pid $pid) listening on it."
fi

echo "stopping mcp-gemstone on port $PORT (pid $pid): SIGTERM, up to ${GRACE}s for its workers to log out ..."
kill -TERM "$pid"
deadline=$((SECONDS + GRACE))
while server_is_ours "$pid" "$start" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
if ! server_is_ours "$pid" "$start"; then
  rm -f "$PID_FILE"
  echo "stopped (after $((SECONDS + GRACE - deadline))s)."
  exit 0
fi
echo "still running after ${GRACE}s; sending SIGKILL. Its worker gems end without a logout." >&2
kill -KILL "$pid" 2>/dev/null || true
for _ in $(seq 1 50); do server_is_ours "$pid" "$start" || break; sleep 0.1; done
if server_is_ours "$pid" "$start"; then
  server__err "pid $pid survived SIGKILL"; exit 1
fi
rm -f "$PID_FILE"
echo "killed." >&2
exit 2

#!/usr/bin/env bash
# run-server.sh -- start bin/mcp-gemstone detached, on 127.0.0.1:$MCP_PORT (default 8000).
#
#   ./run-server.sh                                  serve /mcp on 127.0.0.1:8000
#   MCP_PORT=8011 ./run-server.sh                    another port (one server per port)
#   MCP_WORKER_USER=McpReadOnly ./run-server.sh      every worker gem as that restricted user
#   MCP_TOOLSETS="McpBrowsingToolset McpSearchToolset" ./run-server.sh
#
# Every MCP_* variable passes through to the server unchanged. GEMSTONE, GEMSTONE_GLOBAL_DIR,
# GCI_LIBRARY and MCP_NETLDI are resolved by gs-env.sh first (from .setenv too) and handed on, with
# GS_STONE as MCP_STONE, GS_USER as MCP_CONTROL_USER (and MCP_WORKER_USER unless set), and the
# password as MCP_PASSWORD_FILE when GS_PASS_FILE is set, else as GS_PASS -- never on a command
# line. The server keeps running after this shell exits (its own session, stdin closed).
#
# Refuses, before anything starts: a port already in use (naming who holds it), a server of ours
# already on the port, a missing binary, a stone or netldi that is not running. Then it waits until
# /healthz answers (MCP_START_TIMEOUT seconds, default 60) and its log reports the control session
# logged in (MCP_LOGIN_CHECK_TIMEOUT, default 30), and prints the URL, the pid, the log and how to
# stop it. A server that dies, does not answer, or cannot reach GemStone is reported with its log
# and stopped, and the exit status is non-zero.
#   MCP_STATE_DIR   pid and log files (default build/run); MCP_LOG_FILE overrides the log path
#   MCP_BIN         the server binary (default bin/mcp-gemstone)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"
[ $# -eq 0 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

gs_env_load_setenv || exit 1
PORT="${MCP_PORT:-8000}"
HOST="${MCP_HOST:-127.0.0.1}"
gs_env_valid_port "$PORT" || exit 1
BIN="${MCP_BIN:-$ROOT/bin/mcp-gemstone}"
STATE_DIR="$(gs_env_state_dir)"
PID_FILE="$(gs_env_pid_file "$PORT")"
LOG="${MCP_LOG_FILE:-$STATE_DIR/mcp-gemstone-$PORT.log}"
TIMEOUT="${MCP_START_TIMEOUT:-60}"

command -v curl >/dev/null || { gs_env__err "curl is not on PATH" "it is how this script knows the server answers; install curl"; exit 1; }
if [ ! -x "$BIN" ]; then
  gs_env__err "no server binary at $BIN" "build it: ./install.sh (or make build)"
  exit 1
fi
if [ -f "$PID_FILE" ]; then
  read -r old_pid old_start _ <"$PID_FILE" || true
  if gs_env_is_our_server "${old_pid:-}" "${old_start:-}"; then
    gs_env__err "an mcp-gemstone server is already running on port $PORT (pid $old_pid)" "stop it first: ./stop-server.sh $PORT"
    exit 1
  fi
  rm -f "$PID_FILE"
fi
holder="$(gs_env_port_holder "$PORT")" || exit 1
if [ -n "$holder" ]; then
  gs_env__err "port $PORT is already in use by $holder; nothing was started" \
    "choose another: MCP_PORT=<port> ./run-server.sh${holder:+, or stop what holds it}"
  exit 1
fi

gs_env_load || exit 1
gs_env_require_password || exit 1
gs_env_require_netldi "the server (one gem per MCP session, plus its control session)" || exit 1

mkdir -p "$STATE_DIR" "$(dirname "$LOG")"
(umask 077; touch "$LOG")
# The server's own names for what gs-env.sh resolved (internal/config): the stone, the control
# session's user, the workers' user (the control user unless MCP_WORKER_USER says otherwise), and
# the password as a file it reads itself when there is one.
export MCP_PORT="$PORT" MCP_HOST="$HOST" MCP_STONE="$GS_STONE" MCP_CONTROL_USER="$GS_USER"
export MCP_WORKER_USER="${MCP_WORKER_USER:-$GS_USER}"
if [ -n "${GS_PASS_FILE:-}" ]; then
  export MCP_PASSWORD_FILE="$GS_PASS_FILE"; unset GS_PASS
else
  export GS_PASS="$GS_ENV_PASSWORD"
fi
log_start=$(($(wc -l <"$LOG") + 1))
printf '\n=== %s run-server.sh: starting %s on %s:%s (stone %s, user %s, netldi %s)\n' \
  "$(date -u +%FT%TZ)" "$BIN" "$HOST" "$PORT" "$GS_STONE" "$GS_USER" "$MCP_NETLDI" >>"$LOG"

url_host="$(gs_env_url_host "$HOST")"
gs_env_launch_server http "$url_host" "$log_start" || exit 1
pid=$GS_ENV_SERVER_PID

echo "mcp-gemstone is serving http://$url_host:$PORT/mcp"
echo "  pid   $pid (pid file $PID_FILE)"
echo "  log   $LOG"
echo "  stop  ./stop-server.sh $PORT"

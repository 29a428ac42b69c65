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
HOST="${MCP_HOST:-127.0.0.1}"
command -v curl >/dev/null || { gs_env__err "curl is not on PATH" "it is how this script knows the server answers; install curl"; exit 1; }
gs_env_server_settings || exit 1
gs_env_claim_port ./run-server.sh || exit 1
gs_env_prepare_server || exit 1
# The server's own names for what gs-env.sh resolved (internal/config): the stone, the control
# session's user and the workers' user (the control user unless MCP_WORKER_USER says otherwise).
export MCP_PORT="$PORT" MCP_HOST="$HOST" MCP_STONE="$GS_STONE" MCP_CONTROL_USER="$GS_USER"
export MCP_WORKER_USER="${MCP_WORKER_USER:-$GS_USER}"
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

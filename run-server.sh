#!/usr/bin/env bash
# run-server.sh -- start bin/mcp-gemstone detached, on 127.0.0.1:$MCP_PORT (default 8000).
#
#   ./run-server.sh                                  serve /mcp on 127.0.0.1:8000
#   MCP_PORT=8011 ./run-server.sh                    another port (one server per port)
#   MCP_WORKER_USER=McpReadOnly ./run-server.sh      every worker gem as that restricted user
#   MCP_TOOLSETS="McpBrowsingToolset McpSearchToolset" ./run-server.sh
#
# Every MCP_* variable passes through to the server unchanged. GEMSTONE, GEMSTONE_GLOBAL_DIR,
# GCI_LIBRARY, GS_STONE, GS_USER and MCP_NETLDI are resolved by gs-env.sh first (from .setenv too)
# and handed on under those names, with MCP_WORKER_USER set to GS_USER unless given, and the
# password as GS_PASS_FILE when that is set (the server reads the file), else as GS_PASS -- never on
# a command line. The server keeps running after this shell exits (its own session, stdin closed).
#
# Refuses, before anything starts: a port already in use (naming who holds it), a server of ours
# already on the port, a missing binary, a stone or netldi that is not running. Then it waits until
# the server's GET /readyz answers ready (the client library loaded, the control session logged
# in): up to MCP_START_TIMEOUT seconds (default 60) for a first answer, then MCP_LOGIN_CHECK_TIMEOUT
# (default 30) for ready, and prints the URL, the pid, the log and how to stop it. A server that
# dies, does not answer, or cannot reach GemStone is reported with /readyz's reason and its log,
# and stopped, and the exit status is non-zero.
#   MCP_STATE_DIR   pid and log files (default build/run); MCP_LOG_FILE overrides the log path
#   MCP_BIN         the server binary (default bin/mcp-gemstone)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"
# shellcheck source=SCRIPTDIR/server-process.sh
. "$ROOT/server-process.sh"
[ $# -eq 0 ] || { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

gs_env_load_setenv || exit 1
HOST="${MCP_HOST:-127.0.0.1}"
command -v curl >/dev/null || { gs_env__err "curl is not on PATH" "it is how this script asks the server whether it is ready; install curl"; exit 1; }
server_settings || exit 1
server_claim_port ./run-server.sh || exit 1
gs_env_for_server "the server (one gem per MCP session, plus its control session)" || exit 1
server_open_log || exit 1
# The workers' user is the control session's unless MCP_WORKER_USER says otherwise.
export MCP_PORT="$SERVER_PORT" MCP_HOST="$HOST" MCP_WORKER_USER="${MCP_WORKER_USER:-$GS_USER}"
log_start=$(($(wc -l <"$SERVER_LOG") + 1))
printf '\n=== %s run-server.sh: starting %s on %s:%s (stone %s, user %s, netldi %s)\n' \
  "$(date -u +%FT%TZ)" "$SERVER_BIN" "$HOST" "$SERVER_PORT" "$GS_STONE" "$GS_USER" "$MCP_NETLDI" >>"$SERVER_LOG"

url_host="$(server_url_host "$HOST")"
server_launch http "$url_host" "$log_start" "to $GS_STONE as $GS_USER" || exit 1

echo "mcp-gemstone is serving http://$url_host:$SERVER_PORT/mcp"
echo "  pid   $SERVER_PID (pid file $SERVER_PID_FILE)"
echo "  log   $SERVER_LOG"
echo "  stop  ./stop-server.sh $SERVER_PORT"

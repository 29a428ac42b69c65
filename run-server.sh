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

# setsid puts the server in a session of its own, so a terminal's hangup or a Ctrl-C in this shell
# does not reach it; a non-leader caller makes setsid exec in place, so $! is the server's pid.
if command -v setsid >/dev/null; then
  setsid "$BIN" </dev/null >>"$LOG" 2>&1 &
else
  nohup "$BIN" </dev/null >>"$LOG" 2>&1 &
fi
pid=$!
sleep 0.2
start="$(gs_env_proc_start "$pid")"
echo "$pid ${start:-0} $PORT $BIN" >"$PID_FILE"

url_host="$HOST"
case "$HOST" in 0.0.0.0|"") url_host=127.0.0.1 ;; ::|"[::]") url_host="[::1]" ;; *:*) url_host="[$HOST]" ;; esac
health="http://$url_host:$PORT/healthz"
deadline=$((SECONDS + TIMEOUT))
while :; do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$PID_FILE"
    gs_env__err "the server exited during startup; the end of $LOG:"
    tail -n 20 "$LOG" | sed 's/^/    /' >&2
    exit 1
  fi
  if curl -fsS --max-time 2 -o /dev/null "$health" 2>/dev/null; then break; fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    gs_env__err "the server (pid $pid) did not answer $health within ${TIMEOUT}s; stopping it. The end of $LOG:"
    tail -n 20 "$LOG" | sed 's/^/    /' >&2
    "$ROOT/stop-server.sh" "$PORT" >&2 || true
    exit 1
  fi
  sleep 0.3
done

# /healthz answers as soon as the server listens; whether it reached GemStone shows in its log,
# where the control session's first login is reported (it is tried once at startup).
login=""
deadline=$((SECONDS + ${MCP_LOGIN_CHECK_TIMEOUT:-30}))
while [ "$SECONDS" -lt "$deadline" ]; do
  since="$(tail -n +"$log_start" "$LOG")"
  if grep -q 'GemStone client library not loaded' <<<"$since"; then login=nolib; break; fi
  if grep -q 'control session not logged in' <<<"$since"; then login=failed; break; fi
  if grep -q 'control session logged in' <<<"$since"; then login=ok; break; fi
  sleep 0.3
done
case "$login" in
  nolib|failed)
    gs_env__err "the server answers, but $([ "$login" = nolib ] && echo "could not load the GemStone client library" || echo "its control session could not log in to $GS_STONE as $GS_USER"); stopping it. From $LOG:"
    tail -n +"$log_start" "$LOG" | grep -E 'library|control session' | tail -n 5 | sed 's/^/    /' >&2
    "$ROOT/stop-server.sh" "$PORT" >/dev/null 2>&1 || true
    exit 1 ;;
  "") echo "warning: no login of the control session reported within ${MCP_LOGIN_CHECK_TIMEOUT:-30}s; see $LOG" >&2 ;;
esac

echo "mcp-gemstone is serving http://$url_host:$PORT/mcp"
echo "  pid   $pid (pid file $PID_FILE)"
echo "  log   $LOG"
echo "  stop  ./stop-server.sh $PORT"

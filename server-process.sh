# shellcheck shell=bash
# server-process.sh -- the mcp-gemstone server as a process: its port, its pid file, its start and
# what stop-server.sh needs to recognise it. SOURCED by run-server.sh, run-auth-server.sh and
# stop-server.sh; never run alone. It knows nothing of GemStone: the caller resolves and exports
# the server's environment (gs-env.sh) before server_launch, and passes what a message must name.
#
# In the order a run script calls them:
#   server_settings           SERVER_PORT, SERVER_BIN, SERVER_LOG ... from MCP_*, checked
#   server_claim_port RERUN   refuse a port our server or anything else holds
#   server_open_log           the state directory and a private log
#   server_launch SCHEME URL_HOST LOG_START LOGIN
#                             start detached; started means GET /readyz answered ready
# For stop-server.sh: server_pid_file, server_is_ours, server_proc_exe, server_proc_start,
# server_port_holder, server_port_pid, server_valid_port.
# Every function prints "error: ..." with the fix and returns non-zero; none exits.

SERVER_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

server__err() { printf 'error: %s\n' "$1" >&2; shift; local l; for l in "$@"; do printf '       %s\n' "$l" >&2; done; }

# A pid file per port, "<pid> <start time> <port> <binary>", under MCP_STATE_DIR. The start time
# (field 22 of /proc/<pid>/stat) is what makes a recycled pid detectable: a pid alone is not proof.
server_state_dir() { echo "${MCP_STATE_DIR:-$SERVER_ROOT/build/run}"; }
server_pid_file() { echo "$(server_state_dir)/mcp-gemstone-$1.pid"; }

# Where there is no /proc (macOS), ps answers the same two questions, less precisely.
server_proc_start() {
  if [ -r "/proc/$1/stat" ]; then awk '{print $22}' "/proc/$1/stat" 2>/dev/null || true
  elif [ ! -d /proc/self ]; then ps -o lstart= -p "$1" 2>/dev/null | tr -s ' ' '_' || true; fi
}

# The executable of a pid, without the " (deleted)" a rebuilt binary leaves behind.
server_proc_exe() {
  local e
  if [ -d /proc/self ]; then
    e="$(readlink "/proc/$1/exe" 2>/dev/null)" || return 1
  else
    e="$(ps -o comm= -p "$1" 2>/dev/null)" && [ -n "$e" ] || return 1
  fi
  echo "${e% (deleted)}"
}

# Succeeds when pid $1 is a live mcp-gemstone process started at time $2 (if given).
server_is_ours() {
  local pid="$1" start="${2:-}" exe
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  exe="$(server_proc_exe "$pid")" || return 1
  [ "$(basename "$exe")" = mcp-gemstone ] || return 1
  [ -z "$start" ] || [ "$(server_proc_start "$pid")" = "$start" ]
}

server_valid_port() {
  [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ] && return 0
  server__err "'$1' is not a TCP port (1-65535)"; return 1
}

# Prints who listens on TCP port $1 ("name pid=N"), empty when nobody. Fails when it cannot tell,
# because "cannot tell" must never read as "free".
server_port_holder() {
  local out
  if command -v ss >/dev/null 2>&1; then
    out="$(ss -Htlnp "sport = :$1" 2>/dev/null)" || { server__err "ss failed; cannot tell whether port $1 is in use"; return 1; }
    [ -n "$out" ] || return 0
    echo "$out" | sed -n 's/.*users:((\("[^"]*"\),pid=\([0-9]*\).*/\1 pid=\2/p' | head -n 1 | grep . || echo "a process this user cannot see"
  elif command -v lsof >/dev/null 2>&1; then
    out="$(lsof -nP -iTCP:"$1" -sTCP:LISTEN -Fcp 2>/dev/null)"
    [ -z "$out" ] || echo "\"$(sed -n 's/^c//p' <<<"$out" | head -n 1)\" pid=$(sed -n 's/^p//p' <<<"$out" | head -n 1)"
  elif (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    echo "an unknown process (install ss, from iproute2, to name it)"
  fi
}

# The pid of the process listening on port $1, when ss can see it.
server_port_pid() {
  if command -v ss >/dev/null 2>&1; then
    ss -Htlnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:(("[^"]*",pid=\([0-9]*\).*/\1/p' | head -n 1
  else
    lsof -nP -iTCP:"$1" -sTCP:LISTEN -t 2>/dev/null | head -n 1
  fi
}

# How this machine reaches a server listening on host $1 (a wildcard is reached on loopback; an
# IPv6 address goes in brackets).
server_url_host() {
  case "$1" in 0.0.0.0|"") echo 127.0.0.1 ;; ::|"[::]") echo "[::1]" ;; *:*) echo "[$1]" ;; *) echo "$1" ;; esac
}

# server_settings: the launch settings both run scripts read from MCP_* (PORT, BIN, STATE_DIR,
# LOG_FILE, START_TIMEOUT, LOGIN_CHECK_TIMEOUT), checked: a valid port, a built binary.
server_settings() {
  SERVER_PORT="${MCP_PORT:-8000}"
  server_valid_port "$SERVER_PORT" || return 1
  SERVER_BIN="${MCP_BIN:-$SERVER_ROOT/bin/mcp-gemstone}"
  SERVER_STATE_DIR="$(server_state_dir)"
  SERVER_PID_FILE="$(server_pid_file "$SERVER_PORT")"
  SERVER_LOG="${MCP_LOG_FILE:-$SERVER_STATE_DIR/mcp-gemstone-$SERVER_PORT.log}"
  SERVER_START_TIMEOUT="${MCP_START_TIMEOUT:-60}"
  SERVER_READY_TIMEOUT="${MCP_LOGIN_CHECK_TIMEOUT:-30}"
  if [ ! -x "$SERVER_BIN" ]; then
    server__err "no server binary at $SERVER_BIN" "build it: ./install.sh (or make build)"
    return 1
  fi
}

# server_claim_port RERUN: refuses (returns 1) when our server or anything else already holds
# SERVER_PORT, naming RERUN as the way to start on another port; a stale pid file is removed.
server_claim_port() {
  local old_pid old_start holder
  if [ -f "$SERVER_PID_FILE" ]; then
    read -r old_pid old_start _ <"$SERVER_PID_FILE" || true
    if server_is_ours "${old_pid:-}" "${old_start:-}"; then
      server__err "an mcp-gemstone server is already running on port $SERVER_PORT (pid $old_pid)" "stop it first: ./stop-server.sh $SERVER_PORT"
      return 1
    fi
    rm -f "$SERVER_PID_FILE"
  fi
  holder="$(server_port_holder "$SERVER_PORT")" || return 1
  if [ -n "$holder" ]; then
    server__err "port $SERVER_PORT is already in use by $holder; nothing was started" \
      "choose another: MCP_PORT=<port> $1, or stop what holds it"
    return 1
  fi
}

# The state directory and the log, which only this user may read (it names users and paths).
server_open_log() {
  mkdir -p "$SERVER_STATE_DIR" "$(dirname "$SERVER_LOG")" && (umask 077; touch "$SERVER_LOG")
}

# server_ready_answer URL: one GET of /readyz, printed as "ready", or as "<HTTP status> <reason>"
# (status 000 when nothing answered). -k: this asks only our own process whether it is ready; a
# certificate names the public host.
server_ready_answer() {
  local out code body
  out="$(curl -sSk --max-time 3 -w '\n%{http_code}' "$1" 2>/dev/null || true)"
  code="${out##*$'\n'}" body="${out%$'\n'*}"
  [[ "$code" =~ ^[0-9]{3}$ ]] || code=000
  if [ "$code" = 200 ] && [[ "$body" == *'"status":"ready"'* ]]; then echo ready; return; fi
  echo "$code $(sed -n 's/.*"reason":"\([^"]*\)".*/\1/p' <<<"$body")"
}

# server_launch SCHEME URL_HOST LOG_START LOGIN: start SERVER_BIN detached with its output appended
# to SERVER_LOG, record "pid start port binary" in SERVER_PID_FILE, and wait until
# SCHEME://URL_HOST:SERVER_PORT/readyz answers 200 ready: the server's own word that the client
# library is loaded and its control session logged in. It waits SERVER_START_TIMEOUT s for a first
# answer, then SERVER_READY_TIMEOUT s for ready. Sets SERVER_PID. A server that dies, does not
# answer or is not ready is reported with /readyz's reason (a failed login completed by LOGIN, "to
# STONE as USER") and its log lines after LOG_START, stopped with stop-server.sh; returns 1.
server_launch() {
  local scheme="$1" url_host="$2" log_start="$3" login="$4" start ready deadline answer code reason="" what=""
  # setsid puts the server in a session of its own, so a terminal's hangup or a Ctrl-C in the
  # caller's shell does not reach it; a non-leader caller makes setsid exec in place, so $! is
  # the server's pid.
  if command -v setsid >/dev/null; then
    setsid "$SERVER_BIN" </dev/null >>"$SERVER_LOG" 2>&1 &
  else
    nohup "$SERVER_BIN" </dev/null >>"$SERVER_LOG" 2>&1 &
  fi
  SERVER_PID=$!
  sleep 0.2
  start="$(server_proc_start "$SERVER_PID")"
  echo "$SERVER_PID ${start:-0} $SERVER_PORT $SERVER_BIN" >"$SERVER_PID_FILE" || return 1

  # A library that is not loaded or a login that failed will not mend by waiting: they stop the
  # start at once. Anything else not ready (the login still under way) is waited for.
  ready="$scheme://$url_host:$SERVER_PORT/readyz"
  deadline=$((SECONDS + SERVER_START_TIMEOUT))
  code=000
  while :; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      rm -f "$SERVER_PID_FILE"
      server__err "the server exited during startup; the end of $SERVER_LOG:"
      tail -n 20 "$SERVER_LOG" | sed 's/^/    /' >&2
      return 1
    fi
    answer="$(server_ready_answer "$ready")"
    [ "$answer" != ready ] || return 0
    if [ "$code" = 000 ] && [ "${answer%% *}" != 000 ]; then deadline=$((SECONDS + SERVER_READY_TIMEOUT)); fi
    code="${answer%% *}" reason="${answer#* }"
    case "$reason" in
      *"library is not loaded"*) what="could not load the GemStone client library"; break ;;
      *"login"*"failed"*) what="its control session could not log in${login:+ $login}"; break ;;
    esac
    [ "$SECONDS" -lt "$deadline" ] || break
    sleep 0.3
  done
  if [ "$code" = 000 ]; then
    server__err "the server (pid $SERVER_PID) did not answer $ready within ${SERVER_START_TIMEOUT}s; stopping it. The end of $SERVER_LOG:"
  else
    server__err "the server answers, but ${what:-is not ready after ${SERVER_READY_TIMEOUT}s}; stopping it." \
      "$ready: $code ${reason:-(no reason given)}" "The end of $SERVER_LOG:"
  fi
  tail -n +"$log_start" "$SERVER_LOG" | tail -n 10 | sed 's/^/    /' >&2
  "$SERVER_ROOT/stop-server.sh" "$SERVER_PORT" >/dev/null 2>&1 || true
  return 1
}

# shellcheck shell=bash
# gs-env.sh -- resolve and check the GemStone environment. SOURCED by install.sh, run-server.sh,
# stop-server.sh, setup-read-only-user.sh, run-unit-tests.sh and test/realstone; never run alone.
#
# Why it exists: a login needs more than GEMSTONE and a stone name. The variable that decides it is
# GEMSTONE_GLOBAL_DIR. With no /etc/services entries, a stone and a netldi each bind an ephemeral
# port and record it in $GEMSTONE_GLOBAL_DIR/locks/<name>..LCK; clients read those lock files. A
# client looking in another global dir finds no lock file, falls back to a service lookup, and fails
# with "could not find server ... getaddrinfo failed, EAI error 8" (4065) -- which reads like DNS and
# is not. gslist reads the same lock files a GCI client does, so it is the authority used here.
#
# A caller sources this file, then calls what it needs:
#   gs_env_load            .setenv (git-ignored), product dir, topaz/gslist, global dir, stone, user
#   gs_env_require_password   GS_PASS or GS_PASS_FILE, never echoed
#   gs_env_require_netldi  only where gems are forked (run-server.sh, unit tests that spawn gems)
#   gs_env_report          the --check report
#   gs_env_topaz LOG       linked topaz, logged in, script on stdin, output (redacted) to LOG
#   gs_env_smalltalk NAME  the Smalltalk of smalltalk/scripts/NAME.gs, its placeholders filled in
#   gs_env_launch_server   run-server.sh and run-auth-server.sh: start detached, wait for /readyz
# Every function prints "error: ..." with the specific fix and returns non-zero; none exits.

GS_ENV_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

gs_env__err() { printf 'error: %s\n' "$1" >&2; shift; local l; for l in "$@"; do printf '       %s\n' "$l" >&2; done; }
gs_env__note() { printf 'note: %s\n' "$1" >&2; shift; local l; for l in "$@"; do printf '      %s\n' "$l" >&2; done; }

# .setenv supplies defaults; a variable already exported by the caller wins over it, so
# `GS_STONE=other ./install.sh` does what it says even with a .setenv present.
gs_env_load_setenv() {
  local file="${MCP_SETENV:-$GS_ENV_ROOT/.setenv}"
  [ -f "$file" ] || return 0
  local names=() values=() n i perms
  for n in GEMSTONE GEMSTONE_GLOBAL_DIR GCI_LIBRARY GS_STONE GS_USER GS_PASS GS_PASS_FILE $(compgen -e | grep '^MCP_'); do
    if [ -n "${!n+x}" ]; then names+=("$n"); values+=("${!n}"); fi
  done
  # shellcheck source=/dev/null
  . "$file" || { gs_env__err "sourcing $file failed" "fix the shell syntax in it"; return 1; }
  for i in "${!names[@]}"; do export "${names[$i]}=${values[$i]}"; done
  perms="$(stat -c '%a' "$file" 2>/dev/null || stat -f '%Lp' "$file" 2>/dev/null || echo 600)"
  if grep -qE '^[[:space:]]*(export[[:space:]]+)?GS_PASS=' "$file" && [ "${perms: -2}" != "00" ]; then
    gs_env__note "$file holds GS_PASS and is readable by others (mode $perms)" "chmod 600 $file, or use GS_PASS_FILE"
  fi
  GS_ENV_SETENV="$file"
}

# The product directory: the GCI library the server loads, and the topaz/gslist the scripts run.
gs_env_resolve_product() {
  if [ -z "${GEMSTONE:-}" ]; then
    gs_env__err "GEMSTONE is not set" \
      "export GEMSTONE=/path/to/GemStone64Bit3.7.5-x86_64.Linux (the product directory)," \
      "or put it in $GS_ENV_ROOT/.setenv (see .setenv.example)"
    return 1
  fi
  if [ ! -d "$GEMSTONE" ]; then
    gs_env__err "GEMSTONE=$GEMSTONE is not a directory" "point GEMSTONE at the GemStone product directory"
    return 1
  fi
  GEMSTONE="$(cd "$GEMSTONE" && pwd)"
  export GEMSTONE
  if [ -n "${GCI_LIBRARY:-}" ]; then
    [ -f "$GCI_LIBRARY" ] || { gs_env__err "GCI_LIBRARY=$GCI_LIBRARY does not exist" "unset it to use \$GEMSTONE/lib/libgcits-<version>-64.so"; return 1; }
  else
    local lib
    lib="$(find "$GEMSTONE/lib" -maxdepth 1 -name 'libgcits-*-64.so' 2>/dev/null | sort | tail -n 1)"
    if [ -z "$lib" ]; then
      gs_env__err "no libgcits-<version>-64.so in $GEMSTONE/lib" \
        "GEMSTONE must be a GemStone/S 64 product directory (3.7.5 or later), or set GCI_LIBRARY"
      return 1
    fi
    GCI_LIBRARY="$lib"
  fi
  export GCI_LIBRARY
  GS_PRODUCT_VERSION="$(basename "$GCI_LIBRARY" | sed -n 's/^libgcits-\([0-9.]*\)-64\..*$/\1/p')"
  if [ -z "$GS_PRODUCT_VERSION" ] && [ -f "$GEMSTONE/version.txt" ]; then
    GS_PRODUCT_VERSION="$(sed -n '2s/^\([0-9][0-9.]*\).*/\1/p' "$GEMSTONE/version.txt")"
  fi
  GS_TOPAZ="$(gs_env__tool topaz)"
  GS_GSLIST="$(gs_env__tool gslist)"
  if [ -z "$GS_GSLIST" ]; then
    gs_env__err "no gslist in $GEMSTONE/bin or on PATH" "GEMSTONE must be a full product directory (bin/gslist, bin/topaz)"
    return 1
  fi
}

# The product's own tool first; PATH second, which is how a product dir without tools (the test
# stand-in) is completed by the fakes in test/fakes.
gs_env__tool() {
  if [ -x "$GEMSTONE/bin/$1" ]; then echo "$GEMSTONE/bin/$1"; else command -v "$1" 2>/dev/null || true; fi
}

gs_env_require_topaz() {
  [ -n "${GS_TOPAZ:-}" ] && return 0
  gs_env__err "no topaz in $GEMSTONE/bin or on PATH" "this step files Smalltalk in through topaz; GEMSTONE must be a full product directory"
  return 1
}

# gslist -l rows: Status Version Owner Pid Port Started(3 words) Type Name. Prints the rows of the
# servers registered under global dir $1 (header and chatter dropped).
gs_env__servers_in() {
  GEMSTONE_GLOBAL_DIR="$1" "$GS_GSLIST" -l 2>/dev/null | awk 'NF >= 8 && $1 != "Status" && ($(NF-1) == "Stone" || $(NF-1) == "Netldi")'
}

gs_env__candidate_global_dirs() {
  local d root
  for d in ${GS_ENV_DEFAULT_GLOBAL_DIRS-/opt/gemstone /usr/gemstone}; do echo "$d"; done
  dirname "$GEMSTONE"
  echo "$GEMSTONE"
  for root in "$(dirname "$GEMSTONE")" "${HOME:-/nonexistent}"; do
    [ -d "$root" ] || continue
    find "$root" -maxdepth 3 -type d -name locks 2>/dev/null | sort | while read -r d; do
      compgen -G "$d/*..LCK" >/dev/null && dirname "$d"
    done
  done
}

# Does global dir $1 hold running servers -- and, when $2 names a stone, that stone? Lock files
# whose server died (status other than OK) do not count.
gs_env__dir_fits() {
  gs_env__servers_in "$1" | awk -v s="$2" '$1 == "OK" && (s == "" || ($(NF-1) == "Stone" && $NF == s)) {f = 1} END {exit !f}'
}

# Uses the caller's GEMSTONE_GLOBAL_DIR when running servers are registered there; otherwise asks
# gslist under each candidate and takes the one where they are, saying what it changed. A dir where
# the named stone runs is preferred over one where only other servers run.
gs_env_resolve_global_dir() {
  local given="${GEMSTONE_GLOBAL_DIR:-}" stone="${GS_STONE:-${MCP_STONE:-}}" cand want candidates
  candidates="$(gs_env__candidate_global_dirs | awk 'NF && !seen[$0]++')"
  for want in "$stone" ""; do
    if [ -n "$given" ] && gs_env__dir_fits "$given" "$want"; then
      export GEMSTONE_GLOBAL_DIR="$given"; GS_GLOBAL_DIR_HOW="as set"; return 0
    fi
    while read -r cand; do
      if [ -z "$cand" ] || [ ! -d "$cand" ] || [ "$cand" = "$given" ]; then continue; fi
      gs_env__dir_fits "$cand" "$want" && break 2
    done <<<"$candidates"
  done
  if [ -n "$cand" ]; then
    if [ -n "$given" ] && gs_env__dir_fits "$given" ""; then
      gs_env__note "GEMSTONE_GLOBAL_DIR=$given has running servers, but not stone '$stone';" \
        "using $cand, where gslist finds it." \
        "Set GEMSTONE_GLOBAL_DIR=$cand (in .setenv) to make it explicit."
      GS_GLOBAL_DIR_HOW="corrected from $given"
    elif [ -n "$given" ]; then
      gs_env__note "GEMSTONE_GLOBAL_DIR=$given has no running server registered in it;" \
        "using $cand, where gslist finds this host's servers." \
        "Set GEMSTONE_GLOBAL_DIR=$cand (in .setenv) to make it explicit."
      GS_GLOBAL_DIR_HOW="corrected from $given"
    else
      gs_env__note "GEMSTONE_GLOBAL_DIR was unset; found the running servers under $cand." \
        "Set GEMSTONE_GLOBAL_DIR=$cand (in .setenv) to make it explicit."
      GS_GLOBAL_DIR_HOW="discovered"
    fi
    export GEMSTONE_GLOBAL_DIR="$cand"
    return 0
  fi
  gs_env__err "gslist finds no running GemStone server under any global dir tried" \
    "(${given:+$given, }${GS_ENV_DEFAULT_GLOBAL_DIRS-/opt/gemstone /usr/gemstone}, $(dirname "$GEMSTONE"), and locks/ dirs under it and \$HOME)." \
    "A login would fail with 'getaddrinfo failed, EAI error 8' (4065): not DNS, not /etc/services --" \
    "the client cannot find the stone's lock file. Start the stone (startstone), or export the" \
    "GEMSTONE_GLOBAL_DIR it was started with; check with: GEMSTONE_GLOBAL_DIR=<dir> $GS_GSLIST -l"
  return 1
}

gs_env_servers() { gs_env__servers_in "$GEMSTONE_GLOBAL_DIR"; }

# GS_STONE: as set, else the only running stone, else refused with the list.
gs_env_resolve_stone() {
  local stones row sv
  GS_STONE="${GS_STONE:-${MCP_STONE:-}}"   # the server's name for it, when only that is set
  stones="$(gs_env_servers | awk '$1 == "OK" && $(NF-1) == "Stone" {print $NF}')"
  if [ -z "${GS_STONE:-}" ]; then
    if [ "$(printf '%s\n' "$stones" | grep -c .)" = 1 ]; then
      GS_STONE="$stones"; gs_env__note "GS_STONE was unset; using $GS_STONE, the only stone running."
    else
      gs_env__err "GS_STONE is not set and ${stones:+more than one stone is running:}${stones:-no stone is running}" \
        ${stones:+$stones} "set GS_STONE to the stone to use (in .setenv)"
      return 1
    fi
  fi
  export GS_STONE
  row="$(gs_env_servers | awk -v s="$GS_STONE" '$(NF-1) == "Stone" && $NF == s')"
  if [ -z "$row" ]; then
    gs_env__err "stone '$GS_STONE' is not running under GEMSTONE_GLOBAL_DIR=$GEMSTONE_GLOBAL_DIR" \
      "${stones:+running stones: $(echo "$stones" | tr '\n' ' ')}" "start it (startstone $GS_STONE) or set GS_STONE to a running one"
    return 1
  fi
  if [ "$(echo "$row" | awk '{print $1}')" != OK ]; then
    gs_env__err "stone '$GS_STONE' is registered but its status is '$(echo "$row" | awk '{print $1}')', not OK" "see its log; restart it with startstone"
    return 1
  fi
  sv="$(echo "$row" | awk '{print $2}')"
  if [ -n "$GS_PRODUCT_VERSION" ] && [ "$sv" != "$GS_PRODUCT_VERSION" ]; then
    gs_env__err "stone '$GS_STONE' is version $sv but GEMSTONE ($GEMSTONE) is $GS_PRODUCT_VERSION" \
      "a login would fail: the gem and stone versions are incompatible (4044)." \
      "Point GEMSTONE at the $sv product, or GS_STONE at a $GS_PRODUCT_VERSION stone."
    return 1
  fi
  GS_STONE_VERSION="$sv"
}

gs_env_resolve_user() {
  GS_USER="${GS_USER:-${MCP_CONTROL_USER:-}}"
  if [ -z "${GS_USER:-}" ]; then
    GS_USER=DataCurator
    gs_env__note "GS_USER was unset; using DataCurator."
  fi
  export GS_USER
}

# The password is GS_PASS or the first line of GS_PASS_FILE. It is never printed, never put on a
# command line, and reaches topaz only on its standard input.
gs_env_require_password() {
  GS_PASS_FILE="${GS_PASS_FILE:-${MCP_PASSWORD_FILE:-}}"
  if [ -n "${GS_PASS_FILE:-}" ]; then
    if [ ! -r "$GS_PASS_FILE" ]; then
      gs_env__err "GS_PASS_FILE=$GS_PASS_FILE is not readable" "create it (one line, mode 600) or set GS_PASS instead"
      return 1
    fi
    GS_ENV_PASSWORD="$(head -n 1 "$GS_PASS_FILE")"
  else
    GS_ENV_PASSWORD="${GS_PASS:-}"
  fi
  if [ -z "$GS_ENV_PASSWORD" ]; then
    gs_env__err "no password for GemStone user $GS_USER" \
      "set GS_PASS, or GS_PASS_FILE=<file holding it, mode 600> (in .setenv)"
    return 1
  fi
}

# A netldi is needed only where gems are forked: the server's workers and control session, and the
# unit-test suites that spawn a gem. MCP_NETLDI names one (name or port); unset, the only running
# netldi is used.
gs_env_require_netldi() {
  local ldis
  ldis="$(gs_env_servers | awk '$1 == "OK" && $(NF-1) == "Netldi" {print $NF, $5}')"
  if [ -z "$ldis" ]; then
    gs_env__err "no netldi is running under GEMSTONE_GLOBAL_DIR=$GEMSTONE_GLOBAL_DIR" \
      "${1:-this step} forks gems, and a netldi is what forks them." \
      "Start one: startnetldi -g -a \$USER gs64ldi   (then set MCP_NETLDI=gs64ldi if you run several)"
    return 1
  fi
  if [ -n "${MCP_NETLDI:-}" ]; then
    if ! echo "$ldis" | awk -v n="$MCP_NETLDI" '$1 == n || $2 == n {f=1} END {exit !f}'; then
      gs_env__err "MCP_NETLDI=$MCP_NETLDI is not a running netldi (name or port)" \
        "running: $(echo "$ldis" | awk '{printf "%s (port %s) ", $1, $2}')" "set MCP_NETLDI to one of them"
      return 1
    fi
  elif [ "$(echo "$ldis" | grep -c .)" = 1 ]; then
    MCP_NETLDI="$(echo "$ldis" | awk '{print $1}')"
  else
    gs_env__err "several netldis are running and MCP_NETLDI does not say which to use" \
      "running: $(echo "$ldis" | awk '{printf "%s (port %s) ", $1, $2}')" "set MCP_NETLDI to one of them (in .setenv)"
    return 1
  fi
  export MCP_NETLDI
}

# Everything a script needs before it talks to the stone.
gs_env_load() {
  gs_env_load_setenv && gs_env_resolve_product && gs_env_resolve_global_dir && gs_env_resolve_stone && gs_env_resolve_user
}

gs_env_report() {
  echo "product      $GEMSTONE (${GS_PRODUCT_VERSION:-version unknown})"
  echo "gci library  $GCI_LIBRARY"
  echo "topaz        ${GS_TOPAZ:-<none>}"
  echo "global dir   $GEMSTONE_GLOBAL_DIR (${GS_GLOBAL_DIR_HOW:-as set})"
  echo "stone        $GS_STONE (${GS_STONE_VERSION:-?})"
  echo "user         $GS_USER"
  echo "password     $(if [ -n "${GS_PASS_FILE:-}" ]; then echo "from GS_PASS_FILE=$GS_PASS_FILE"; elif [ -n "${GS_PASS:-}" ]; then echo "from GS_PASS"; else echo "<not set>"; fi)"
  echo "settings     ${GS_ENV_SETENV:-<no .setenv>}"
  echo
  echo "servers visible to this client:"
  GEMSTONE_GLOBAL_DIR="$GEMSTONE_GLOBAL_DIR" "$GS_GSLIST" -l 2>/dev/null | sed 's/^/  /'
}

# Linked topaz (no netldi needed), logged in as GS_USER on GS_STONE. The caller's script comes on
# stdin; the login lines are sent first, then smalltalk/scripts/emit.gs (the marker-line writer the
# scripts' Smalltalk uses), and logout/exit last. -i: a developer's ~/.topazini (or ./.topazini),
# which may hold its own `login`, is ignored, so the session is the one these lines open. Output goes
# to LOG (mode 600) with any line that could carry the password removed. Answers topaz's own exit
# status, which is NOT a verdict on a file-in: callers gate on what the image reports.
gs_env_topaz() {
  local log="$1" rc limit=()
  gs_env_require_topaz || return 1
  (umask 077; : >"$log")
  # A stone that stops answering must not hang a script forever (MCP_TOPAZ_TIMEOUT seconds).
  command -v timeout >/dev/null && limit=(timeout "${MCP_TOPAZ_TIMEOUT:-3600}")
  "${limit[@]}" "$GS_TOPAZ" -l -i < <(
    printf 'set gemstone %s\nset username %s\nset password %s\nlogin\n' "$GS_STONE" "$GS_USER" "$GS_ENV_PASSWORD"
    gs_env_smalltalk emit MARK "$GS_ENV_MARK"
    cat
    printf 'logout\nexit\n'
  ) 2>&1 | sed -E -e 's/^([^!]*set[[:space:]]+pass[a-z]*[[:space:]]+).*/\1<redacted>/' \
                  -e "s/(password:[[:space:]]*')[^']*'/\1<redacted>'/g" >>"$log"
  rc=${PIPESTATUS[0]}
  gs_env_explain_login_failure "$log"
  return "$rc"
}

# Translates the login failures whose own text points the wrong way.
gs_env_explain_login_failure() {
  if grep -qE 'getaddrinfo|EAI error|4065' "$1"; then
    gs_env__err "topaz could not find stone '$GS_STONE' (error 4065, 'getaddrinfo failed')" \
      "This is not DNS: the client found no lock file for the stone under GEMSTONE_GLOBAL_DIR=$GEMSTONE_GLOBAL_DIR." \
      "Export the GEMSTONE_GLOBAL_DIR the stone was started with (gslist -l under it must list the stone)."
  elif grep -qiE 'password.*(invalid|incorrect)|(invalid|bad).*password|error 4051|4051' "$1"; then
    gs_env__err "the stone refused the login of $GS_USER (bad user or password)" "check GS_USER and GS_PASS / GS_PASS_FILE"
  fi
  return 0
}

# Lines the Smalltalk in these scripts emits on topaz's stdout start with this marker, so they are
# told apart from topaz's echo of the source and from its own chatter.
GS_ENV_MARK="MCPI"
gs_env_marked() { sed -n "s/^$GS_ENV_MARK //p" "$1"; }

# The Smalltalk the scripts send lives in smalltalk/scripts/NAME.gs, where bin/gscheck checks it.
# gs_env_smalltalk NAME [KEY VALUE]...: that file with each @@KEY@@ replaced by VALUE. Every
# placeholder stands inside a string literal, so the value's single quotes are doubled.
gs_env_smalltalk() {
  local file="$GS_ENV_ROOT/smalltalk/scripts/$1.gs" text key value
  shift
  [ -f "$file" ] || { gs_env__err "missing $file" "the checkout is incomplete"; return 1; }
  text="$(cat "$file")"
  while [ $# -ge 2 ]; do
    key="$1" value="${2//\'/\'\'}"
    shift 2
    text="${text//"@@$key@@"/"$value"}"
  done
  printf '%s\n' "$text"
}

# gs_env_fact_report TEST: a broken kernel fact, named by its test in McpKernelFactsTest: the test's
# comment, which names the code that relies on the fact, and the files that code lives in.
gs_env_fact_report() {
  local src="$GS_ENV_ROOT/smalltalk/tests/McpKernelFactsTest.gs" comment files c f
  comment="$(awk -v t="$1" '
    $0 == t { on = 1; n = 0; next }
    on { line = $0; n += gsub(/"/, "", line); sub(/^[ \t]+/, "", line); print line; if (n >= 2) exit }
  ' "$src")"
  echo "$1"
  [ -n "$comment" ] && printf '%s\n' "$comment" | sed 's/^/    /'
  files="$(grep -o 'smalltalk/[a-z]*/[A-Za-z-]*\.gs' <<<"$comment")"
  while read -r c; do
    for f in "$GS_ENV_ROOT"/smalltalk/*/"$c".gs; do [ -f "$f" ] && files+=$'\n'"${f#"$GS_ENV_ROOT"/}"; done
  done < <(grep -o 'Mcp[A-Z][A-Za-z]*' <<<"$comment" | sort -u)
  files="$(grep . <<<"$files" | sort -u | paste -sd' ' -)"
  [ -z "$files" ] || echo "    affects: $files"
}

# ---- the server process (run-server.sh, stop-server.sh) ----------------------------------------
# A pid file per port, "<pid> <start time> <port> <binary>", under MCP_STATE_DIR. The start time
# (field 22 of /proc/<pid>/stat) is what makes a recycled pid detectable: a pid alone is not proof.

gs_env_state_dir() { echo "${MCP_STATE_DIR:-$GS_ENV_ROOT/build/run}"; }
gs_env_pid_file() { echo "$(gs_env_state_dir)/mcp-gemstone-$1.pid"; }

# Where there is no /proc (macOS), ps answers the same two questions, less precisely.
gs_env_proc_start() {
  if [ -r "/proc/$1/stat" ]; then awk '{print $22}' "/proc/$1/stat" 2>/dev/null || true
  elif [ ! -d /proc/self ]; then ps -o lstart= -p "$1" 2>/dev/null | tr -s ' ' '_' || true; fi
}

# The executable of a pid, without the " (deleted)" a rebuilt binary leaves behind.
gs_env_proc_exe() {
  local e
  if [ -d /proc/self ]; then
    e="$(readlink "/proc/$1/exe" 2>/dev/null)" || return 1
  else
    e="$(ps -o comm= -p "$1" 2>/dev/null)" && [ -n "$e" ] || return 1
  fi
  echo "${e% (deleted)}"
}

# Succeeds when pid $1 is a live mcp-gemstone process started at time $2 (if given).
gs_env_is_our_server() {
  local pid="$1" start="${2:-}" exe
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  exe="$(gs_env_proc_exe "$pid")" || return 1
  [ "$(basename "$exe")" = mcp-gemstone ] || return 1
  [ -z "$start" ] || [ "$(gs_env_proc_start "$pid")" = "$start" ]
}

gs_env_valid_port() {
  [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ] && return 0
  gs_env__err "'$1' is not a TCP port (1-65535)"; return 1
}

# Prints who listens on TCP port $1 ("name pid=N"), empty when nobody. Fails when it cannot tell,
# because "cannot tell" must never read as "free".
gs_env_port_holder() {
  local out
  if command -v ss >/dev/null 2>&1; then
    out="$(ss -Htlnp "sport = :$1" 2>/dev/null)" || { gs_env__err "ss failed; cannot tell whether port $1 is in use"; return 1; }
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
gs_env_port_pid() {
  if command -v ss >/dev/null 2>&1; then
    ss -Htlnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:(("[^"]*",pid=\([0-9]*\).*/\1/p' | head -n 1
  else
    lsof -nP -iTCP:"$1" -sTCP:LISTEN -t 2>/dev/null | head -n 1
  fi
}

# How this machine reaches a server listening on host $1 (a wildcard is reached on loopback; an
# IPv6 address goes in brackets).
gs_env_url_host() {
  case "$1" in 0.0.0.0|"") echo 127.0.0.1 ;; ::|"[::]") echo "[::1]" ;; *:*) echo "[$1]" ;; *) echo "$1" ;; esac
}

# gs_env_server_settings: the launch settings both run scripts read from MCP_* (PORT, BIN,
# STATE_DIR, PID_FILE, LOG, TIMEOUT), checked: a valid port, a built binary.
gs_env_server_settings() {
  PORT="${MCP_PORT:-8000}"
  gs_env_valid_port "$PORT" || return 1
  BIN="${MCP_BIN:-$ROOT/bin/mcp-gemstone}"
  STATE_DIR="$(gs_env_state_dir)"
  PID_FILE="$(gs_env_pid_file "$PORT")"
  LOG="${MCP_LOG_FILE:-$STATE_DIR/mcp-gemstone-$PORT.log}"
  TIMEOUT="${MCP_START_TIMEOUT:-60}"
  if [ ! -x "$BIN" ]; then
    gs_env__err "no server binary at $BIN" "build it: ./install.sh (or make build)"
    return 1
  fi
}

# gs_env_claim_port RERUN: refuses (returns 1) when our server or anything else already holds
# $PORT, naming RERUN as the way to start on another port; a stale pid file is removed.
gs_env_claim_port() {
  local old_pid old_start holder
  if [ -f "$PID_FILE" ]; then
    read -r old_pid old_start _ <"$PID_FILE" || true
    if gs_env_is_our_server "${old_pid:-}" "${old_start:-}"; then
      gs_env__err "an mcp-gemstone server is already running on port $PORT (pid $old_pid)" "stop it first: ./stop-server.sh $PORT"
      return 1
    fi
    rm -f "$PID_FILE"
  fi
  holder="$(gs_env_port_holder "$PORT")" || return 1
  if [ -n "$holder" ]; then
    gs_env__err "port $PORT is already in use by $holder; nothing was started" \
      "choose another: MCP_PORT=<port> $1, or stop what holds it"
    return 1
  fi
}

# gs_env_prepare_server: after the settings, what both run scripts need before the launch: the
# GemStone environment, the password, a running NetLDI, the state directory and a private log,
# and the password handed to the server (as a file it reads itself when there is one).
gs_env_prepare_server() {
  gs_env_load || return 1
  gs_env_require_password || return 1
  gs_env_require_netldi "the server (one gem per MCP session, plus its control session)" || return 1
  mkdir -p "$STATE_DIR" "$(dirname "$LOG")"
  (umask 077; touch "$LOG")
  if [ -n "${GS_PASS_FILE:-}" ]; then
    export MCP_PASSWORD_FILE="$GS_PASS_FILE"; unset GS_PASS
  else
    export GS_PASS="$GS_ENV_PASSWORD"
  fi
}

# gs_env_launch_server SCHEME URL_HOST LOG_START: start $BIN detached with its output appended to
# $LOG, record "pid start port binary" in $PID_FILE, wait up to $TIMEOUT s for
# SCHEME://URL_HOST:$PORT/healthz, then up to MCP_LOGIN_CHECK_TIMEOUT (30) s for /readyz to say
# ready. Sets GS_ENV_SERVER_PID. A server that dies, does not answer or cannot reach GemStone is
# reported with its log lines after LOG_START, stopped with stop-server.sh, and the function
# returns 1.
gs_env_launch_server() {
  local scheme="$1" url_host="$2" log_start="$3" pid start health deadline login ready body reason what
  # setsid puts the server in a session of its own, so a terminal's hangup or a Ctrl-C in the
  # caller's shell does not reach it; a non-leader caller makes setsid exec in place, so $! is
  # the server's pid.
  if command -v setsid >/dev/null; then
    setsid "$BIN" </dev/null >>"$LOG" 2>&1 &
  else
    nohup "$BIN" </dev/null >>"$LOG" 2>&1 &
  fi
  pid=$!
  # shellcheck disable=SC2034 # read by the caller
  GS_ENV_SERVER_PID=$pid
  sleep 0.2
  start="$(gs_env_proc_start "$pid")"
  echo "$pid ${start:-0} $PORT $BIN" >"$PID_FILE" || return 1

  # -k: this only asks our own process whether it answers; a certificate names the public host.
  health="$scheme://$url_host:$PORT/healthz"
  deadline=$((SECONDS + TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      gs_env__err "the server exited during startup; the end of $LOG:"
      tail -n 20 "$LOG" | sed 's/^/    /' >&2
      return 1
    fi
    if curl -fsSk --max-time 2 -o /dev/null "$health" 2>/dev/null; then break; fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      gs_env__err "the server (pid $pid) did not answer $health within ${TIMEOUT}s; stopping it. The end of $LOG:"
      tail -n 20 "$LOG" | sed 's/^/    /' >&2
      "$GS_ENV_ROOT/stop-server.sh" "$PORT" >&2 || true
      return 1
    fi
    sleep 0.3
  done

  # /healthz answers as soon as the server listens; /readyz once it can serve a session (the
  # client library loaded, the control session logged in), else 503 with the reason. A library
  # that is not loaded or a login that failed will not mend by waiting: they stop the start.
  ready="$scheme://$url_host:$PORT/readyz"
  deadline=$((SECONDS + ${MCP_LOGIN_CHECK_TIMEOUT:-30}))
  while :; do
    body="$(curl -sSk --max-time 3 "$ready" 2>/dev/null || true)"
    case "$body" in *'"status":"ready"'*) return 0 ;; esac
    reason="$(sed -n 's/.*"reason":"\([^"]*\)".*/\1/p' <<<"$body")"
    case "$reason" in
      *"library is not loaded"*) login=nolib ;;
      *"login"*"failed"*) login=failed ;;
      *) login="" ;;
    esac
    if [ -n "$login" ] || [ "$SECONDS" -ge "$deadline" ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.3
  done
  case "$login" in
    nolib) what="could not load the GemStone client library" ;;
    failed) what="its control session could not log in to $GS_STONE as $GS_USER" ;;
    *) what="is not ready after ${MCP_LOGIN_CHECK_TIMEOUT:-30}s (${reason:-no answer from $ready})" ;;
  esac
  gs_env__err "the server answers, but $what; stopping it. From $LOG:"
  tail -n +"$log_start" "$LOG" | grep -E 'library|control session' | tail -n 5 | sed 's/^/    /' >&2
  "$GS_ENV_ROOT/stop-server.sh" "$PORT" >/dev/null 2>&1 || true
  return 1
}

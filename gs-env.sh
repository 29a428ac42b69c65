# shellcheck shell=bash
# gs-env.sh -- resolve and check the GemStone environment. SOURCED by install.sh, run-server.sh,
# run-auth-server.sh, stop-server.sh, setup-*.sh, run-unit-tests.sh and test/realstone; never run
# alone. The server as a process (pid files, ports, start, readiness) is server-process.sh's job.
#
# Why it exists: a login needs more than GEMSTONE and a stone name. The variable that decides it is
# GEMSTONE_GLOBAL_DIR. With no /etc/services entries, a stone and a netldi each bind an ephemeral
# port and record it in $GEMSTONE_GLOBAL_DIR/locks/<name>..LCK; clients read those lock files. A
# client looking in another global dir finds no lock file, falls back to a service lookup, and fails
# with "could not find server ... getaddrinfo failed, EAI error 8" (4065) -- which reads like DNS and
# is not. gslist reads the same lock files a GCI client does, so it is the authority used here.
#
# A caller sources this file, then calls what it needs:
#   gs_env_load_setenv     .setenv (git-ignored) alone: the defaults, the caller's exports winning
#   gs_env_load            .setenv, product dir, topaz/gslist, global dir, stone, user
#   gs_env_require_password   GS_PASS or GS_PASS_FILE, never echoed
#   gs_env_require_netldi  only where gems are forked (run-server.sh, unit tests that spawn gems)
#   gs_env_for_server      all of the above, exported under the names the server reads
#   gs_env_report          the --check report
#   gs_env_topaz LOG       linked topaz, logged in, script on stdin, output (redacted) to LOG
#   gs_env_smalltalk NAME  the Smalltalk of smalltalk/scripts/NAME.gs, its placeholders filled in
# Every function prints "error: ..." with the specific fix and returns non-zero; none exits.
# What it resolves it exports under the settings' own names (GEMSTONE, GCI_LIBRARY,
# GEMSTONE_GLOBAL_DIR, GS_STONE, GS_USER, MCP_NETLDI); its own state is in GS_ENV_* variables.

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
  GS_ENV_PRODUCT_VERSION="$(basename "$GCI_LIBRARY" | sed -n 's/^libgcits-\([0-9.]*\)-64\..*$/\1/p')"
  if [ -z "$GS_ENV_PRODUCT_VERSION" ] && [ -f "$GEMSTONE/version.txt" ]; then
    GS_ENV_PRODUCT_VERSION="$(sed -n '2s/^\([0-9][0-9.]*\).*/\1/p' "$GEMSTONE/version.txt")"
  fi
  GS_ENV_TOPAZ="$(gs_env__tool topaz)"
  GS_ENV_GSLIST="$(gs_env__tool gslist)"
  if [ -z "$GS_ENV_GSLIST" ]; then
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
  [ -n "${GS_ENV_TOPAZ:-}" ] && return 0
  gs_env__err "no topaz in $GEMSTONE/bin or on PATH" "this step files Smalltalk in through topaz; GEMSTONE must be a full product directory"
  return 1
}

# gslist -l rows: Status Version Owner Pid Port Started(3 words) Type Name. Prints the rows of the
# servers registered under global dir $1 (header and chatter dropped).
gs_env__servers_in() {
  GEMSTONE_GLOBAL_DIR="$1" "$GS_ENV_GSLIST" -l 2>/dev/null | awk 'NF >= 8 && $1 != "Status" && ($(NF-1) == "Stone" || $(NF-1) == "Netldi")'
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
  local given="${GEMSTONE_GLOBAL_DIR:-}" stone="${GS_STONE:-}" cand want candidates
  candidates="$(gs_env__candidate_global_dirs | awk 'NF && !seen[$0]++')"
  for want in "$stone" ""; do
    if [ -n "$given" ] && gs_env__dir_fits "$given" "$want"; then
      export GEMSTONE_GLOBAL_DIR="$given"; GS_ENV_GLOBAL_DIR_HOW="as set"; return 0
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
      GS_ENV_GLOBAL_DIR_HOW="corrected from $given"
    elif [ -n "$given" ]; then
      gs_env__note "GEMSTONE_GLOBAL_DIR=$given has no running server registered in it;" \
        "using $cand, where gslist finds this host's servers." \
        "Set GEMSTONE_GLOBAL_DIR=$cand (in .setenv) to make it explicit."
      GS_ENV_GLOBAL_DIR_HOW="corrected from $given"
    else
      gs_env__note "GEMSTONE_GLOBAL_DIR was unset; found the running servers under $cand." \
        "Set GEMSTONE_GLOBAL_DIR=$cand (in .setenv) to make it explicit."
      GS_ENV_GLOBAL_DIR_HOW="discovered"
    fi
    export GEMSTONE_GLOBAL_DIR="$cand"
    return 0
  fi
  gs_env__err "gslist finds no running GemStone server under any global dir tried" \
    "(${given:+$given, }${GS_ENV_DEFAULT_GLOBAL_DIRS-/opt/gemstone /usr/gemstone}, $(dirname "$GEMSTONE"), and locks/ dirs under it and \$HOME)." \
    "A login would fail with 'getaddrinfo failed, EAI error 8' (4065): not DNS, not /etc/services --" \
    "the client cannot find the stone's lock file. Start the stone (startstone), or export the" \
    "GEMSTONE_GLOBAL_DIR it was started with; check with: GEMSTONE_GLOBAL_DIR=<dir> $GS_ENV_GSLIST -l"
  return 1
}

gs_env_servers() { gs_env__servers_in "$GEMSTONE_GLOBAL_DIR"; }

# GS_STONE: as set, else the only running stone, else refused with the list.
gs_env_resolve_stone() {
  local stones row sv
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
  if [ -n "$GS_ENV_PRODUCT_VERSION" ] && [ "$sv" != "$GS_ENV_PRODUCT_VERSION" ]; then
    gs_env__err "stone '$GS_STONE' is version $sv but GEMSTONE ($GEMSTONE) is $GS_ENV_PRODUCT_VERSION" \
      "a login would fail: the gem and stone versions are incompatible (4044)." \
      "Point GEMSTONE at the $sv product, or GS_STONE at a $GS_ENV_PRODUCT_VERSION stone."
    return 1
  fi
  GS_ENV_STONE_VERSION="$sv"
}

gs_env_resolve_user() {
  if [ -z "${GS_USER:-}" ]; then
    GS_USER=DataCurator
    gs_env__note "GS_USER was unset; using DataCurator."
  fi
  export GS_USER
}

# The password is GS_PASS or the first line of GS_PASS_FILE. It is never printed, never put on a
# command line, and reaches topaz only on its standard input.
gs_env_require_password() {
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

# One name per setting: the server refuses these at start, and here they would be ignored.
gs_env__refuse_other_names() {
  local n want bad=0
  for n in MCP_STONE:GS_STONE MCP_CONTROL_USER:GS_USER MCP_PASSWORD_FILE:GS_PASS_FILE; do
    want="${n#*:}" n="${n%%:*}"
    [ -n "${!n:-}" ] || continue
    gs_env__err "$n is set, but this setting is named $want" "rename it to $want (in .setenv too); the server refuses $n"
    bad=1
  done
  return "$bad"
}

# Everything a script needs before it talks to the stone.
gs_env_load() {
  gs_env_load_setenv && gs_env__refuse_other_names && gs_env_resolve_product && gs_env_resolve_global_dir &&
    gs_env_resolve_stone && gs_env_resolve_user
}

# gs_env_for_server PURPOSE: the environment the server reads, resolved and exported under its
# own names (GEMSTONE, GCI_LIBRARY, GEMSTONE_GLOBAL_DIR, GS_STONE, GS_USER, MCP_NETLDI), and the
# password as GS_PASS_FILE, which the server reads itself (GS_PASS is then unset, so the password
# sits in no environment), else as GS_PASS. PURPOSE says who needs the netldi, for its error.
gs_env_for_server() {
  gs_env_load && gs_env_require_password && gs_env_require_netldi "$1" || return 1
  if [ -n "${GS_PASS_FILE:-}" ]; then
    export GS_PASS_FILE
    unset GS_PASS
  else
    export GS_PASS="$GS_ENV_PASSWORD"
  fi
}

gs_env_report() {
  echo "product      $GEMSTONE (${GS_ENV_PRODUCT_VERSION:-version unknown})"
  echo "gci library  $GCI_LIBRARY"
  echo "topaz        ${GS_ENV_TOPAZ:-<none>}"
  echo "global dir   $GEMSTONE_GLOBAL_DIR (${GS_ENV_GLOBAL_DIR_HOW:-as set})"
  echo "stone        $GS_STONE (${GS_ENV_STONE_VERSION:-?})"
  echo "user         $GS_USER"
  echo "password     $(if [ -n "${GS_PASS_FILE:-}" ]; then echo "from GS_PASS_FILE=$GS_PASS_FILE"; elif [ -n "${GS_PASS:-}" ]; then echo "from GS_PASS"; else echo "<not set>"; fi)"
  echo "settings     ${GS_ENV_SETENV:-<no .setenv>}"
  echo
  echo "servers visible to this client:"
  GEMSTONE_GLOBAL_DIR="$GEMSTONE_GLOBAL_DIR" "$GS_ENV_GSLIST" -l 2>/dev/null | sed 's/^/  /'
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
  "${limit[@]}" "$GS_ENV_TOPAZ" -l -i < <(
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

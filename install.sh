#!/usr/bin/env bash
# install.sh -- build the server and file the Smalltalk worker into a GemStone image.
#
#   ./install.sh --check          report the environment, the servers, the image and what would be
#                                 installed; changes nothing (no build, no commit)
#   ./install.sh                  build bin/mcp-gemstone if missing or stale, file in, commit, verify
#   ./install.sh --no-build       ...without touching the binary
#   ./install.sh --groups "core"  ...only these smalltalk/ groups (default: every group with a load.gs,
#                                 but the optional grail)
#   ./install.sh --grail          ...and the optional Python toolset, smalltalk/grail and its suite
#                                 smalltalk/tests/grail (Grail images only; also MCP_WITH_GRAIL=1)
#
# Steps of a plain run, each its own linked topaz session (no netldi needed):
#   1. prepare: create the Mcp dictionary if absent (in this user's symbol list), and unbind the
#      exact class names the files define from every other dictionary in the symbol list -- an old
#      binding earlier in the list would otherwise capture every method filed in after it. Other
#      Mcp* names found elsewhere are reported and left alone. Commit.
#   2. one session per group (core first, tests last): `set sourcestringclass String` so literals
#      are byte Strings whatever #StringConfiguration says, `input smalltalk/<group>/load.gs`, commit.
#   3. add Mcp to every UserProfile's symbol list (best effort: a profile that refuses is reported),
#      commit, then verify: every class the files define is in Mcp, and every method the files hold
#      is in the image (selector sets compared, method: / classmethod: headers and the first line of
#      each method). A file-in reports compile errors and carries on -- topaz exits 0 over a partial
#      load -- so the image's answer, not topaz's status, decides. Missing names fail the install.
# Re-running over an installed image is safe: the loaders pre-declare only absent names, the file-
# outs remove and recompile their methods, and steps 1 and 3 only add what is missing.
# Exit status: 0 installed and verified; 1 anything else (the message says what).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
cd "$ROOT"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"

CHECK=0 BUILD=1 ONLY_GROUPS="" GRAIL="${MCP_WITH_GRAIL:-0}"
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1 ;;
    --no-build) BUILD=0 ;;
    --groups) shift; ONLY_GROUPS="${1:?--groups needs a list}" ;;
    --grail) GRAIL=1 ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--check] [--no-build] [--grail] [--groups \"core tests\"]" >&2; exit 2 ;;
  esac
  shift
done
case "$GRAIL" in
  0|1) ;;
  *) echo "error: MCP_WITH_GRAIL=$GRAIL: use 1 to file in the Grail toolset, 0 (or unset) not to" >&2; exit 2 ;;
esac

LOGDIR="$ROOT/build/install"
BIN="$ROOT/bin/mcp-gemstone"

# ---- what the files define --------------------------------------------------------------------

# Groups in load order: core first, tests last, any other group with a load.gs in between. The
# optional Grail group (smalltalk/grail, and its suite smalltalk/tests/grail after tests) only with
# --grail: its methods name Grail's classes, so it cannot compile in an image without Grail, and no
# probe of the image can tell that Grail is the one it was written against.
list_groups() {
  local g all=()
  for g in "$ROOT"/smalltalk/*/load.gs; do [ -f "$g" ] && all+=("$(basename "$(dirname "$g")")"); done
  if [ "$GRAIL" = 1 ] && [ -f "$ROOT/smalltalk/tests/grail/load.gs" ]; then all+=(tests/grail); fi
  for g in core $(printf '%s\n' "${all[@]}" | grep -vxE 'core|tests|grail|tests/grail' | sort) \
      $([ "$GRAIL" = 1 ] && echo grail) tests tests/grail; do
    grep -qx "$g" <<<"$(printf '%s\n' "${all[@]}")" || continue
    if [ -n "$ONLY_GROUPS" ] && [[ " $ONLY_GROUPS " != *" $g "* ]]; then continue; fi
    echo "$g"
  done
}

class_files() { find "$ROOT/smalltalk/$1" -maxdepth 1 -name '*.gs' ! -name load.gs | sort; }

# One line per definition: "Name" for a class a file defines (a `subclass:` outside any method),
# "Cls sel" / "Cls class sel" for each method. The selector is read from the first line of the
# method, as the compiler would: keywords, else a unary name, else a binary operator.
manifest_of() {
  awk '
    function selector(l,   s) {
      sub(/".*/, "", l); sub(/^[ \t]+/, "", l)
      if (match(l, /^[A-Za-z_][A-Za-z0-9_]*:/)) {
        s = ""
        while (match(l, /^[A-Za-z_][A-Za-z0-9_]*:/)) {
          s = s substr(l, 1, RLENGTH); l = substr(l, RLENGTH + 1)
          sub(/^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*/, "", l)
        }
        return s
      }
      if (match(l, /^[A-Za-z_][A-Za-z0-9_]*/)) return substr(l, 1, RLENGTH)
      if (match(l, /^[-+*\/\\<>=~@%|&?,]+/)) return substr(l, 1, RLENGTH)
      return ""
    }
    FNR == 1 { inmethod = 0; want = 0 }
    want && /^[ \t]*$/ { next }
    want {
      s = selector($0); want = 0; inmethod = 1
      if (s == "") { printf "BAD %s:%d cannot read a selector from: %s\n", FILENAME, FNR, $0; next }
      print cls side " " s; next
    }
    inmethod { if ($0 == "%") inmethod = 0; next }
    /^(method|classmethod):[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*$/ {
      cls = $2; side = ($1 == "classmethod:") ? " class" : ""; want = 1; next
    }
    /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]+[A-Za-z]*[Ss]ubclass:[ \t]*[#'"'"']/ && match($0, /[Ss]ubclass:[ \t]*[#'"'"']+[A-Za-z_][A-Za-z0-9_]*/) {
      n = substr($0, RSTART, RLENGTH); sub(/^[A-Za-z]*:[ \t]*[#'"'"']+/, "", n); print n
    }
  ' "$@"
}

# The load.gs of a group must input every class file of the group, by a path that exists from the
# repository root (topaz resolves `input` against its working directory, which is $ROOT). The
# lists are searched from here-strings: grep -q leaving a pipe early would kill its writer with
# SIGPIPE, which pipefail reports as a miss.
check_loader() {
  local g="$1" f rel bad=0 inputs
  inputs="$(sed -n 's/^[[:space:]]*input[[:space:]]\{1,\}\([^[:space:]]*\).*/\1/p' "$ROOT/smalltalk/$g/load.gs")"
  for rel in $inputs; do
    [ -f "$ROOT/$rel" ] || { echo "error: smalltalk/$g/load.gs inputs $rel, which does not exist (paths are relative to the repository root)" >&2; bad=1; }
  done
  while read -r f; do
    rel="${f#"$ROOT"/}"
    grep -qxF "$rel" <<<"$inputs" || { echo "error: smalltalk/$g/load.gs does not input $rel, so it would never be filed in" >&2; bad=1; }
  done < <(class_files "$g")
  return "$bad"
}

GROUPS_SELECTED="$(list_groups)"
if [ -z "$GROUPS_SELECTED" ]; then
  echo "error: no smalltalk/<group>/load.gs found${ONLY_GROUPS:+ for groups: $ONLY_GROUPS}" >&2
  exit 1
fi
# The manifest of one group (nothing for a group without class files).
group_manifest() {
  local files=() f
  while read -r f; do files+=("$f"); done < <(class_files "$1")
  [ ${#files[@]} -eq 0 ] || manifest_of "${files[@]}"
}
MANIFEST="$(for g in $GROUPS_SELECTED; do group_manifest "$g"; done | awk '!seen[$0]++')"
manifest_ok=1
if grep -q '^BAD ' <<<"$MANIFEST"; then grep '^BAD ' <<<"$MANIFEST" | sed 's/^BAD /error: /' >&2; manifest_ok=0; fi
for g in $GROUPS_SELECTED; do check_loader "$g" || manifest_ok=0; done
CLASSES="$(awk 'NF == 1' <<<"$MANIFEST")"
N_CLASSES="$(grep -c . <<<"$CLASSES" || true)"
N_METHODS="$(awk 'NF > 1' <<<"$MANIFEST" | grep -c . || true)"

binary_state() {
  if [ ! -x "$BIN" ]; then echo missing; return; fi
  if [ -n "$(find "$ROOT" \( -path "$ROOT/test" -o -path "$ROOT/build" -o -path "$ROOT/.git" \) -prune -o \
        \( \( -name '*.go' ! -name '*_test.go' \) -o -name go.mod -o -name go.sum \) -newer "$BIN" -print -quit)" ]; then
    echo stale
  else
    echo up-to-date
  fi
}

# ---- Smalltalk run blocks ---------------------------------------------------------------------
# The Smalltalk lives in smalltalk/scripts/install-*.gs (checked by bin/gscheck). Lists travel as
# one multi-line string literal split in the image, not as one literal per entry: a single method
# (a run block) stays small whatever the size of the manifest.

# Every class name the files of every group define, whatever --groups and --grail select: a class
# of an unselected group is this project's too, not another product's.
KNOWN_CLASSES="$(for g in $(ONLY_GROUPS="" GRAIL=1 list_groups); do group_manifest "$g"; done | awk 'NF == 1' | sort -u)"

# Prints each non-empty input line after prefix $1.
each_line() { local l; while IFS= read -r l; do [ -z "$l" ] || printf '%s%s\n' "$1" "$l"; done; }

st_prepare() { gs_env_smalltalk install-prepare CLASSES "$CLASSES" KNOWN "$KNOWN_CLASSES"; }
st_commit_group() { gs_env_smalltalk install-commit-group; }
st_users() { gs_env_smalltalk install-users; }
st_verify() { gs_env_smalltalk install-verify MANIFEST "$MANIFEST"; }
st_image_info() { gs_env_smalltalk install-image-info KNOWN "$KNOWN_CLASSES"; }
st_facts() { gs_env_smalltalk install-facts; }

# The refusal when Mcp holds classes no group defines (marked lines predecessor-class NAME).
report_predecessor() {
  local classes
  classes="$(gs_env_marked "$1" | sed -n 's/^predecessor-class //p')"
  [ -n "$classes" ] || return 0
  echo "error: the Mcp dictionary of this stone belongs to another product: it holds classes this" >&2
  echo "       project does not define: $(tr '\n' ' ' <<<"$classes")" >&2
  echo "       GemTalk/mcp_server installs Mcp with same-named classes (McpServer, McpDispatcher, ...);" >&2
  echo "       installing over it would replace them and break that install. Nothing was changed." >&2
  echo "       Remove that install first, or install into another stone. An earlier install of this" >&2
  echo "       project from before the McpGemstoneInstall marker: remove the classes named above." >&2
  return 1
}

# What --check says about the kernel facts (smalltalk/tests/McpKernelFactsTest.gs): the count, or
# each broken fact with the code its test names (gs_env_fact_report).
report_facts() {
  local marks counts broken t
  marks="$(gs_env_marked "$1")"
  if grep -qx 'facts absent' <<<"$marks"; then
    echo "kernel facts not checked: McpKernelFactsTest is not installed (install, then run --check again)"
    return 0
  fi
  counts="$(sed -n 's/^facts //p' <<<"$marks")"
  broken="$(sed -n 's/^fact-broken //p' <<<"$marks" | grep -o 'test[A-Za-z0-9_]*' | sort -u)"
  if [ -z "$broken" ]; then
    echo "kernel facts $(cut -d' ' -f2 <<<"$counts") of $(cut -d' ' -f1 <<<"$counts") hold (McpKernelFactsTest)"
    return 0
  fi
  echo "kernel facts BROKEN on this stone; the worker relies on each (McpKernelFactsTest):"
  for t in $broken; do gs_env_fact_report "$t" | sed 's/^/  /'; done
  return 1
}

# Runs a session; fails unless the image answered "done <tag>" and no "fail ..." line.
session() {
  local name="$1" tag="$2" log="$LOGDIR/$1.log" rc=0
  gs_env_topaz "$log" || rc=$?
  if ! gs_env_marked "$log" | grep -qx "done $tag"; then
    echo "error: step '$name' did not complete (topaz exited $rc); the end of $log:" >&2
    grep -v '^MCPI ' "$log" | tail -n 15 | sed 's/^/    /' >&2
    return 1
  fi
  if gs_env_marked "$log" | grep -q '^fail '; then
    gs_env_marked "$log" | sed -n 's/^fail /error: /p' >&2
    return 1
  fi
  [ "$rc" -eq 0 ] || echo "warning: topaz exited $rc in step '$name' although the image reported success; see $log" >&2
}

# What --check says about the optional Grail toolset.
grail_decision() {
  [ -f "$ROOT/smalltalk/grail/load.gs" ] || return 0
  if [ "$GRAIL" = 1 ]; then
    echo "  grail        selected (--grail or MCP_WITH_GRAIL=1): smalltalk/grail and smalltalk/tests/grail need Grail (ModuleAst) in the image"
  else
    echo "  grail        not selected: the optional Python toolset is filed in only with --grail (or MCP_WITH_GRAIL=1), on a Grail image"
  fi
}

# ---- --check ----------------------------------------------------------------------------------

if [ "$CHECK" = 1 ]; then
  rc=0
  gs_env_load || exit 1
  gs_env_report
  echo
  if gs_env_require_password && gs_env_require_topaz; then
    mkdir -p "$LOGDIR"
    st_image_info | session check image-info || rc=1
    if [ "$rc" = 0 ]; then
      info="$(gs_env_marked "$LOGDIR/check.log")"
      echo "image        GemStone $(sed -n 's/^version //p' <<<"$info"), logged in as $(sed -n 's/^user //p' <<<"$info")"
      mcp="$(sed -n 's/^mcp //p' <<<"$info")"
      if [ "$mcp" = absent ]; then echo "Mcp          absent: install.sh would create it"
      else echo "Mcp          present, $mcp classes"; fi
      report_predecessor "$LOGDIR/check.log" || rc=1
      st_facts | session facts facts || rc=1
      report_facts "$LOGDIR/facts.log" || rc=1
    fi
  else
    rc=1
  fi
  ldi_msg="$(mktemp)"
  if gs_env_require_netldi "run-server.sh" 2>"$ldi_msg"; then
    echo "netldi       $MCP_NETLDI (install.sh does not need it; run-server.sh does)"
  else
    echo "netldi       none usable: install.sh does not need one, run-server.sh will:"
    each_line '             ' <"$ldi_msg"
  fi
  rm -f "$ldi_msg"
  echo
  echo "would install:"
  for g in $GROUPS_SELECTED; do
    gm="$(group_manifest "$g" | awk 'NF == 1 {c++} NF > 1 {m++} END {printf "%d classes, %d methods", c, m}')"
    echo "  smalltalk/$g  $gm"
  done
  grail_decision
  echo "  total        $N_CLASSES classes, $N_METHODS methods, into symbol dictionary Mcp"
  echo "  binary       bin/mcp-gemstone is $(binary_state)$([ "$BUILD" = 0 ] && echo ' (--no-build: left alone)')"
  [ "$manifest_ok" = 1 ] || rc=1
  echo
  if [ "$rc" = 0 ]; then echo "OK: ready to install into $GS_STONE. Nothing was changed."
  else echo "NOT READY: fix the errors above. Nothing was changed."; fi
  exit "$rc"
fi

# ---- install ----------------------------------------------------------------------------------

[ "$manifest_ok" = 1 ] || { echo "error: the smalltalk/ sources are inconsistent (above); nothing was installed" >&2; exit 1; }
gs_env_load || exit 1
gs_env_require_password || exit 1
gs_env_require_topaz || exit 1

if [ "$BUILD" = 1 ]; then
  state="$(binary_state)"
  if [ "$state" != up-to-date ]; then
    echo "building bin/mcp-gemstone ($state) ..."
    if ! command -v go >/dev/null; then
      echo "error: bin/mcp-gemstone is $state and go is not on PATH; install Go 1.26+ or run with --no-build" >&2
      exit 1
    fi
    mkdir -p "$ROOT/bin"
    version="$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo dev)"
    CGO_ENABLED=1 go build -ldflags "-X main.version=$version" -o "$BIN" ./cmd/mcp-gemstone ||
      { echo "error: go build ./cmd/mcp-gemstone failed" >&2; exit 1; }
  fi
fi

mkdir -p "$LOGDIR"
echo "installing into stone $GS_STONE as $GS_USER: $(echo "$GROUPS_SELECTED" | tr '\n' ' ')($N_CLASSES classes, $N_METHODS methods); logs in build/install/"

if ! st_prepare | session prepare prepare; then
  report_predecessor "$LOGDIR/prepare.log" || true
  echo "install FAILED at prepare; nothing was filed in" >&2
  exit 1
fi
gs_env_marked "$LOGDIR/prepare.log" | sed -n -e 's/^created Mcp$/  created the Mcp dictionary/p' \
  -e 's/^unbound \(.*\) \(.*\)$/  removed the stale binding \1.\2/p' \
  -e 's/^foreign \(.*\) \(.*\)$/  note: \1.\2 is not defined here; left alone/p'

for g in $GROUPS_SELECTED; do
  log="group-${g//\//-}"
  { echo "set sourcestringclass String"; echo "input smalltalk/$g/load.gs"; echo "errorcount"; st_commit_group; } |
    session "$log" commit-group || { echo "install FAILED filing in smalltalk/$g; see build/install/$log.log" >&2; exit 1; }
  echo "  smalltalk/$g filed in and committed (compiler output: build/install/$log.log)"
done

{ st_users; st_verify; } | session verify verify || { echo "install FAILED: verification did not run; see build/install/verify.log" >&2; exit 1; }
marks="$(gs_env_marked "$LOGDIR/verify.log")"
added="$(sed -n 's/^user-added //p' <<<"$marks" | tr '\n' ' ')"
failed="$(sed -n 's/^user-failed //p' <<<"$marks")"
echo "  Mcp added to the symbol list of: ${added:-nobody new (all had it)}"
[ -z "$failed" ] || { echo "  could not add Mcp to (best effort; these users cannot run workers until it is added):"; each_line '    ' <<<"$failed"; }
extras="$(sed -n 's/^extra-method //p' <<<"$marks")"
[ -z "$extras" ] || { echo "  note: methods in the image that the files do not define (left alone):"; each_line '    ' <<<"$extras"; }

summary="$(sed -n 's/^verified //p' <<<"$marks")"
missing="$(sed -n -e 's/^missing-class /class  /p' -e 's/^missing-method /method /p' <<<"$marks")"
if [ -z "$summary" ] || [ -n "$missing" ] || grep -q '^no-dictionary' <<<"$marks"; then
  echo "install FAILED: the image does not hold everything the files define ($summary)." >&2
  echo "topaz reported success; the file-in dropped these (compiler errors are in build/install/group-*.log):" >&2
  each_line '  ' <<<"$missing" >&2
  echo "What did load is committed; fix the files and run ./install.sh again (re-running is safe)." >&2
  exit 1
fi
echo "OK: installed and verified $summary"
echo "next: ./run-server.sh"

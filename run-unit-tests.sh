#!/usr/bin/env bash
# run-unit-tests.sh -- run the SUnit suites of smalltalk/tests in the image, through linked topaz.
#
#   ./run-unit-tests.sh                 every TestCase subclass smalltalk/tests defines
#   ./run-unit-tests.sh McpJsonTest     only the named suites
#   MCP_WITH_GRAIL=1 ./run-unit-tests.sh  ...and the suite of the optional Grail toolset
#                                       (smalltalk/tests/grail), on an image installed with --grail
#
# McpKernelFactsTest (the kernel facts the worker relies on) runs first; its result is printed
# first, each broken fact with the code that relies on it. Then one line per suite and a final
# "N passed, N failed" line. Exit status is 0 only when every
# test ran and passed: a failure, an error, a suite that is not installed, or a suite that could not
# run is non-zero. A suite that spawns gems says so with a class-side `needsNetldi` answering true;
# with no netldi running those suites are not run, and are named, with how to start one. The
# netldi resolved by gs-env.sh (MCP_NETLDI) is in `SessionTemps current at: #McpTestNetldi` for the
# suites that build a gem NRS. The session logs out without committing, so what the tests leave
# behind is discarded.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")" && pwd)"
cd "$ROOT"
# shellcheck source=SCRIPTDIR/gs-env.sh
. "$ROOT/gs-env.sh"

gs_env_load || exit 1
gs_env_require_password || exit 1
gs_env_require_topaz || exit 1

if [ $# -gt 0 ]; then
  SUITES="$(printf '%s\n' "$@")"
else
  suite_files=(smalltalk/tests/*.gs)
  if [ "${MCP_WITH_GRAIL:-0}" = 1 ]; then suite_files+=(smalltalk/tests/grail/*.gs); fi
  SUITES="$(cat "${suite_files[@]}" 2>/dev/null | sed -n "s/^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]\{1,\}[A-Za-z]*[Ss]ubclass:[[:space:]]*[#']\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p" | sort -u)"
  [ -n "$SUITES" ] || { echo "error: smalltalk/tests defines no classes; nothing to run" >&2; exit 1; }
fi
NETLDI=false
if gs_env_require_netldi "some suites" 2>/dev/null; then NETLDI=true; fi

# The kernel facts run first and are reported first: a broken one explains failures further on.
FACTS=McpKernelFactsTest
if grep -qx "$FACTS" <<<"$SUITES"; then SUITES="$FACTS"$'\n'"$(grep -vx "$FACTS" <<<"$SUITES" || true)"; fi

LOGDIR="$ROOT/build/unit-tests"
mkdir -p "$LOGDIR"
LOG="$LOGDIR/run.log"
gs_env_smalltalk run-unit-tests SUITES "$SUITES" NETLDI "$NETLDI" NETLDI_NAME "${MCP_NETLDI:-}" |
  { gs_env_topaz "$LOG" || true; }

marks="$(gs_env_marked "$LOG")"
passed=0 failed=0 bad=0
facts="$(sed -n "s/^suite $FACTS //p" <<<"$marks")"
if [ -n "$facts" ]; then
  read -r run p f e <<<"$facts"
  if [ $((f + e)) -eq 0 ]; then
    echo "kernel facts: all $run hold ($FACTS)"
  else
    echo "kernel facts: $((f + e)) of $run BROKEN on this stone ($FACTS); the worker relies on each:"
    while read -r t; do
      gs_env_fact_report "$t" | sed 's/^/  /'
    done < <(sed -n -e "s/^failed $FACTS//p" -e "s/^errored $FACTS//p" <<<"$marks" | grep -o 'test[A-Za-z0-9_]*' | sort -u)
  fi
fi
while read -r name run p f e; do
  printf '%-32s %4d run %4d passed %4d failed %4d errors\n' "$name" "$run" "$p" "$f" "$e"
  passed=$((passed + p)); failed=$((failed + f + e))
done < <(sed -n 's/^suite //p' <<<"$marks")
sed -n -e 's/^failed /FAILED  /p' -e 's/^errored /ERROR   /p' <<<"$marks"
absent="$(sed -n 's/^absent //p' <<<"$marks" | tr '\n' ' ')"
if [ -n "$absent" ]; then echo "not installed in the image (run ./install.sh): $absent"; bad=1; fi
needs="$(sed -n 's/^needs-netldi //p' <<<"$marks" | tr '\n' ' ')"
if [ -n "$needs" ]; then
  echo "NOT RUN, they spawn gems and no netldi is running: $needs"
  echo "  start one (startnetldi -g -a \$USER gs64ldi) and run again"
  bad=1
fi
if ! grep -qx 'done tests' <<<"$marks"; then
  echo "the run did not finish; the end of $LOG:"
  grep -v '^MCPI ' "$LOG" | tail -n 15 | sed 's/^/    /'
  bad=1
fi
if ! grep -q '^suite ' <<<"$marks"; then echo "no suite ran: none of the named classes is a TestCase subclass in Mcp"; bad=1; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$bad" -eq 0 ]

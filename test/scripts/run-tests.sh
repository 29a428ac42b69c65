#!/usr/bin/env bash
# Tests of the operations scripts (gs-env.sh, server-process.sh, install.sh, run-server.sh,
# stop-server.sh, run-unit-tests.sh, setup-read-only-user.sh, test/realstone) against the fakes in
# test/fakes: gslist and topaz reproducing the measured behaviours (lock files in another global
# dir, no netldi, a file-in that exits 0 over a partial load), and a stand-in server binary.
#
# Each test gets a sandbox: a copy of the scripts as a repository root, the fixture Smalltalk of
# test/scripts/testdata, a product dir, a global dir with lock files, a HOME and a pretend image.
#   test/scripts/run-tests.sh [test_name ...]
# Prints PASS/FAIL per test and exits non-zero if any failed. Every wait is bounded.
# Assertions chain as `a && b || fail ...`: fail is meant to run when any link fails.
# shellcheck disable=SC2015
set -uo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/scripts-test.XXXXXX")"
cleanup() {
  local p
  while read -r p; do kill -KILL "$p" 2>/dev/null; done < <(cat "$WORK/pids" 2>/dev/null)
  rm -rf "$WORK"
}
trap cleanup EXIT

# A port no test shares with another run on this machine, probably free.
base_port=$((20000 + ($$ % 20000)))
free_port() {
  local p
  for p in $(seq "$base_port" $((base_port + 200))); do
    if ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then base_port=$((p + 1)); echo "$p"; return; fi
  done
  echo "no free port" >&2; return 1
}

echo "building the stand-in server binary ..."
mkdir -p "$WORK/fakebin"
(cd "$REPO" && go build -o "$WORK/fakebin/mcp-gemstone" ./test/fakes/mcp-gemstone) || { echo "FAIL: cannot build test/fakes/mcp-gemstone"; exit 1; }

# ---- sandbox and assertions ---------------------------------------------------------------------

sandbox() {
  S="$WORK/$1"
  mkdir -p "$S/repo" "$S/product/lib" "$S/srv/locks" "$S/home" "$S/image" "$S/none"
  cp -p "$REPO"/{gs-env.sh,server-process.sh,install.sh,run-server.sh,run-auth-server.sh,stop-server.sh,run-unit-tests.sh,setup-read-only-user.sh} "$S/repo/"
  cp -r "$REPO/test/scripts/testdata/smalltalk" "$S/repo/"
  cp -r "$REPO/smalltalk/scripts" "$S/repo/smalltalk/"
  : >"$S/product/lib/libgcits-3.7.5-64.so"
  echo "Stone 3.7.5 56820" >"$S/srv/locks/gs64stone..LCK"
  echo "Netldi 3.7.5 65166" >"$S/srv/locks/gs64ldi..LCK"
  export PATH="$REPO/test/fakes:$ORIG_PATH" HOME="$S/home" GEMSTONE="$S/product"
  export GS_ENV_DEFAULT_GLOBAL_DIRS="$S/none" FAKE_TOPAZ_STATE="$S/image"
  export GEMSTONE_GLOBAL_DIR="$S/srv" GS_STONE=gs64stone GS_USER=DataCurator GS_PASS=swordfish
  export MCP_BIN="$WORK/fakebin/mcp-gemstone" MCP_START_TIMEOUT=15 MCP_STOP_GRACE=10
  unset GS_PASS_FILE MCP_NETLDI MCP_PORT MCP_STATE_DIR FAKE_TOPAZ_DROP FAKE_TOPAZ_SUITES MCP_SETENV FAKE_TOPAZ_BROKEN_FACTS \
    MCP_STONE MCP_CONTROL_USER MCP_PASSWORD_FILE MCP_LOGIN_CHECK_TIMEOUT FAKE_READY_DELAY FAKE_DISCOVERY_FAIL \
    MCP_AUTH MCP_OIDC_ISSUER MCP_RESOURCE MCP_TLS_CERT MCP_TLS_KEY MCP_WORKER_USER
}
ORIG_PATH="$PATH"

# run CMD...: runs in the sandbox repo, output in $OUT, status in $RC.
run() { OUT="$(cd "$S/repo" && timeout 120 "$@" 2>&1)"; RC=$?; }
fail() { echo "    $*"; echo "    --- output:"; printf '%s\n' "$OUT" | sed 's/^/    | /'; return 1; }
expect_rc() { [ "$RC" = "$1" ] || fail "exit status $RC, want $1"; }
expect_out() { grep -qF -- "$1" <<<"$OUT" || fail "output lacks: $1"; }
expect_no_out() { ! grep -qF -- "$1" <<<"$OUT" || fail "output has: $1"; }
journal() { cat "$S/image/journal" 2>/dev/null; }
image_has() { grep -qxF "$1" "$S/image/image" || fail "image lacks: $1"; }
started() { echo "$1" >>"$WORK/pids"; }  # killed at exit whatever the test did
# A process that exited is gone even while it waits, as a zombie, for its new parent to reap it.
gone() { [ ! -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]; }
alive() { ! gone "$1"; }
pid_of_port() { cut -d' ' -f1 "$S/repo/build/run/mcp-gemstone-$1.pid"; }

# ---- environment discovery -----------------------------------------------------------------------

test_wrong_global_dir_is_corrected_by_asking_gslist() {
  sandbox wrong-global; export GEMSTONE_GLOBAL_DIR="$S/none"
  run ./install.sh --check
  expect_rc 0 && expect_out "GEMSTONE_GLOBAL_DIR=$S/none has no running server registered in it" &&
    expect_out "global dir   $S/srv (corrected from $S/none)" && expect_out "OK: ready to install"
}

test_unset_global_dir_is_discovered_from_lock_files_under_home() {
  sandbox unset-global; unset GEMSTONE_GLOBAL_DIR
  mkdir -p "$S/home/gs/locks"; mv "$S/srv/locks/"* "$S/home/gs/locks/"
  run ./install.sh --check
  expect_rc 0 && expect_out "GEMSTONE_GLOBAL_DIR was unset; found the running servers under $S/home/gs" &&
    expect_out "global dir   $S/home/gs (discovered)"
}

test_global_dir_where_the_named_stone_runs_wins_over_one_with_other_servers() {
  sandbox other-stone-dir
  mkdir -p "$S/home/gs/locks"; mv "$S/srv/locks/gs64stone..LCK" "$S/home/gs/locks/"
  echo "Stone 3.7.5 999" >"$S/srv/locks/someoneelse..LCK"
  run ./install.sh --check
  expect_rc 0 && expect_out "has running servers, but not stone 'gs64stone'" && expect_out "global dir   $S/home/gs (corrected from $S/srv)"
}

test_lock_files_of_dead_servers_do_not_count() {
  sandbox dead-locks; unset GEMSTONE_GLOBAL_DIR
  mkdir -p "$S/home/aa-old/locks"; echo "Stone 3.7.5 1 killed" >"$S/home/aa-old/locks/gs64stone..LCK"
  mkdir -p "$S/home/zz/locks"; mv "$S/srv/locks/"* "$S/home/zz/locks/"
  run ./install.sh --check
  expect_rc 0 && expect_out "global dir   $S/home/zz (discovered)"
}

test_no_running_server_anywhere_is_refused_as_not_dns_before_any_login() {
  sandbox no-server; rm "$S/srv/locks/"*
  run ./install.sh --check
  expect_rc 1 && expect_out "gslist finds no running GemStone server" && expect_out "not DNS" &&
    [ -z "$(journal)" ] || fail "topaz was run: $(journal)"
}

test_login_through_a_global_dir_without_the_stone_explains_4065() {
  sandbox login-4065
  # gslist sees the stone, but the lock file vanishes before topaz logs in (a stone restarted
  # elsewhere): the fake topaz then fails as the real one does, and the message must not say DNS.
  mkdir -p "$S/bin"; printf '#!/bin/sh\nrm -f %s\nexec %s "$@"\n' "$S/srv/locks/gs64stone..LCK" "$REPO/test/fakes/topaz" >"$S/bin/topaz"
  chmod +x "$S/bin/topaz"; export PATH="$S/bin:$PATH"
  run ./install.sh --no-build
  expect_rc 1 && expect_out "error 4065, 'getaddrinfo failed'" && expect_out "This is not DNS"
}

test_unset_gemstone_is_refused_with_the_fix() {
  sandbox no-gemstone; unset GEMSTONE
  run ./install.sh --check
  expect_rc 1 && expect_out "GEMSTONE is not set" && expect_out "export GEMSTONE="
}

test_stone_of_another_version_is_refused() {
  sandbox version; echo "Stone 3.7.4 56820" >"$S/srv/locks/gs64stone..LCK"
  run ./install.sh --check
  expect_rc 1 && expect_out "stone 'gs64stone' is version 3.7.4 but GEMSTONE" && expect_out "(4044)"
}

test_missing_password_is_refused_and_topaz_never_runs() {
  sandbox no-pass; unset GS_PASS
  run ./install.sh --no-build
  expect_rc 1 && expect_out "no password for GemStone user DataCurator" && [ -z "$(journal)" ] || fail "topaz ran"
}

test_password_never_reaches_output_logs_or_command_lines() {
  sandbox secret; export GS_PASS='s3cret-Pw-77' FAKE_TOPAZ_PASSWORD='s3cret-Pw-77'
  run ./install.sh --no-build
  expect_rc 0 || return 1
  local all="$OUT"
  run ./setup-read-only-user.sh; all="$all$OUT"
  expect_rc 0 || return 1
  if grep -qF 's3cret-Pw-77' <<<"$all" || grep -rqF 's3cret-Pw-77' "$S/repo/build"; then fail "the password was printed or logged"; return 1; fi
  grep -rq "password: '<redacted>'" "$S/repo/build/setup" || fail "the provisioned user's password was not redacted from the log"
}

test_password_file_is_read_and_its_content_not_printed() {
  sandbox pass-file; unset GS_PASS
  printf 'filepw-99\n' >"$S/pw"; chmod 600 "$S/pw"
  export GS_PASS_FILE="$S/pw" FAKE_TOPAZ_PASSWORD=filepw-99
  run ./install.sh --check
  expect_rc 0 && expect_out "from GS_PASS_FILE=$S/pw" && expect_no_out "filepw-99"
}

test_setenv_supplies_defaults_and_the_environment_wins() {
  sandbox setenv; unset GS_STONE
  printf 'GS_STONE=fromsetenv\nGS_USER=SetenvUser\n' >"$S/repo/.setenv"
  echo "Stone 3.7.5 1234" >"$S/srv/locks/fromsetenv..LCK"
  export GS_USER=EnvUser
  run ./install.sh --check
  expect_rc 0 && expect_out "stone        fromsetenv" && expect_out "user         EnvUser" && expect_out "settings     $S/repo/.setenv"
}

test_setenv_holding_a_password_readable_by_others_is_pointed_out() {
  sandbox setenv-perms; unset GS_PASS
  printf 'GS_PASS=swordfish\n' >"$S/repo/.setenv"; chmod 644 "$S/repo/.setenv"
  run ./install.sh --check
  expect_rc 0 && expect_out "holds GS_PASS and is readable by others (mode 644)" && expect_out "password     from GS_PASS" || return 1
  chmod 600 "$S/repo/.setenv"
  run ./install.sh --check
  expect_rc 0 && expect_no_out "readable by others"
}

test_several_stones_and_no_gs_stone_is_refused_with_the_list() {
  sandbox two-stones; unset GS_STONE
  echo "Stone 3.7.5 1234" >"$S/srv/locks/other..LCK"
  run ./install.sh --check
  expect_rc 1 && expect_out "more than one stone is running" && expect_out "other"
}

# ---- install.sh ----------------------------------------------------------------------------------

test_check_reports_and_changes_nothing() {
  sandbox check
  printf 'binding UserGlobals McpAlpha\n' >"$S/image/image"
  cp "$S/image/image" "$S/before"
  run ./install.sh --check
  expect_rc 0 && expect_out "Mcp          absent: install.sh would create it" &&
    expect_out "smalltalk/core  2 classes, 6 methods" && expect_out "total        3 classes, 7 methods" &&
    expect_out "binary       bin/mcp-gemstone is missing" && expect_out "Nothing was changed." &&
    expect_out "netldi       gs64ldi (install.sh does not need it; run-server.sh does)" || return 1
  cmp -s "$S/before" "$S/image/image" || fail "the image changed"
  ! journal | grep -qE '^(commit|input)' || fail "--check committed or filed in: $(journal)"
  [ ! -e "$S/repo/bin/mcp-gemstone" ] || fail "--check built the binary"
}

test_install_creates_mcp_unbinds_stale_names_and_verifies() {
  sandbox install
  printf 'binding UserGlobals McpAlpha\nbinding Published McpThirdParty\n' >"$S/image/image"
  export FAKE_TOPAZ_USERS="DataCurator SystemUser Locked" FAKE_TOPAZ_LOCKED_USERS=Locked
  run ./install.sh --no-build
  expect_rc 0 && expect_out "created the Mcp dictionary" && expect_out "removed the stale binding UserGlobals.McpAlpha" &&
    expect_out "note: Published.McpThirdParty is not defined here; left alone" &&
    expect_out "Mcp added to the symbol list of: DataCurator SystemUser" &&
    expect_out "Locked no authorization" &&
    expect_out "OK: installed and verified 3 classes 7 methods 0 missing" || return 1
  image_has "dict Mcp" && image_has "method McpAlpha inst at:put:" && image_has "method McpAlpha inst =" &&
    image_has "method McpAlpha class withCount:" && image_has "binding Published McpThirdParty" || return 1
  ! grep -q "binding UserGlobals McpAlpha" "$S/image/image" || fail "stale binding still there"
  ! grep -q "class McpNotDefinedHere" "$S/image/image" || fail "a subclass: inside a method was taken for a class definition"
  [ "$(journal | grep -c '^input smalltalk/[a-z]*/load.gs')" = 2 ] || fail "want one load.gs input per group: $(journal)"
}

test_install_refuses_an_mcp_dictionary_another_product_installed() {
  sandbox predecessor
  printf 'dict Mcp\nclass McpServer\nclass McpRouter\nclass McpBase\n' >"$S/image/image"
  cp "$S/image/image" "$S/before"
  run ./install.sh --no-build
  expect_rc 1 && expect_out "belongs to another product" && expect_out "McpBase McpRouter McpServer" &&
    expect_out "Nothing was changed" && expect_out "install FAILED at prepare; nothing was filed in" || return 1
  cmp -s "$S/before" "$S/image/image" || fail "the image changed: $(cat "$S/image/image")"
  ! journal | grep -qE '^(commit|input)' || fail "committed or filed in over another product: $(journal)"
  run ./install.sh --check
  expect_rc 1 && expect_out "belongs to another product" && expect_out "NOT READY" || return 1
}

test_install_marks_mcp_as_this_projects_and_reinstalls_over_it() {
  sandbox marker
  run ./install.sh --no-build
  expect_rc 0 && image_has "marker Mcp" || return 1
  printf 'class McpRetired\n' >>"$S/image/image"
  run ./install.sh --no-build
  expect_rc 0 && expect_no_out "belongs to another product" || return 1
}

test_check_runs_the_kernel_facts_and_names_what_a_broken_one_affects() {
  sandbox facts
  cp "$REPO/smalltalk/tests/McpKernelFactsTest.gs" "$S/repo/smalltalk/tests/"
  echo "input smalltalk/tests/McpKernelFactsTest.gs" >>"$S/repo/smalltalk/tests/load.gs"
  mkdir -p "$S/repo/smalltalk/reference" && cp "$REPO/smalltalk/core/McpJson.gs" "$S/repo/smalltalk/reference/"
  run ./install.sh --check
  expect_rc 0 && expect_out "kernel facts not checked: McpKernelFactsTest is not installed" || return 1
  run ./install.sh --no-build; expect_rc 0 || return 1
  run ./install.sh --check
  expect_rc 0 && expect_out "kernel facts 20 of 20 hold" || return 1
  export FAKE_TOPAZ_BROKEN_FACTS=testReadStreamPositionRoundTrips
  run ./install.sh --check
  expect_rc 1 && expect_out "kernel facts BROKEN on this stone" && expect_out "testReadStreamPositionRoundTrips" &&
    expect_out "read ahead and go back with position" && expect_out "affects: smalltalk/reference/McpJson.gs" &&
    expect_out "NOT READY" || return 1
}

# The optional Grail group is filed in only on request: --check says which way it went, a plain
# install leaves smalltalk/grail and smalltalk/tests/grail out, --grail (or MCP_WITH_GRAIL=1) files
# both in, the suite after the tests group, and a class of the group is never taken for another
# product's when a later install leaves the group out.
test_install_files_in_the_grail_group_only_when_asked() {
  sandbox grail
  mkdir -p "$S/repo/smalltalk/grail" "$S/repo/smalltalk/tests/grail"
  sed 's/McpAlphaTest/McpGrailFx/g; s/TestCase subclass/Object subclass/' "$S/repo/smalltalk/tests/McpAlphaTest.gs" \
    >"$S/repo/smalltalk/grail/McpGrailFx.gs"
  echo "input smalltalk/grail/McpGrailFx.gs" >"$S/repo/smalltalk/grail/load.gs"
  sed 's/McpAlphaTest/McpGrailFxTest/g' "$S/repo/smalltalk/tests/McpAlphaTest.gs" >"$S/repo/smalltalk/tests/grail/McpGrailFxTest.gs"
  echo "input smalltalk/tests/grail/McpGrailFxTest.gs" >"$S/repo/smalltalk/tests/grail/load.gs"
  run ./install.sh --check
  expect_rc 0 && expect_out "grail        not selected" && expect_no_out "smalltalk/grail " || return 1
  run ./install.sh --check --grail
  expect_rc 0 && expect_out "grail        selected (--grail or MCP_WITH_GRAIL=1)" &&
    expect_out "smalltalk/grail  1 classes, 1 methods" && expect_out "smalltalk/tests/grail  1 classes, 1 methods" || return 1
  run ./install.sh --no-build
  expect_rc 0 || return 1
  ! journal | grep -q 'grail' || fail "a plain install filed in the Grail group: $(journal)"
  MCP_WITH_GRAIL=1 run ./install.sh --no-build
  expect_rc 0 && expect_out "smalltalk/tests/grail filed in and committed (compiler output: build/install/group-tests-grail.log)" || return 1
  [ "$(journal | grep '^input smalltalk/.*load.gs' | tail -4 | tr '\n' ' ')" = \
    "input smalltalk/core/load.gs input smalltalk/grail/load.gs input smalltalk/tests/load.gs input smalltalk/tests/grail/load.gs " ] ||
    fail "want core, grail, tests, tests/grail in that order: $(journal)"
  run ./install.sh --no-build
  expect_rc 0 && expect_no_out "belongs to another product" || return 1
  MCP_WITH_GRAIL=yes run ./install.sh --check
  expect_rc 2 && expect_out "MCP_WITH_GRAIL=yes" || return 1
}

test_partial_load_that_topaz_reports_as_success_fails_loudly_with_the_missing_names() {
  sandbox partial
  export FAKE_TOPAZ_DROP="McpAlpha>>at:put:,McpAlpha class>>withCount:"
  run ./install.sh --no-build
  expect_rc 1 && expect_out "install FAILED" && expect_out "method McpAlpha>>at:put:" &&
    expect_out "method McpAlpha class>>withCount:" && expect_out "2 missing" && expect_no_out "OK: installed"
}

test_a_class_whose_definition_failed_is_named_with_its_methods() {
  sandbox missing-class; export FAKE_TOPAZ_DROP=McpBeta
  run ./install.sh --no-build
  expect_rc 1 && expect_out "class  McpBeta" && expect_out "method McpBeta>>handle:"
}

test_reinstall_over_an_installed_image_is_safe() {
  sandbox reinstall
  run ./install.sh --no-build; expect_rc 0 || return 1
  sort "$S/image/image" >"$S/first"
  run ./install.sh --no-build
  expect_rc 0 && expect_out "OK: installed and verified 3 classes 7 methods 0 missing" &&
    expect_out "nobody new (all had it)" && expect_no_out "created the Mcp dictionary" || return 1
  sort "$S/image/image" | cmp -s - "$S/first" || fail "re-install changed the image: $(sort "$S/image/image" | diff "$S/first" -)"
}

test_loader_that_omits_a_class_file_is_refused_before_login() {
  sandbox loader
  sed -i '/McpBeta.gs/d' "$S/repo/smalltalk/core/load.gs"
  run ./install.sh --no-build
  expect_rc 1 && expect_out "smalltalk/core/load.gs does not input smalltalk/core/McpBeta.gs" &&
    [ -z "$(journal)" ] || fail "topaz ran: $(journal)"
}

test_wrong_password_is_reported_as_a_refused_login() {
  sandbox bad-pass; export GS_PASS=nope
  run ./install.sh --no-build
  expect_rc 1 && expect_out "the stone refused the login of DataCurator"
}

test_the_real_smalltalk_tree_is_consistent_with_its_loaders() {
  sandbox real-tree
  compgen -G "$REPO/smalltalk/*/load.gs" >/dev/null || { fail "no smalltalk/<group>/load.gs in the repository yet"; return 1; }
  rm -rf "$S/repo/smalltalk"; cp -r "$REPO/smalltalk" "$S/repo/"
  local files grail
  files="$(for l in "$S"/repo/smalltalk/*/load.gs; do
    [ "$l" = "$S/repo/smalltalk/grail/load.gs" ] || find "$(dirname "$l")" -maxdepth 1 -name '*.gs' ! -name load.gs; done | wc -l)"
  run ./install.sh --check
  expect_rc 0 && expect_out "total        $files classes" || return 1
  [ -f "$S/repo/smalltalk/grail/load.gs" ] || return 0
  grail="$(find "$S/repo/smalltalk/grail" "$S/repo/smalltalk/tests/grail" -maxdepth 1 -name '*.gs' ! -name load.gs | wc -l)"
  run ./install.sh --check --grail
  expect_rc 0 && expect_out "total        $((files + grail)) classes"
}

# ---- run-server.sh / stop-server.sh ---------------------------------------------------------------

test_run_server_starts_detached_passes_mcp_variables_and_stop_is_graceful() {
  sandbox run-stop; local port; port="$(free_port)"
  export MCP_PORT="$port" MCP_TOOLSETS="McpBrowsingToolset McpSearchToolset" MCP_WORKER_USER=McpReadOnly FAKE_STOP_DELAY=1s
  # Not exported, so the server sees them only if run-server.sh hands them on itself.
  unset GS_STONE GS_USER; printf 'GS_STONE=gs64stone\nGS_USER=SetenvUser\n' >"$S/repo/.setenv"
  run ./run-server.sh
  expect_rc 0 && expect_out "serving http://127.0.0.1:$port/mcp" && expect_out "stop  ./stop-server.sh $port" || return 1
  local pid; pid="$(pid_of_port "$port")"; started "$pid"
  alive "$pid" || { fail "server not running after run-server.sh returned"; return 1; }
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { fail "/healthz does not answer"; return 1; }
  local log="$S/repo/build/run/mcp-gemstone-$port.log"
  grep -qF "MCP_TOOLSETS=McpBrowsingToolset McpSearchToolset" "$log" && grep -qF "MCP_WORKER_USER=McpReadOnly" "$log" &&
    grep -qF "GEMSTONE_GLOBAL_DIR=$S/srv" "$log" && grep -qF "MCP_NETLDI=gs64ldi" "$log" && grep -qF "GS_PASS=<set>" "$log" &&
    grep -qF "GS_STONE=gs64stone" "$log" && grep -qF "GS_USER=SetenvUser" "$log" &&
    ! grep -qE "MCP_STONE|MCP_CONTROL_USER|MCP_PASSWORD_FILE" "$log" ||
    { fail "variables not passed through under their own names: $(cat "$log")"; return 1; }
  [ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ] || { fail "server is not in a session of its own"; return 1; }
  run ./stop-server.sh "$port"
  expect_rc 0 && expect_out "stopped" || return 1
  gone "$pid" || fail "server still running"
  [ ! -e "$S/repo/build/run/mcp-gemstone-$port.pid" ] || fail "pid file left behind"
  grep -q "fake mcp-gemstone: stopped" "$log" || fail "server did not finish its SIGTERM shutdown"
}

test_workers_default_to_the_control_user_and_a_password_file_is_handed_on_as_a_file() {
  sandbox pw-file-server; local port; port="$(free_port)"; export MCP_PORT="$port"
  unset GS_PASS; printf 'pw\n' >"$S/pw"; chmod 600 "$S/pw"; printf 'GS_PASS_FILE=%s\n' "$S/pw" >"$S/repo/.setenv"
  run ./run-server.sh; expect_rc 0 || return 1; started "$(pid_of_port "$port")"
  local log="$S/repo/build/run/mcp-gemstone-$port.log"
  grep -qF "GS_PASS_FILE=$S/pw" "$log" && grep -qF "MCP_WORKER_USER=DataCurator" "$log" && ! grep -q "GS_PASS=" "$log" &&
    ! grep -q "MCP_PASSWORD_FILE" "$log" ||
    { fail "password file or worker user not handed on: $(cat "$log")"; return 1; }
  run ./stop-server.sh "$port"; expect_rc 0
}

test_server_that_cannot_log_in_is_stopped_and_reported() {
  sandbox no-login; local port; port="$(free_port)"; export MCP_PORT="$port" FAKE_LOGIN_FAIL=1
  run ./run-server.sh
  expect_rc 1 && expect_out "its control session could not log in to gs64stone as DataCurator" &&
    expect_out "/readyz: 503 the router's own GemStone login (its control session) failed (fake)" || return 1
  [ -z "$(ss -Htln "sport = :$port")" ] || fail "the server was left running"
}

test_run_server_returns_only_once_readyz_says_ready() {
  sandbox ready-wait; local port; port="$(free_port)"; export MCP_PORT="$port" FAKE_READY_DELAY=2s
  run ./run-server.sh
  expect_rc 0 && expect_out "serving http://127.0.0.1:$port/mcp" || return 1
  started "$(pid_of_port "$port")"
  curl -fsS "http://127.0.0.1:$port/readyz" | grep -qF '"status":"ready"' || { fail "run-server.sh returned before /readyz said ready"; return 1; }
  run ./stop-server.sh "$port"; expect_rc 0
}

test_server_that_never_gets_ready_is_stopped_with_the_readyz_reason() {
  sandbox never-ready; local port; port="$(free_port)"; export MCP_PORT="$port" FAKE_READY_DELAY=1h MCP_LOGIN_CHECK_TIMEOUT=2
  run ./run-server.sh
  expect_rc 1 && expect_out "the server answers, but is not ready after 2s; stopping it" &&
    expect_out "/readyz: 503 the router's own GemStone login (its control session) is under way (fake)" || return 1
  [ -z "$(ss -Htln "sport = :$port")" ] || fail "the server was left running"
  [ ! -e "$S/repo/build/run/mcp-gemstone-$port.pid" ] || fail "pid file left for a stopped server"
}

test_run_auth_server_asks_the_server_whether_it_can_check_tokens_yet() {
  sandbox auth-discovery; local port closed; port="$(free_port)"; closed="$(free_port)"
  export MCP_PORT="$port" MCP_OIDC_ISSUER="http://127.0.0.1:$closed/realm" MCP_RESOURCE="http://127.0.0.1:$port/mcp"
  run ./run-auth-server.sh
  expect_rc 0 && expect_out "(network-facing) is serving http://127.0.0.1:$port/mcp" &&
    expect_no_out "could not fetch the issuer's discovery document yet" || return 1
  started "$(pid_of_port "$port")"
  grep -qF "MCP_AUTH=oidc" "$S/repo/build/run/mcp-gemstone-$port.log" || { fail "MCP_AUTH=oidc not passed on"; return 1; }
  run ./stop-server.sh "$port"; expect_rc 0 || return 1
  export FAKE_DISCOVERY_FAIL=1
  run ./run-auth-server.sh
  expect_rc 0 && expect_out "could not fetch the issuer's discovery document yet (it retries)" || return 1
  started "$(pid_of_port "$port")"
  run ./stop-server.sh "$port"; expect_rc 0
}

test_a_setting_under_the_servers_other_name_is_refused_naming_the_right_one() {
  sandbox other-names; export MCP_STONE=gs64stone
  run ./install.sh --check
  expect_rc 1 && expect_out "MCP_STONE is set, but this setting is named GS_STONE" || return 1
  unset MCP_STONE; MCP_PORT="$(free_port)"; export MCP_PORT MCP_CONTROL_USER=DataCurator
  run ./run-server.sh
  expect_rc 1 && expect_out "MCP_CONTROL_USER is set, but this setting is named GS_USER" || return 1
  [ ! -e "$S/repo/build/run/mcp-gemstone-$MCP_PORT.pid" ] || fail "a server was started"
}

test_port_in_use_is_refused_before_anything_starts() {
  sandbox port-busy; local port; port="$(free_port)"
  MCP_PORT="$port" "$MCP_BIN" >/dev/null 2>&1 & local squatter=$!; started "$squatter"
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  export MCP_PORT="$port" FAKE_TOPAZ_STATE="$S/image"
  run ./run-server.sh
  expect_rc 1 && expect_out "port $port is already in use by \"mcp-gemstone\" pid=$squatter" && expect_out "nothing was started" || return 1
  [ ! -e "$S/repo/build/run/mcp-gemstone-$port.pid" ] && [ ! -e "$S/repo/build/run/mcp-gemstone-$port.log" ] ||
    fail "run-server.sh wrote a pid file or log for a port it refused"
  alive "$squatter" || fail "the process holding the port was disturbed"
}

test_second_start_on_the_same_port_is_refused() {
  sandbox twice; local port; port="$(free_port)"; export MCP_PORT="$port"
  run ./run-server.sh; expect_rc 0 || return 1; started "$(pid_of_port "$port")"
  run ./run-server.sh
  expect_rc 1 && expect_out "already running on port $port" || return 1
  run ./stop-server.sh "$port"; expect_rc 0
}

test_run_server_without_netldi_is_refused_naming_it() {
  sandbox no-netldi; rm "$S/srv/locks/gs64ldi..LCK"; MCP_PORT="$(free_port)"; export MCP_PORT
  run ./run-server.sh
  expect_rc 1 && expect_out "no netldi is running" && expect_out "startnetldi"
}

test_install_needs_no_netldi() {
  sandbox install-no-netldi; rm "$S/srv/locks/gs64ldi..LCK"
  run ./install.sh --check
  expect_rc 0 && expect_out "netldi       none usable: install.sh does not need one, run-server.sh will:" || return 1
  run ./install.sh --no-build
  expect_rc 0 && expect_out "OK: installed"
}

test_server_dying_at_startup_is_reported_with_its_log() {
  sandbox dies; MCP_PORT="$(free_port)"; export MCP_PORT FAKE_FAIL_START=1
  run ./run-server.sh
  expect_rc 1 && expect_out "the server exited during startup" && expect_out "login failed (FAKE_FAIL_START)" || return 1
  [ ! -e "$S/repo/build/run/mcp-gemstone-$MCP_PORT.pid" ] || fail "pid file left for a dead server"
}

test_stop_refuses_a_pid_that_is_not_our_server() {
  sandbox not-ours; local port; port="$(free_port)"
  sleep 300 & local victim=$!; started "$victim"
  mkdir -p "$S/repo/build/run"
  echo "$victim $(awk '{print $22}' "/proc/$victim/stat") $port /bin/sleep" >"$S/repo/build/run/mcp-gemstone-$port.pid"
  run ./stop-server.sh "$port"
  expect_rc 1 && expect_out "pid $victim" && expect_out "is not our server" && expect_out "Not signalling it" || return 1
  alive "$victim" || fail "stop-server.sh signalled a process that is not ours"
}

test_stop_refuses_our_binary_under_a_recycled_pid() {
  sandbox recycled; local port; port="$(free_port)"; export MCP_PORT="$port"
  run ./run-server.sh; expect_rc 0 || return 1
  local pid; pid="$(pid_of_port "$port")"; started "$pid"
  echo "$pid 1 $port $MCP_BIN" >"$S/repo/build/run/mcp-gemstone-$port.pid"
  run ./stop-server.sh "$port"
  expect_rc 1 && expect_out "started after the pid file was written" || return 1
  alive "$pid" || fail "signalled a process whose start time does not match"
}

test_stop_without_pid_file_refuses_a_foreign_listener() {
  sandbox foreign; local port; port="$(free_port)"
  cp "$MCP_BIN" "$S/other-server"
  MCP_PORT="$port" "$S/other-server" >/dev/null 2>&1 & local other=$!; started "$other"
  for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  run ./stop-server.sh "$port"
  expect_rc 1 && expect_out "not an mcp-gemstone server" || return 1
  alive "$other" || fail "signalled a foreign listener"
}

test_stop_kills_after_the_grace_when_sigterm_is_ignored() {
  sandbox kill; local port; port="$(free_port)"; export MCP_PORT="$port" FAKE_IGNORE_TERM=1 MCP_STOP_GRACE=1
  run ./run-server.sh; expect_rc 0 || return 1
  local pid; pid="$(pid_of_port "$port")"; started "$pid"
  run ./stop-server.sh "$port"
  expect_rc 2 && expect_out "still running after 1s; sending SIGKILL" || return 1
  gone "$pid" || fail "still running after SIGKILL"
}

test_stop_still_recognises_a_server_whose_binary_was_rebuilt_under_it() {
  sandbox rebuilt; local port; port="$(free_port)"
  mkdir -p "$S/bin"; cp "$MCP_BIN" "$S/bin/mcp-gemstone"; export MCP_PORT="$port" MCP_BIN="$S/bin/mcp-gemstone"
  run ./run-server.sh; expect_rc 0 || return 1
  local pid; pid="$(pid_of_port "$port")"; started "$pid"
  rm "$S/bin/mcp-gemstone"; cp "$WORK/fakebin/mcp-gemstone" "$S/bin/mcp-gemstone"
  readlink "/proc/$pid/exe" | grep -q '(deleted)' || { fail "setup: the running binary is not shown as deleted"; return 1; }
  run ./stop-server.sh "$port"
  expect_rc 0 && expect_out "stopped" || return 1
  gone "$pid" || fail "server still running"
}

test_stop_with_nothing_running_says_so() {
  sandbox nothing; run ./stop-server.sh "$(free_port)"
  expect_rc 0 && expect_out "nothing to stop"
}

test_real_server_on_the_standin_serves_a_session_and_stops_leaving_no_gem() {
  sandbox standin; local port; port="$(free_port)"
  [ -x "$REPO/bin/mcp-gemstone" ] && [ -d "$REPO/build/standin/lib" ] ||
    { fail "needs bin/mcp-gemstone and build/standin: run make build first"; return 1; }
  export MCP_PORT="$port" GEMSTONE="$REPO/build/standin" MCP_BIN="$REPO/bin/mcp-gemstone"
  run ./run-server.sh
  expect_rc 0 && expect_out "serving http://127.0.0.1:$port/mcp" || return 1
  local pid; pid="$(pid_of_port "$port")"; started "$pid"
  local headers="$S/headers"
  curl -fsS -D "$headers" -o "$S/body" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scripts-test","version":"1"}}}' \
    "http://127.0.0.1:$port/mcp" || { fail "initialize failed"; return 1; }
  grep -qi '^Mcp-Session-Id: ' "$headers" && grep -q '"result"' "$S/body" || { fail "initialize answered: $(cat "$headers" "$S/body")"; return 1; }
  local gems; gems="$(ps -o pid= --ppid "$pid" | tr -d ' ')"
  [ -n "$gems" ] || { fail "no gem process under the server after a session opened"; return 1; }
  run ./stop-server.sh "$port"
  expect_rc 0 && expect_out "stopped" || return 1
  local g; for g in $gems; do gone "$g" || { fail "gem $g outlived the stop"; return 1; }; done
  grep -q 'every worker gem logged out' "$S/repo/build/run/mcp-gemstone-$port.log" || fail "the server did not report its workers logged out"
}

test_real_server_on_the_standin_reads_the_stone_user_and_password_file_the_scripts_name() {
  # The stand-in refuses an empty password (4051) and the stone "nostone" (4065), so the real binary
  # is ready only if it read GS_PASS_FILE, and fails its login only if it read GS_STONE. Both come
  # from .setenv, unexported: only run-server.sh can have handed them on.
  sandbox standin-names; local port; port="$(free_port)"
  [ -x "$REPO/bin/mcp-gemstone" ] && [ -d "$REPO/build/standin/lib" ] ||
    { fail "needs bin/mcp-gemstone and build/standin: run make build first"; return 1; }
  export MCP_PORT="$port" GEMSTONE="$REPO/build/standin" MCP_BIN="$REPO/bin/mcp-gemstone" MCP_LOGIN_CHECK_TIMEOUT=10
  unset GS_PASS GS_STONE GS_USER; printf 'pw\n' >"$S/pw"; chmod 600 "$S/pw"
  printf 'GS_STONE=gs64stone\nGS_USER=DataCurator\nGS_PASS_FILE=%s\n' "$S/pw" >"$S/repo/.setenv"
  run ./run-server.sh
  expect_rc 0 && expect_out "serving http://127.0.0.1:$port/mcp" || return 1
  started "$(pid_of_port "$port")"
  run ./stop-server.sh "$port"; expect_rc 0 || return 1
  echo "Stone 3.7.5 4242" >"$S/srv/locks/nostone..LCK"
  printf 'GS_STONE=nostone\nGS_USER=DataCurator\nGS_PASS_FILE=%s\n' "$S/pw" >"$S/repo/.setenv"
  run ./run-server.sh
  expect_rc 1 && expect_out "its control session could not log in to nostone as DataCurator" || return 1
  [ -z "$(ss -Htln "sport = :$port")" ] || fail "the server was left running"
}

# ---- run-unit-tests.sh / setup-read-only-user.sh / realstone ----------------------------------

test_unit_tests_print_counts_and_fail_on_a_failure() {
  sandbox unit; run ./install.sh --no-build; expect_rc 0 || return 1
  export FAKE_TOPAZ_SUITES="McpAlphaTest:5:1:1:"
  run ./run-unit-tests.sh
  expect_rc 1 && expect_out "McpAlphaTest" && expect_out "FAILED  McpAlphaTest>>testFails1" &&
    expect_out "ERROR   McpAlphaTest>>testErrs1" && expect_out "3 passed, 2 failed"
}

test_unit_tests_run_the_kernel_facts_first_and_print_them_first() {
  sandbox unit-facts
  cp "$REPO/smalltalk/tests/McpKernelFactsTest.gs" "$S/repo/smalltalk/tests/"
  echo "input smalltalk/tests/McpKernelFactsTest.gs" >>"$S/repo/smalltalk/tests/load.gs"
  run ./install.sh --no-build; expect_rc 0 || return 1
  export FAKE_TOPAZ_SUITES="McpAlphaTest:3:0:0: McpKernelFactsTest:20:1:0:"
  run ./run-unit-tests.sh
  expect_rc 1 && expect_out "kernel facts: 1 of 20 BROKEN on this stone" && expect_out "testFails1" || return 1
  [ "$(grep -m1 -o 'kernel facts\|McpAlphaTest' <<<"$OUT")" = "kernel facts" ] || fail "the facts are not printed first"
  [ "$(grep -m1 -o '^Mcp[A-Za-z]*Test ' <<<"$OUT")" = "McpKernelFactsTest " ] || fail "the facts suite is not the first suite"
  journal | grep -q 'block mcp-tests:run' || fail "no test run"
}

test_marker_lines_of_wide_text_are_bytes_with_the_marker() {
  # smalltalk/scripts/emit.gs run in the executable model (bin/gsmodel, not GemStone): a line holding
  # characters wider than a byte must come out as a byte String that starts with the marker.
  sandbox emit
  (cd "$REPO" && go build -o "$WORK/gsmodel" ./cmd/gsmodel) || { fail "cannot build cmd/gsmodel"; return 1; }
  {
    (cd "$S/repo" && . ./gs-env.sh && gs_env_smalltalk emit MARK MCPI)
    printf '%s\n' printit '| wide line |' \
      "wide := (WriteStream on: String new) nextPutAll: 'caf'; nextPut: (Character codePoint: 233); nextPut: (Character codePoint: 8364); contents." \
      "line := (SessionTemps current at: #McpMarkLine) value: 'wide ' , wide." \
      '{line class name. line size. (line copyFrom: 1 to: line size - 1)}' '%'
  } >"$S/emit-probe.gs"
  OUT="$(timeout 60 "$WORK/gsmodel" "$S/emit-probe.gs" 2>&1)"; RC=$?
  expect_rc 0 && expect_out "#String, 16, 'MCPI wide caf??'" || return 1
}

test_unit_tests_pass_with_a_zero_exit() {
  sandbox unit-ok; run ./install.sh --no-build; expect_rc 0 || return 1
  export FAKE_TOPAZ_SUITES="McpAlphaTest:7:0:0:"
  run ./run-unit-tests.sh
  expect_rc 0 && expect_out "7 passed, 0 failed"
}

test_unit_tests_name_suites_that_need_a_netldi_when_none_runs() {
  sandbox unit-netldi; run ./install.sh --no-build; expect_rc 0 || return 1
  rm "$S/srv/locks/gs64ldi..LCK"
  export FAKE_TOPAZ_SUITES="McpAlphaTest:4:0:0:netldi"
  run ./run-unit-tests.sh
  expect_rc 1 && expect_out "NOT RUN, they spawn gems and no netldi is running: McpAlphaTest" && expect_out "0 passed, 0 failed"
}

test_unit_tests_that_run_no_suite_fail() {
  sandbox unit-none; run ./install.sh --no-build; expect_rc 0 || return 1
  export FAKE_TOPAZ_SUITES=""
  run ./run-unit-tests.sh
  expect_rc 1 && expect_out "no suite ran" && expect_out "0 passed, 0 failed"
}

test_unit_tests_name_suites_that_are_not_installed() {
  sandbox unit-absent
  run ./run-unit-tests.sh McpAlphaTest
  expect_rc 1 && expect_out "not installed in the image (run ./install.sh): McpAlphaTest"
}

test_read_only_user_is_provisioned_with_the_grant_and_checked() {
  sandbox readonly; run ./install.sh --no-build; expect_rc 0 || return 1
  run ./setup-read-only-user.sh
  expect_rc 0 && expect_out "created McpReadOnly readonly true" &&
    expect_out "granted: DataCurator mints one-time passwords for McpReadOnly" &&
    expect_out "checked: DataCurator minted a one-time password" &&
    expect_out "MCP_WORKER_USER=McpReadOnly ./run-server.sh" || return 1
  image_has "user McpReadOnly  #CodeModification #NoPerformOnServer #NoUserAction #NoGsFileOnServer #NoGsFileOnClient " &&
    image_has "otp-grant DataCurator McpReadOnly"
}

test_read_only_user_before_install_is_refused() {
  sandbox readonly-first
  run ./setup-read-only-user.sh
  expect_rc 1 && expect_out "run ./install.sh first"
}

test_realstone_without_gemstone_prints_why_it_skipped() {
  sandbox realstone; unset GEMSTONE
  OUT="$(timeout 30 "$REPO/test/realstone/run.sh" 2>&1)"; RC=$?
  expect_rc 0 && expect_out "realstone: SKIPPED" && expect_out "GEMSTONE is not set"
}

test_realstone_with_a_product_without_topaz_prints_why_it_skipped() {
  sandbox realstone-standin
  OUT="$(PATH="$ORIG_PATH" timeout 30 "$REPO/test/realstone/run.sh" 2>&1)"; RC=$?
  expect_rc 0 && expect_out "realstone: SKIPPED" && expect_out "has no bin/topaz"
}

# ---- runner ----------------------------------------------------------------------------------------

tests=("$@")
[ ${#tests[@]} -gt 0 ] || mapfile -t tests < <(declare -F | awk '$3 ~ /^test_/ {print $3}')
passed=0 failed=0 failures=()
for t in "${tests[@]}"; do
  if ( "$t" ) >"$WORK/$t.out" 2>&1; then
    passed=$((passed + 1)); echo "PASS $t"
  else
    failed=$((failed + 1)); failures+=("$t"); echo "FAIL $t"; sed 's/^/  /' "$WORK/$t.out"
  fi
done
echo "scripts-test: $passed passed, $failed failed${failures[*]:+ (${failures[*]})}"
[ "$failed" -eq 0 ]

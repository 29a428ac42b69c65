# ---- operations scripts: install.sh, run-server.sh, stop-server.sh, setup-read-only-user.sh,
# run-unit-tests.sh and the two files they source, gs-env.sh and server-process.sh ---------------
# shellcheck: every *.sh in the repository and the fake executables; any finding fails.
# scripts-test: the scripts against fake gslist/topaz and a stand-in server binary (test/scripts).
# realstone-test: the real-stone integration test; without a GemStone host it prints one line
#                 saying it skipped and why.

SHELL_SCRIPTS := $(shell find . -name '*.sh' -not -path './.git/*' -not -path '*/node_modules/*' -not -path './build/*' | sort) \
                 test/fakes/gslist test/fakes/topaz

.PHONY: shellcheck scripts-test realstone-test
shellcheck:
	@command -v shellcheck >/dev/null || { echo "shellcheck is not installed: apt-get install shellcheck"; exit 1; }
	shellcheck -x $(SHELL_SCRIPTS)
	@echo "shellcheck: clean ($(words $(SHELL_SCRIPTS)) files)"

scripts-test:
	timeout 600 test/scripts/run-tests.sh

realstone-test:
	timeout 1800 test/realstone/run.sh

TEST_STEPS += shellcheck scripts-test realstone-test

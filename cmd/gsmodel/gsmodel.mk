# The executable model of GemStone (internal/gsmodel, cmd/gsmodel; docs/gsmodel.md): bin/gsmodel,
# and the project's SUnit suites run in it. A failure, an error or a file-in error fails the
# step; a skipped test is printed with its reason. The suites run three times, each under a fresh
# hash-order seed (printed first; -hashseed replays it), so a test that depends on the order a
# hashed collection iterates in fails here rather than on a stone.
GSMODEL_SUITE_RUNS ?= 3
EXTRA_BUILD += bin/gsmodel
TEST_STEPS  += gsmodel-suites

.PHONY: bin/gsmodel gsmodel-suites
bin/gsmodel:
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gsmodel

gsmodel-suites: bin/gsmodel
	@for run in $$(seq $(GSMODEL_SUITE_RUNS)); do bin/gsmodel -test smalltalk || exit 1; done

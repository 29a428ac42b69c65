# The executable model of GemStone (internal/gsmodel, cmd/gsmodel; docs/gsmodel.md): bin/gsmodel,
# and the project's SUnit suites run in it. A failure, an error or a file-in error fails the
# step; a skipped test is printed with its reason.
EXTRA_BUILD += bin/gsmodel
TEST_STEPS  += gsmodel-suites

.PHONY: bin/gsmodel gsmodel-suites
bin/gsmodel:
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gsmodel

gsmodel-suites: bin/gsmodel
	bin/gsmodel -test smalltalk

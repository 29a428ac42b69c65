# One test command for the whole project: `make test`. CI runs it through .ci/run.
#
# Sections below are owned by the part of the project they build; each adds its checks to
# TEST_STEPS so the order of `make test` stays readable in one place.

SHELL      := /bin/bash
GO         ?= go
GOFLAGS    ?=
export CGO_ENABLED := 1

# The test stand-in is laid out like a GemStone product directory, so the binding finds it the
# way it finds a real one: GEMSTONE=$(STANDIN_HOME).
STANDIN_HOME    := $(CURDIR)/build/standin
STANDIN_VERSION := 3.7.5

TEST_STEPS :=

.PHONY: all build test fmt-check vet gotest clean
all: build

# ---- the server binary -------------------------------------------------------------------
.PHONY: bin/mcp-gemstone
bin/mcp-gemstone:
	$(GO) build $(GOFLAGS) -o $@ ./cmd/mcp-gemstone

# ---- the GCI test stand-in (test/standin) ------------------------------------------------
include test/standin/standin.mk

# ---- the Smalltalk static checker (cmd/gscheck) ------------------------------------------
-include cmd/gscheck/gscheck.mk

# ---- further sections (scripts, conformance, e2e) include their own fragments ------------
-include test/*.mk

build: bin/mcp-gemstone standin $(EXTRA_BUILD)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi; echo "gofmt: clean"

vet:
	$(GO) vet ./...

# Tests find the stand-in through GEMSTONE_STANDIN; a test that needs it and finds it absent fails.
gotest: standin
	GEMSTONE_STANDIN=$(STANDIN_HOME) $(GO) test -race -count=1 ./...

test: build fmt-check vet gotest $(TEST_STEPS)
	@echo "make test: all steps passed"

clean:
	rm -rf bin build

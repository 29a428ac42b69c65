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
# VERSION is what `bin/mcp-gemstone -version` prints, the startup log and /metrics carry: the
# tag when the commit has one, else the commit, with -dirty for uncommitted changes.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: bin/mcp-gemstone version-check
bin/mcp-gemstone:
	$(GO) build $(GOFLAGS) -ldflags "-X main.version=$(VERSION)" -o $@ ./cmd/mcp-gemstone

# The binary make build made names the source it was built from.
version-check: bin/mcp-gemstone
	@got=$$(./bin/mcp-gemstone -version); want="mcp-gemstone $(VERSION) ("; \
	case "$$got" in "$$want"*) echo "version-check: $$got";; \
	*) echo "version-check: bin/mcp-gemstone -version printed '$$got', want it to begin '$$want'"; exit 1;; esac

TEST_STEPS += version-check

# ---- the GCI test stand-in (test/standin) ------------------------------------------------
include test/standin/standin.mk

# ---- the Smalltalk static checker (cmd/gscheck) ------------------------------------------
-include cmd/gscheck/gscheck.mk

# ---- the executable model of GemStone (cmd/gsmodel) ----------------------------------------
include cmd/gsmodel/gsmodel.mk

# ---- further sections (scripts, conformance, e2e) include their own fragments ------------
-include test/*.mk

build: bin/mcp-gemstone standin $(EXTRA_BUILD)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi; echo "gofmt: clean"

vet:
	$(GO) vet ./...

# go.mod and go.sum say exactly what the code imports: a requirement nothing uses, a direct one
# marked indirect or a missing go.sum line fails here with the diff `go mod tidy` would make.
# It may download the modules that only dependencies' tests use (the module proxy serves them).
.PHONY: mod-check
mod-check:
	@if ! out=$$($(GO) mod tidy -diff 2>&1); then echo "$$out"; \
	echo "mod-check: go.mod/go.sum are not tidy; run go mod tidy"; exit 1; fi; echo "mod-check: go.mod and go.sum tidy"

TEST_STEPS += mod-check

# Static analysis at pinned versions, run with `go run pkg@version`: the module proxy serves the
# tools (checked against the checksum database), the Go caches keep them, nothing is installed.
# deadcode -test lists every function no main or test can reach. It runs twice: as plainly as
# anyone would type it, and with the build tags of the proof and real-stone tests on, so code
# only those tests use is checked too (such helpers live in files under the same tag).
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
LINT_TAGS   := proof,realstone

.PHONY: deadcode staticcheck
deadcode:
	@out=$$($(GO) run $(DEADCODE) -test ./... && $(GO) run $(DEADCODE) -test -tags $(LINT_TAGS) ./...) || exit 1; \
	if [ -n "$$out" ]; then echo "$$out"; echo "deadcode: unreachable functions (remove them or use them)"; exit 1; fi; \
	echo "deadcode: clean"

staticcheck:
	$(GO) run $(STATICCHECK) -tags $(LINT_TAGS) ./...
	@echo "staticcheck: clean"

TEST_STEPS += deadcode staticcheck

# Tests find the stand-in through GEMSTONE_STANDIN; a test that needs it and finds it absent fails.
gotest: standin
	GEMSTONE_STANDIN=$(STANDIN_HOME) $(GO) test -race -count=1 ./...

test: build fmt-check vet gotest $(TEST_STEPS)
	@echo "make test: all steps passed"

clean:
	rm -rf bin build

# ---- proof against the outside world ---------------------------------------------------------------
#   make conformance   the official MCP conformance suite (two pinned versions, two revisions)
#                      against bin/mcp-gemstone on the stand-in, held against
#                      test/conformance/baseline.yml; installs Node 22 and the suite project-locally
#                      (npm ci, once) from test/conformance/package-lock.json
# Every step is bounded by timeout(1), so none can hang make test.

.PHONY: conformance
conformance: bin/mcp-gemstone standin
	timeout 300 test/conformance/run.sh

TEST_STEPS += conformance

#   make proof-test    bounded load and fault tests (test/load), real MCP clients (test/clients)
#                      and a real nginx in front (test/nginx) against bin/mcp-gemstone on the
#                      stand-in; Go tests built with the "proof" tag so the race-instrumented
#                      unit run stays light. Installs the pinned Node clients (npm ci, once) and
#                      Debian's nginx when absent.
PROOF_PKGS := ./test/load/... ./test/clients/... ./test/nginx/...

.PHONY: proof-test
proof-test: standin
	test/conformance/setup.sh test/conformance
	test/conformance/setup.sh test/clients
	test/nginx/setup.sh
	$(GO) vet -tags proof $(PROOF_PKGS)
	GEMSTONE_STANDIN=$(STANDIN_HOME) timeout 420 $(GO) test -tags proof -count=1 -timeout 400s -p 1 $(PROOF_PKGS)

TEST_STEPS += proof-test

#   make bench         the three benchmarks of docs/performance.md (not part of make test): both
#                      sides, ratio and target in a table; figures recorded in that page
.PHONY: bench
bench: bin/mcp-gemstone standin
	@mkdir -p build/bench
	$(GO) build -o build/bench/benchserver ./test/bench/benchserver
	$(GO) build -o build/bench/benchrun ./test/bench/benchrun
	GEMSTONE_STANDIN=$(STANDIN_HOME) timeout 600 build/bench/benchrun -server bin/mcp-gemstone -benchserver build/bench/benchserver $(BENCH_FLAGS)

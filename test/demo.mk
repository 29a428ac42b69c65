# make demo: bin/mcp-gemstone in the foreground on 127.0.0.1:$${MCP_PORT:-8000}, serving the project's
# real Smalltalk tools (McpServer) run by bin/gsmodel -stone, the executable MODEL of GemStone
# (internal/gsmodel; not GemStone), seeded with smalltalk/core and the sample application
# (internal/gsmodel/sample). The GCI side is the TEST STAND-IN's: its gems forward the worker calls to
# the model stone (GSMODEL_STONE). The stone starts first and stops with the server; what the
# tools commit lives until then.
#
# make demo-fixtures: the same server on the GCI TEST STAND-IN's fixture tools (echo, sleep, die,
# ...), no model: for the protocol suites and anyone probing the transport.
#
# Both honour every MCP_* variable in the environment; GS_PASS defaults to a password the
# stand-in accepts. The banner comes once /readyz answers; on a taken port the server runs in
# the foreground only to fail with its hint, and no URL shows (nor does a model stone start).
# Stand-in gems are cheap processes, so the session cap is raised: clients that never DELETE
# (the Inspector CLI, a client without a stream) hold a slot until the lifetime policy reaps it.
# Ctrl-C stops it gracefully.
#
# Also the front end's extra test steps: a short fuzz run of the request path, and make demo's
# own test (test/demo-test.sh). The end-to-end
# tests (test/e2e) are plain `go test` and run in gotest with GEMSTONE_STANDIN set.

DEMO_GEM_DIR      := $(CURDIR)/build/demo-gems
DEMO_MAX_SESSIONS := 20
FUZZTIME     ?= 10s

DEMO_STONE_DIR    := $(CURDIR)/build/demo-model
DEMO_MODEL_FILES  := smalltalk/core/load.gs internal/gsmodel/sample/load.gs

# The environment both demos run the server with.
DEMO_ENV = export GEMSTONE=$(STANDIN_HOME) GCI_STANDIN_DIR=$(DEMO_GEM_DIR) GS_PASS="$${GS_PASS:-swordfish}" \
		MCP_HOST="$${MCP_HOST:-127.0.0.1}" MCP_PORT="$${MCP_PORT:-8000}" MCP_LOG_FORMAT="$${MCP_LOG_FORMAT:-console}" \
		MCP_MAX_SESSIONS="$${MCP_MAX_SESSIONS:-$(DEMO_MAX_SESSIONS)}"

# Both demos start the server in the background, stop it on TERM, and print the URL once
# /readyz says ready (a server that exits first ends the demo with its status).
DEMO_START = ./bin/mcp-gemstone & pid=$$!; \
	trap 'kill -TERM $$pid 2>/dev/null; wait $$pid' TERM; trap 'wait $$pid' INT; \
	until curl -fs -o /dev/null "http://$$MCP_HOST:$$MCP_PORT/readyz"; do \
		kill -0 $$pid 2>/dev/null || { wait $$pid; exit $$?; }; sleep 0.2; done; \
	echo "mcp-gemstone demo: http://$$MCP_HOST:$$MCP_PORT/mcp  (ready; at most $$MCP_MAX_SESSIONS sessions at once)"

.PHONY: demo demo-fixtures fuzz-router demo-test
# The stone's socket is per port, so demos on two ports do not meet; the EXIT trap stops the
# stone however the server ended (Ctrl-C, SIGTERM to either, a failed start).
demo: bin/mcp-gemstone bin/gsmodel standin
	@mkdir -p $(DEMO_GEM_DIR) $(DEMO_STONE_DIR)
	@$(DEMO_ENV); \
	if (exec 3<>"/dev/tcp/$$MCP_HOST/$$MCP_PORT") 2>/dev/null; then exec ./bin/mcp-gemstone; fi; \
	export GSMODEL_STONE="$(DEMO_STONE_DIR)/stone-$$MCP_PORT.sock"; rm -f "$$GSMODEL_STONE"; \
	./bin/gsmodel -stone "$$GSMODEL_STONE" $(DEMO_MODEL_FILES) & stone=$$!; \
	trap 'kill -TERM $$stone 2>/dev/null; wait $$stone' EXIT; \
	until [ -S "$$GSMODEL_STONE" ]; do \
		kill -0 $$stone 2>/dev/null || { echo "mcp-gemstone demo: the model stone did not start"; exit 1; }; sleep 0.1; done; \
	$(DEMO_START); \
	echo "  The tools are the project's real Smalltalk tools, run by gsmodel: a MODEL of GemStone for"; \
	echo "  trying the tools, NOT GemStone; how it answers says nothing about a real stone (docs/gsmodel.md)."; \
	echo "  A sample application is loaded: dictionary Sample, run_test_class SampleAccountTest (one test"; \
	echo "  fails). Commits last until Ctrl-C, which stops the server and the model; nothing is kept."; \
	wait $$pid

demo-fixtures: bin/mcp-gemstone standin
	@mkdir -p $(DEMO_GEM_DIR)
	@$(DEMO_ENV); \
	if (exec 3<>"/dev/tcp/$$MCP_HOST/$$MCP_PORT") 2>/dev/null; then exec ./bin/mcp-gemstone; fi; \
	$(DEMO_START); \
	echo "  The worker gems are the GCI TEST STAND-IN's processes and their tools (echo, sleep, fail,"; \
	echo "  big, unicode, die, ...) are TEST FIXTURES, NOT GemStone. Ctrl-C stops the server."; \
	wait $$pid

fuzz-router:
	$(GO) test -run '^$$' -fuzz FuzzPostBody -fuzztime $(FUZZTIME) ./router/

# make demo and make demo-fixtures themselves, as a new user meets them (test/demo-test.sh).
demo-test: bin/mcp-gemstone bin/gsmodel standin
	timeout 120 test/demo-test.sh

TEST_STEPS += fuzz-router demo-test

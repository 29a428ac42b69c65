# make demo: bin/mcp-gemstone in the foreground on the GCI TEST STAND-IN (not GemStone), on
# 127.0.0.1:$${MCP_PORT:-8000}. Every MCP_* variable in the environment is honoured; GS_PASS
# defaults to a password the stand-in accepts. The banner comes once /readyz answers; on a
# taken port the server runs in the foreground only to fail with its hint, and no URL shows. Stand-in gems are cheap
# processes, so the session cap is raised: clients that never DELETE (the Inspector CLI, a
# client without a stream) hold a slot until the lifetime policy reaps it. Ctrl-C stops it
# gracefully.
#
# Also the front end's extra test steps: a short fuzz run of the request path, and make demo's
# own test (test/demo-test.sh). The end-to-end
# tests (test/e2e) are plain `go test` and run in gotest with GEMSTONE_STANDIN set.

DEMO_GEM_DIR      := $(CURDIR)/build/demo-gems
DEMO_MAX_SESSIONS := 20
FUZZTIME     ?= 10s

.PHONY: demo fuzz-router demo-test
demo: bin/mcp-gemstone standin
	@mkdir -p $(DEMO_GEM_DIR)
	@export GEMSTONE=$(STANDIN_HOME) GCI_STANDIN_DIR=$(DEMO_GEM_DIR) GS_PASS="$${GS_PASS:-swordfish}" \
		MCP_HOST="$${MCP_HOST:-127.0.0.1}" MCP_PORT="$${MCP_PORT:-8000}" MCP_LOG_FORMAT="$${MCP_LOG_FORMAT:-console}" \
		MCP_MAX_SESSIONS="$${MCP_MAX_SESSIONS:-$(DEMO_MAX_SESSIONS)}"; \
	if (exec 3<>"/dev/tcp/$$MCP_HOST/$$MCP_PORT") 2>/dev/null; then exec ./bin/mcp-gemstone; fi; \
	./bin/mcp-gemstone & pid=$$!; \
	trap 'kill -TERM $$pid 2>/dev/null; wait $$pid' TERM; trap 'wait $$pid' INT; \
	until curl -fs -o /dev/null "http://$$MCP_HOST:$$MCP_PORT/readyz"; do \
		kill -0 $$pid 2>/dev/null || { wait $$pid; exit $$?; }; sleep 0.2; done; \
	echo "mcp-gemstone demo: http://$$MCP_HOST:$$MCP_PORT/mcp  (ready; at most $$MCP_MAX_SESSIONS sessions at once)"; \
	echo "  The worker gems are the GCI TEST STAND-IN's processes and their tools (echo, sleep, fail,"; \
	echo "  big, unicode, die, ...) are TEST FIXTURES, NOT GemStone. Ctrl-C stops the server."; \
	wait $$pid

fuzz-router:
	$(GO) test -run '^$$' -fuzz FuzzPostBody -fuzztime $(FUZZTIME) ./router/

# make demo itself, as a new user meets it (test/demo-test.sh).
demo-test: bin/mcp-gemstone standin
	timeout 120 test/demo-test.sh

TEST_STEPS += fuzz-router demo-test

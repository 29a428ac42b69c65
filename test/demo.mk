# make demo: bin/mcp-gemstone in the foreground on the GCI TEST STAND-IN (not GemStone), on
# 127.0.0.1:$${MCP_PORT:-8000}. Every MCP_* variable in the environment is honoured; GS_PASS
# defaults to a password the stand-in accepts. Ctrl-C stops it gracefully.
#
# Also the front end's extra test steps: a short fuzz run of the request path. The end-to-end
# tests (test/e2e) are plain `go test` and run in gotest with GEMSTONE_STANDIN set.

DEMO_GEM_DIR := $(CURDIR)/build/demo-gems
FUZZTIME     ?= 10s

.PHONY: demo fuzz-router
demo: bin/mcp-gemstone standin
	@mkdir -p $(DEMO_GEM_DIR)
	@echo "mcp-gemstone demo: http://$${MCP_HOST:-127.0.0.1}:$${MCP_PORT:-8000}/mcp"
	@echo "  The worker gems are the GCI TEST STAND-IN's processes and their tools (echo, sleep, fail,"
	@echo "  big, unicode, die, ...) are TEST FIXTURES, NOT GemStone. Ctrl-C stops the server."
	@GEMSTONE=$(STANDIN_HOME) GCI_STANDIN_DIR=$(DEMO_GEM_DIR) GS_PASS="$${GS_PASS:-swordfish}" \
		MCP_PORT="$${MCP_PORT:-8000}" MCP_LOG_FORMAT="$${MCP_LOG_FORMAT:-console}" \
		exec ./bin/mcp-gemstone

fuzz-router:
	$(GO) test -run '^$$' -fuzz FuzzPostBody -fuzztime $(FUZZTIME) ./router/

TEST_STEPS += fuzz-router

# ---- proof against the outside world (issue 9) -------------------------------------------------
#   make conformance   the official MCP conformance suite (two pinned versions, two revisions)
#                      against bin/mcp-gemstone on the stand-in, held against
#                      test/conformance/baseline.yml; installs Node 22 and the suite project-locally
#                      (npm ci, once) from test/conformance/package-lock.json
# Every step is bounded by timeout(1), so none can hang make test.

.PHONY: conformance
conformance: bin/mcp-gemstone standin
	timeout 300 test/conformance/run.sh

TEST_STEPS += conformance

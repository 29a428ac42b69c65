# The Smalltalk static checker (cmd/gscheck, internal/gscheck; docs/gscheck.md).
# bin/gscheck is phony like bin/mcp-gemstone: go build's cache decides what is stale, and the
# kernel inventory (internal/gscheck/inventory/*.txt) is embedded, so an edit there rebuilds it.
EXTRA_BUILD += bin/gscheck
TEST_STEPS  += gscheck-smalltalk

.PHONY: bin/gscheck gscheck-smalltalk
bin/gscheck:
	$(GO) build $(GOFLAGS) -o $@ ./cmd/gscheck

# Fails when smalltalk/ holds no .gs file at all, so a missing tree is never a silent pass.
# -strict: this project's own files must keep its layout rules too, not only GemStone's.
gscheck-smalltalk: bin/gscheck
	bin/gscheck -strict smalltalk

package config

import (
	"os"
	"strings"
	"testing"
)

// The configuration table in README.md is this package's Table(): a setting added,
// renamed or given a new default here must be documented there in the same change.
func TestTransportDocCarriesTheCurrentConfigurationTable(t *testing.T) {
	doc, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if !strings.Contains(string(doc), Table()) {
		t.Fatalf("README.md does not hold the current configuration table; paste this in:\n%s", Table())
	}
}

// MCP_REQUEST_TIMEOUT's default is a decision with a cost (an abandoned call holds its
// session's later calls); the README says so beside the configuration table.
func TestTheRequestTimeoutDefaultIsExplainedBesideTheSetting(t *testing.T) {
	doc, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	s := string(doc)
	table := strings.Index(s, Table())
	note := strings.Index(s, "`MCP_REQUEST_TIMEOUT` stays `none` by default")
	if table < 0 || note < table || note-table-len(Table()) > 2000 {
		t.Fatal("README.md must explain MCP_REQUEST_TIMEOUT's default right after the configuration table")
	}
	for _, want := range []string{"abandons a call without cancelling it", "notifications/cancelled", "wait behind that call"} {
		if !strings.Contains(s[note:note+1200], want) {
			t.Errorf("the MCP_REQUEST_TIMEOUT note does not say %q", want)
		}
	}
}

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

package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The configuration table in docs/configuration.md is this package's Table(), every row
// (the auth and TLS ones included): a setting added, renamed or given a new default here must
// be documented there in the same change.
func TestTheConfigurationDocCarriesTheCurrentTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatalf("docs/configuration.md: %v", err)
	}
	if !strings.Contains(string(doc), Table()) {
		t.Fatalf("docs/configuration.md does not hold the current configuration table; paste this in:\n%s", Table())
	}
	for _, row := range []string{"| `MCP_AUTH` | `-auth` |", "| `MCP_SCOPE_TOOLSETS` | `-scope-toolsets` |", "| `MCP_TLS_KEY` | `-tls-key` |", "| `GS_PASS` | none |"} {
		if !strings.Contains(Table(), row) {
			t.Errorf("the table lacks the row %s", row)
		}
	}
}

// The README points at the configuration doc instead of carrying the table.
func TestTheReadmeLeavesTheSettingsTableToTheConfigurationDoc(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(docs/configuration.md)") || strings.Contains(string(readme), "| variable | flag | default | meaning |") {
		t.Fatal("README.md must link docs/configuration.md and leave the table to it")
	}
}

// No doc teaches a variable the server refuses as an old name: a paragraph may name one only
// beside its replacement (as the renaming table and the scripts' notes do).
func TestNoDocNamesAnOldVariableWithoutItsReplacement(t *testing.T) {
	docs, _ := filepath.Glob("../../docs/*.md")
	deploy, _ := filepath.Glob("../../deploy/*/*")
	more, _ := filepath.Glob("../../deploy/*.md")
	for _, f := range append(append(append(docs, deploy...), more...), "../../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, para := range strings.Split(string(b), "\n\n") {
			for _, r := range renamed {
				if regexp.MustCompile(`\b`+r.old+`\b`).MatchString(para) && !regexp.MustCompile(`\b`+r.now+`\b`).MatchString(para) {
					t.Errorf("%s names %s without its replacement %s:\n%s", strings.TrimPrefix(f, "../../"), r.old, r.now, para)
				}
			}
		}
	}
}

// MCP_REQUEST_TIMEOUT's default is a decision with a cost (an abandoned call holds its
// session's later calls); the configuration doc says so beside the table.
func TestTheRequestTimeoutDefaultIsExplainedBesideTheSetting(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatalf("docs/configuration.md: %v", err)
	}
	s := string(doc)
	table := strings.Index(s, Table())
	note := strings.Index(s, "`MCP_REQUEST_TIMEOUT` stays `none` by default")
	if table < 0 || note < table || note-table-len(Table()) > 2000 {
		t.Fatal("docs/configuration.md must explain MCP_REQUEST_TIMEOUT's default right after the configuration table")
	}
	for _, want := range []string{"abandons a call without cancelling it", "notifications/cancelled", "wait behind that call"} {
		if !strings.Contains(s[note:note+1200], want) {
			t.Errorf("the MCP_REQUEST_TIMEOUT note does not say %q", want)
		}
	}
}

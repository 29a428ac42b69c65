package toolsdoc

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	kindSignalled = regexp.MustCompile(`(?:signalKind|errorContentKind):\s*'(\w+)'`)
	kindRow       = regexp.MustCompile("^\\|\\s*`(\\w+)`\\s*\\|")
)

// notToolKinds are the kinds the core signals that never reach a client as a failed tool call,
// each with where it goes instead.
var notToolKinds = map[string]string{
	"parseError":       "McpJson: a body that is not JSON, answered as JSON-RPC -32700",
	"invalidUtf8":      "McpJson: a body that is not UTF-8, answered as JSON-RPC -32700",
	"badConfig":        "McpToolRegistry: two toolsets register one tool name, and the worker does not start",
	"resourceNotFound": "McpResourceCatalog: a resource URI that names nothing, answered as JSON-RPC -32002 (docs/transport.md)",
	"frontEndTool": "McpSessionToolset: open_session or close_session reached a worker; the router serves both by name, " +
		"so only a worker driven without it answers this",
}

// docErrorKinds are the kinds of the "## Error kinds" table of docs/tools.md.
func docErrorKinds(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = strings.TrimSpace(line) == "## Error kinds"
			continue
		}
		if m := kindRow.FindStringSubmatch(line); in && m != nil {
			kinds = append(kinds, m[1])
		}
	}
	if len(kinds) == 0 {
		t.Fatal(`docs/tools.md has no "## Error kinds" table`)
	}
	return kinds
}

// standardKinds reads McpError class >> standardKinds.
func standardKinds(t *testing.T) []string {
	t.Helper()
	for _, m := range parseMethods(t, filepath.Join(coreDir, "McpError.gs")) {
		if m.class == "McpError" && m.meta && m.selector == "standardKinds" {
			var kinds []string
			for _, lit := range stringLit.FindAllStringSubmatch(m.body, -1) {
				kinds = append(kinds, lit[1])
			}
			return kinds
		}
	}
	t.Fatal("McpError class >> standardKinds not found")
	return nil
}

// One vocabulary of error kinds: the table in docs/tools.md is McpError's standardKinds, and every
// kind the core signals as a tool's failure is in it.
func TestErrorKindsAreOneDocumentedVocabulary(t *testing.T) {
	doc, code := docErrorKinds(t), standardKinds(t)
	if strings.Join(sortedCopy(doc), " ") != strings.Join(sortedCopy(code), " ") {
		t.Errorf("docs/tools.md documents the error kinds %v, McpError standardKinds says %v", doc, code)
	}
	known := map[string]bool{}
	for _, k := range code {
		known[k] = true
	}
	files, err := filepath.Glob(filepath.Join(coreDir, "*.gs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Smalltalk in %s: %v", coreDir, err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range kindSignalled.FindAllStringSubmatch(string(data), -1) {
			kind := m[1]
			seen[kind] = true
			if !known[kind] && notToolKinds[kind] == "" {
				t.Errorf("%s signals the error kind %q, which docs/tools.md's Error kinds table does not document", filepath.Base(file), kind)
			}
		}
	}
	var unused []string
	for _, k := range code {
		if !seen[k] && k != "compileError" && k != "other" {
			unused = append(unused, k)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("documented error kinds nothing in smalltalk/core signals: %v", unused)
	}
}

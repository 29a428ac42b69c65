package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// defaultURL is the address every snippet names: the server's defaults (MCP_HOST, MCP_PORT).
const defaultURL = "http://127.0.0.1:8000/mcp"

// snippetFiles are the client snippets the docs show, one file each, by the section that must
// show each exactly: Claude Code in the README's "Connect a client", the other editors and the
// Inspector, and the SDKs, in docs/clients.md. snippets_run_test.go (tag proof) runs the ones
// whose client runs here.
var snippetFiles = map[string]docSection{
	"claude-code.txt": readmeClients, "claude-desktop.json": editorClients, "cursor.json": editorClients,
	"vscode.json": editorClients, "inspector.txt": editorClients,
	"ts-sdk.mjs": sdkClients, "go-sdk/main.go": sdkClients, "python-sdk.py": sdkClients,
}

// docSection is a section of a doc: the text from its heading to the next heading of its level.
type docSection struct{ file, heading string }

var (
	readmeClients = docSection{"../../README.md", "## Connect a client"}
	editorClients = docSection{"../../docs/clients.md", "## Editors and the Inspector"}
	sdkClients    = docSection{"../../docs/clients.md", "## From code: the MCP SDKs"}
)

func (d docSection) text(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile(d.file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, d.heading)
	if i < 0 {
		t.Fatalf("%s has no %q section", d.file, d.heading)
	}
	s = s[i:]
	level := d.heading[:strings.Index(d.heading, " ")+1]
	if j := strings.Index(s[len(level):], "\n"+level); j >= 0 {
		s = s[:j+len(level)]
	}
	return s
}

func readSnippet(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("snippets", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTheDocsShowEverySnippetExactly(t *testing.T) {
	for name, section := range snippetFiles {
		if body := readSnippet(t, name); !strings.Contains(section.text(t), body) {
			t.Errorf("%s's %q does not show test/clients/snippets/%s as it is:\n%s", section.file, section.heading, name, body)
		}
	}
}

// The configurations of the editors that cannot run here are still checked for the shape each
// editor reads and for the server's address.
func TestTheEditorConfigurationsNameTheServerAsEachEditorExpects(t *testing.T) {
	var cursor struct {
		MCPServers map[string]struct {
			URL string `json:"url"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readSnippet(t, "cursor.json")), &cursor); err != nil || cursor.MCPServers["gemstone"].URL != defaultURL {
		t.Errorf("cursor.json: %+v %v", cursor, err)
	}
	var vscode struct {
		Servers map[string]struct {
			Type string `json:"type"`
			URL  string `json:"url"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(readSnippet(t, "vscode.json")), &vscode); err != nil ||
		vscode.Servers["gemstone"].Type != "http" || vscode.Servers["gemstone"].URL != defaultURL {
		t.Errorf("vscode.json: %+v %v", vscode, err)
	}
	cmd, args := desktopCommand(t)
	if cmd != "npx" || len(args) != 3 || args[1] != "mcp-remote@0.15.1" || args[2] != defaultURL {
		t.Errorf("claude-desktop.json runs %s %v", cmd, args)
	}
	if got := strings.Fields(readSnippet(t, "claude-code.txt")); len(got) != 7 || got[3] != "--transport" || got[4] != "http" || got[6] != defaultURL {
		t.Errorf("claude-code.txt: %v", got)
	}
}

// desktopCommand is the command Claude Desktop starts for the server, from claude-desktop.json.
func desktopCommand(t *testing.T) (string, []string) {
	t.Helper()
	var desktop struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readSnippet(t, "claude-desktop.json")), &desktop); err != nil {
		t.Fatalf("claude-desktop.json: %v", err)
	}
	s := desktop.MCPServers["gemstone"]
	return s.Command, s.Args
}

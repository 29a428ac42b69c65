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

// snippetFiles are the README's "Connect a client" snippets, one file each; the README must show
// each exactly, and snippets_run_test.go (tag proof) runs the ones whose client runs here.
var snippetFiles = []string{
	"claude-code.txt", "claude-desktop.json", "cursor.json", "vscode.json", "inspector.txt",
	"ts-sdk.mjs", "go-sdk/main.go", "python-sdk.py",
}

func readSnippet(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("snippets", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTheReadmeShowsEverySnippetExactly(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	i := strings.Index(section, "## Connect a client")
	if i < 0 {
		t.Fatal(`README.md has no "## Connect a client" section`)
	}
	section = section[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	for _, name := range snippetFiles {
		if body := readSnippet(t, name); !strings.Contains(section, body) {
			t.Errorf("README.md's Connect a client section does not show test/clients/snippets/%s as it is:\n%s", name, body)
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

//go:build proof

package clients

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// ranSnippet checks what the server saw of the one session a snippet opened: it listed the tools,
// called one, and (wantDelete) ended the session with DELETE.
func ranSnippet(t *testing.T, who string, s *harness.Server, wantDelete bool) {
	t.Helper()
	var st *sessionStory
	harness.WaitFor(context.Background(), 5*time.Second, func() bool {
		for _, one := range stories(s) {
			if strings.Contains(strings.Join(one.methods, " "), "tools/call") && (!wantDelete || one.deleteState != 0) {
				st = one
				return true
			}
		}
		return false
	})
	if st == nil {
		t.Fatalf("%s: the server saw no session that called a tool; trace sessions %d", who, len(stories(s)))
	}
	calls := strings.Join(st.methods, " ")
	for _, want := range []string{"initialize", "tools/list", "tools/call"} {
		if !strings.Contains(calls, want) {
			t.Errorf("%s: the server never saw %s (saw %s)", who, want, calls)
		}
	}
	if wantDelete && !st.deleted {
		t.Errorf("%s: the snippet did not end its session with DELETE (status %d): its slot would stay taken", who, st.deleteState)
	}
}

// wantSessionSnippet checks what a snippet that changes code printed: the real tools listed,
// the code it compiled in its own GemStone session answering, and the session closed.
func wantSessionSnippet(t *testing.T, who, out string) {
	t.Helper()
	for _, want := range []string{"open_session: Open a GemStone session", "compile_method: Compile a method",
		"Hello from GemStone", "Closed GemStone session", "uncommitted changes were discarded"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s printed no %q:\n%s", who, want, out)
		}
	}
}

// The TypeScript client 2.x snippet opens a GemStone session, changes code in it over the real
// tools (the model, as make demo serves them) and closes it.
func TestTheTypeScriptSnippetChangesCodeInASessionItOpened(t *testing.T) {
	s := startOnModel(t)
	wantSessionSnippet(t, "ts-sdk.mjs", runWithURL(t, s.URL, "node", filepath.Join("snippets", "ts-sdk.mjs")))
}

// The Go SDK v1.8.0 snippet (2026-07-28 by default: no MCP session) does the same.
func TestTheGoSDKSnippetChangesCodeInASessionItOpened(t *testing.T) {
	s := startOnModel(t)
	wantSessionSnippet(t, "go-sdk", runWithURL(t, s.URL, "go", "run", "./snippets/go-sdk"))
}

func TestTheInspectorSnippetListsTheTools(t *testing.T) {
	s := start(t)
	args := strings.Fields(strings.ReplaceAll(readSnippet(t, "inspector.txt"), defaultURL, s.URL))
	if args[0] != "npx" || args[1] != "@modelcontextprotocol/inspector" || args[2] != "--cli" {
		t.Fatalf("inspector.txt: %v", args)
	}
	list := inspector(t, args[3], args[4:]...)
	raw, _ := json.Marshal(list)
	if !strings.Contains(string(raw), `"readOnlyHint":true`) || !strings.Contains(string(raw), `"name":"echo"`) {
		t.Errorf("the inspector listed %s", raw)
	}
}

// Claude Desktop speaks stdio; the snippet has it start mcp-remote (pinned in package.json, the
// version the snippet names), which bridges to the server. This speaks to that bridge as Claude
// Desktop would.
func TestTheClaudeDesktopSnippetBridgesThroughMcpRemote(t *testing.T) {
	s := start(t)
	cmd, args := desktopCommand(t)
	if cmd != "npx" || args[0] != "-y" || args[1] != "mcp-remote@0.15.1" {
		t.Fatalf("claude-desktop.json runs %s %v", cmd, args)
	}
	bridge := filepath.Join("node_modules", ".bin", "mcp-remote")
	if _, err := os.Stat(bridge); err != nil {
		t.Fatal("mcp-remote is not installed: run test/conformance/setup.sh test/clients (make proof-test does)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, bridge, strings.ReplaceAll(args[2], defaultURL, s.URL))
	c.Env = append(os.Environ(), "HOME="+t.TempDir()) // mcp-remote keeps its state under ~/.mcp-auth
	stdin, _ := c.StdinPipe()
	stdout, _ := c.StdoutPipe()
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()
	answers := bufio.NewScanner(stdout)
	answers.Buffer(make([]byte, 1<<20), 1<<24)
	ask := func(msg string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, `"id"`) {
			return nil
		}
		if !answers.Scan() {
			t.Fatalf("mcp-remote answered nothing to %s; its log:\n%s", msg, stderr.String())
		}
		var v map[string]any
		if err := json.Unmarshal(answers.Bytes(), &v); err != nil {
			t.Fatalf("mcp-remote answered %q", answers.Text())
		}
		return v
	}
	init := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-desktop-like","version":"1"}}}`)
	if _, ok := init["result"]; !ok {
		t.Fatalf("initialize through mcp-remote: %v", init)
	}
	ask(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	list, _ := json.Marshal(ask(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	if !strings.Contains(string(list), `"title":"Fixture echo"`) {
		t.Errorf("tools/list through mcp-remote: %s", list)
	}
	echo, _ := json.Marshal(ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + Text + `"}}}`))
	if !strings.Contains(string(echo), Text) {
		t.Errorf("echo through mcp-remote: %s", echo)
	}
	ranSnippet(t, "mcp-remote", s, false)
}

// runWithURL runs a snippet with MCP_URL pointing at the test's server and answers its stdout.
func runWithURL(t *testing.T, url, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Env = append(os.Environ(), "MCP_URL="+url)
	var stderr strings.Builder
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s\n%s", name, args, err, out, stderr.String())
	}
	return string(out)
}

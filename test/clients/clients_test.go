//go:build proof

// Package clients drives bin/mcp-gemstone on the GCI test stand-in with real MCP clients
// nobody here wrote: the TypeScript SDK's StreamableHTTPClientTransport (ts-client.mjs), the Go
// SDK's client, and the MCP Inspector's CLI. Each connects, lists tools, calls echo and unicode,
// opens the GET stream and ends with DELETE; what reached the server is read back from its
// message trace (MCP_TRACE=1), so the assertions do not depend on what a client reports.
// Node tools come pinned from package-lock.json (test/conformance/setup.sh test/clients).
// model_clients_test.go drives the real tools of the Smalltalk worker the same way, through the
// stand-in's gems in model mode on the executable model of GemStone (not GemStone).
package clients

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

var binary string

func TestMain(m *testing.M) { os.Exit(binserver.Main(m, "clients", &binary)) }

// Text is what every client sends to echo and unicode: multi-byte and astral characters.
const Text = "héllo wörld ✓ 😀 from a real client"

// AstralText is the fixture worker's fixed unicode answer (worker/workertest/fixtureworker.AstralText).
const AstralText = "stand-in astral: \U0001F600 \U0001D11E \U00010348 \U0001F680"

func start(t *testing.T) *harness.Server {
	t.Helper()
	return harness.StartForTest(t, "server", harness.Options{Binary: binary, Dir: t.TempDir(),
		Env: []string{"MCP_MAX_SESSIONS=none", "MCP_TRACE=1", "MCP_TRACE_LIMIT=none"}})
}

// traced is one inbound or outbound line of the server's message trace.
type traced struct {
	Component string `json:"component"`
	Dir       string `json:"dir"`
	Verb      string `json:"verb"`
	Session   string `json:"session"`
	Status    int    `json:"status"`
	Message   string `json:"message"`
}

func trace(s *harness.Server) []traced {
	var out []traced
	sc := bufio.NewScanner(strings.NewReader(s.Log()))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var l traced
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Component == "trace" {
			out = append(out, l)
		}
	}
	return out
}

// sessionStory is what one session did, as the server saw it.
type sessionStory struct {
	methods     []string // JSON-RPC methods POSTed, in order
	streamOpen  bool     // a GET answered 200
	deleted     bool     // a DELETE answered 204
	deleteState int
}

func stories(s *harness.Server) map[string]*sessionStory {
	out := map[string]*sessionStory{}
	get := func(id string) *sessionStory {
		if out[id] == nil {
			out[id] = &sessionStory{}
		}
		return out[id]
	}
	for _, l := range trace(s) {
		switch {
		case l.Dir == "in" && l.Verb == "POST" && l.Session != "-":
			var m struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal([]byte(l.Message), &m)
			get(l.Session).methods = append(get(l.Session).methods, m.Method)
		case l.Dir == "out" && l.Verb == "GET" && l.Status == 200:
			get(l.Session).streamOpen = true
		case l.Dir == "out" && l.Verb == "DELETE":
			get(l.Session).deleteState = l.Status
			get(l.Session).deleted = l.Status == 204 || l.Status == 200
		}
	}
	return out
}

// wantStory checks that a session listed tools, called echo and unicode, and opened its stream.
func wantStory(t *testing.T, who string, st *sessionStory) {
	t.Helper()
	if st == nil {
		t.Fatalf("%s: the server saw no such session", who)
	}
	calls := strings.Join(st.methods, " ")
	for _, want := range []string{"notifications/initialized", "tools/list", "tools/call"} {
		if !strings.Contains(calls, want) {
			t.Errorf("%s: the server never saw %s (saw %s)", who, want, calls)
		}
	}
	if !st.streamOpen {
		t.Errorf("%s: no GET stream was opened (saw %s)", who, calls)
	}
}

// nodeTool runs a pinned Node tool of test/clients and answers its stdout.
func nodeTool(t *testing.T, timeout time.Duration, args ...string) []byte {
	t.Helper()
	if _, err := os.Stat("node_modules/@modelcontextprotocol/sdk"); err != nil {
		t.Fatal("the pinned Node clients are not installed: run test/conformance/setup.sh test/clients (make proof-test does)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed (apt-get install nodejs): the TypeScript clients need it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

func inspector(t *testing.T, url string, args ...string) map[string]any {
	t.Helper()
	cli := filepath.Join("node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	out := nodeTool(t, 60*time.Second, append([]string{cli, "--cli", url}, append(args, "--format", "json", "-q")...)...)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("inspector %v printed no JSON: %v: %s", args, err, out)
	}
	return v
}

//go:build proof

package clients

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// The TypeScript SDK's StreamableHTTPClientTransport: initialize, initialized, its own GET
// stream, tools/list, echo and unicode byte for byte, DELETE 204. Each subtest checks one part
// of the one session the client ran.
func TestTheTypeScriptSDKClientsSession(t *testing.T) {
	s := start(t)
	out := nodeTool(t, 60*time.Second, "ts-client.mjs", s.URL, Text)
	var got struct {
		SessionID       string    `json:"sessionId"`
		ProtocolVersion string    `json:"protocolVersion"`
		Tools           []string  `json:"tools"`
		Echo            []string  `json:"echo"`
		Unicode         []string  `json:"unicode"`
		EchoIsError     bool      `json:"echoIsError"`
		Progress        []float64 `json:"progress"`
		ProgressIsError bool      `json:"progressIsError"`
		StreamOpened    bool      `json:"streamOpened"`
		Exchanges       []struct {
			Verb, Method, ContentType string
			Status                    int
		} `json:"exchanges"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("ts-client printed %s: %v", out, err)
	}
	t.Run("negotiates 2025-11-25", func(t *testing.T) {
		if got.ProtocolVersion != "2025-11-25" {
			t.Errorf("negotiated %q, want 2025-11-25", got.ProtocolVersion)
		}
	})
	t.Run("lists the tools", func(t *testing.T) {
		if !slices.Contains(got.Tools, "echo") || !slices.Contains(got.Tools, "unicode") {
			t.Errorf("tools/list: %v lacks echo or unicode", got.Tools)
		}
	})
	t.Run("calls echo and unicode byte for byte", func(t *testing.T) {
		if len(got.Echo) != 1 || got.Echo[0] != Text || got.EchoIsError {
			t.Errorf("echo answered %q (isError %v), want %q", got.Echo, got.EchoIsError, Text)
		}
		if len(got.Unicode) != 2 || got.Unicode[0] != Text || got.Unicode[1] != AstralText {
			t.Errorf("unicode answered %q", got.Unicode)
		}
	})
	t.Run("reads a call's progress from its SSE answer", func(t *testing.T) {
		if !slices.Equal(got.Progress, []float64{0, 50, 100}) || got.ProgressIsError {
			t.Errorf("test_tool_with_progress: the SDK saw progress %v (isError %v), want 0, 50, 100 before the result", got.Progress, got.ProgressIsError)
		}
		var sseAnswer bool
		for _, e := range got.Exchanges {
			if e.Verb == "POST" && e.Method == "tools/call" && strings.HasPrefix(e.ContentType, "text/event-stream") {
				sseAnswer = true
			}
		}
		if !sseAnswer {
			t.Errorf("no tools/call was answered as an SSE stream: %+v", got.Exchanges)
		}
	})
	t.Run("opens its GET stream and DELETEs its session", func(t *testing.T) {
		var sawGet, sawDelete bool
		for _, e := range got.Exchanges {
			if e.Verb == "GET" && e.Status == 200 && strings.HasPrefix(e.ContentType, "text/event-stream") {
				sawGet = true
			}
			if e.Verb == "DELETE" && (e.Status == 204 || e.Status == 200) {
				sawDelete = true
			}
		}
		if !got.StreamOpened || !sawGet || !sawDelete {
			t.Errorf("the client saw GET stream %v, DELETE %v: %+v", sawGet, sawDelete, got.Exchanges)
		}
	})
	t.Run("is the story the server saw, ended on DELETE", func(t *testing.T) {
		harness.WaitFor(context.Background(), 2*time.Second, func() bool {
			st := stories(s)[got.SessionID]
			return st != nil && st.deleteState != 0
		})
		st := stories(s)[got.SessionID]
		wantStory(t, "TypeScript SDK", st)
		if st != nil && !st.deleted {
			t.Errorf("TypeScript SDK: the server did not end the session on DELETE (status %d)", st.deleteState)
		}
	})
}

// The Go SDK's client: it probes server/discover first (the 2026-07-28 draft) and must fall
// back to initialize promptly; then the same story as every client.
// The Go SDK on a 2025-11-25 session (its default, 2026-07-28, has no session to stream on or
// DELETE: stateless_clients_test.go).
// Each subtest is one step of the one session the client runs, in order.
func TestTheGoSDKClientOnASession(t *testing.T) {
	s := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var progressMu sync.Mutex
	var progress []float64
	c := mcp.NewClient(&mcp.Implementation{Name: "mcp-gemstone-go-sdk-test", Version: "1.0.0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			progressMu.Lock()
			progress = append(progress, r.Params.Progress)
			progressMu.Unlock()
		},
	})
	t0 := time.Now()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.URL, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("Go SDK connect: %v", err)
	}
	t.Run("connects promptly", func(t *testing.T) {
		if took := time.Since(t0); took > 5*time.Second {
			t.Errorf("connecting (initialize) took %v", took)
		}
	})
	sid := cs.ID()
	t.Run("lists the tools", func(t *testing.T) {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range tools.Tools {
			names = append(names, tl.Name)
		}
		if !slices.Contains(names, "echo") || !slices.Contains(names, "unicode") {
			t.Errorf("tools/list: %v lacks echo or unicode", names)
		}
	})
	t.Run("calls echo and unicode byte for byte", func(t *testing.T) { goSDKCalls(ctx, t, cs) })
	t.Run("reads a call's progress from its SSE answer", func(t *testing.T) {
		// A call whose worker speaks while it runs: the SDK reads the SSE answer's progress
		// notifications, then the result.
		params := &mcp.CallToolParams{Name: "test_tool_with_progress", Arguments: map[string]any{}}
		params.SetProgressToken("go-sdk-progress")
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			t.Errorf("test_tool_with_progress: %v %+v", err, res)
		}
		// The SDK may run notification handlers beside the call's return: give them a moment.
		harness.WaitFor(ctx, 2*time.Second, func() bool {
			progressMu.Lock()
			defer progressMu.Unlock()
			return len(progress) >= 3
		})
		progressMu.Lock()
		if !slices.Equal(progress, []float64{0, 50, 100}) {
			t.Errorf("the Go SDK saw progress %v, want 0, 50, 100 before the result", progress)
		}
		progressMu.Unlock()
	})
	t.Run("opens its GET stream", func(t *testing.T) {
		if !harness.WaitFor(ctx, 5*time.Second, func() bool { st := stories(s)[sid]; return st != nil && st.streamOpen }) {
			t.Errorf("the Go SDK client's GET stream never opened")
		}
	})
	t.Run("ends its session on Close with DELETE", func(t *testing.T) {
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		// The trace's outbound line is written as the handler returns, just after the client has
		// its answer: wait for it.
		harness.WaitFor(ctx, 2*time.Second, func() bool { st := stories(s)[sid]; return st != nil && st.deleteState != 0 })
		st := stories(s)[sid]
		wantStory(t, "Go SDK", st)
		if st != nil && !st.deleted {
			t.Errorf("Go SDK: Close did not end the session with DELETE (status %d)", st.deleteState)
		}
	})
	t.Run("never probes server/discover, pinned to a session revision", func(t *testing.T) {
		if slices.ContainsFunc(trace(s), func(l traced) bool {
			return l.Dir == "in" && strings.Contains(l.Message, `"method":"server/discover"`)
		}) {
			t.Error("the Go SDK pinned to 2025-11-25 probed server/discover")
		}
	})
}

func goSDKCalls(ctx context.Context, t *testing.T, cs *mcp.ClientSession) {
	for _, tool := range []string{"echo", "unicode"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": Text}})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		want := []string{Text}
		if tool == "unicode" {
			want = append(want, AstralText)
		}
		if res.IsError || !slices.Equal(texts, want) {
			t.Errorf("%s answered %q (isError %v), want %q", tool, texts, res.IsError, want)
		}
	}
}

// The MCP Inspector's CLI: one session per invocation. It opens the GET stream but does not
// send DELETE when it exits (2.12.0, observed), so the test ends each of its sessions and the
// server must still hold them live (204, then 404). It lists the tools, calls echo and unicode
// byte for byte, and its sessions end on DELETE.
func TestTheInspectorCLI(t *testing.T) {
	s := start(t)
	t.Run("lists the tools", func(t *testing.T) {
		list := inspector(t, s.URL, "--method", "tools/list")
		raw, _ := json.Marshal(list["result"])
		if !strings.Contains(string(raw), `"name":"echo"`) || !strings.Contains(string(raw), `"name":"unicode"`) {
			t.Errorf("inspector tools/list: %s", raw)
		}
	})
	for _, tool := range []string{"echo", "unicode"} {
		t.Run("calls "+tool+" byte for byte", func(t *testing.T) { inspectorCalls(t, s, tool) })
	}
	t.Run("its sessions end on DELETE", func(t *testing.T) { inspectorSessionsEnd(t, s) })
}

func inspectorCalls(t *testing.T, s *harness.Server, tool string) {
	v := inspector(t, s.URL, "--method", "tools/call", "--tool-name", tool, "--tool-arg", "text="+Text)
	raw, _ := json.Marshal(v["result"])
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	_ = json.Unmarshal(raw, &res)
	want := []string{Text}
	if tool == "unicode" {
		want = append(want, AstralText)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	if res.IsError || !slices.Equal(texts, want) {
		t.Errorf("inspector %s answered %s, want %q", tool, raw, want)
	}
}

func inspectorSessionsEnd(t *testing.T, s *harness.Server) {
	c := &harness.Client{URL: s.URL, HTTP: harness.NewHTTPClient(2, 30*time.Second), Protocol: harness.ProtocolVersion}
	ctx := context.Background()
	all := stories(s)
	if len(all) != 3 {
		t.Errorf("three inspector runs made %d sessions", len(all))
	}
	var sawCall, sawStream bool
	for sid, st := range all {
		if slices.Contains(st.methods, "tools/call") {
			sawCall = true
		}
		sawStream = sawStream || st.streamOpen
		if st.deleted {
			t.Logf("inspector ended session %s itself", sid)
			continue
		}
		if code, err := c.Delete(ctx, sid); err != nil || code != http.StatusNoContent {
			t.Errorf("DELETE of the inspector's session %s: %d (%v), want 204", sid, code, err)
		}
		if a, _ := c.Post(ctx, sid, harness.CallBody(1, "echo", `{"text":"x"}`)); a.Status != http.StatusNotFound {
			t.Errorf("after DELETE the inspector's session answered %d, want 404", a.Status)
		}
	}
	if !sawCall || !sawStream {
		t.Errorf("the inspector's sessions: a call %v, a GET stream %v", sawCall, sawStream)
	}
}

//go:build proof

package clients

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
)

// stateKey is the _meta member that asks for, and names, a 2026-07-28 state handle
// (docs/transport.md, "2026-07-28: state without sessions").
const stateKey = "io.github.gemstone-mcp/state"

// connectGoDefault opens a Go SDK client in its default, automatic mode: it probes
// server/discover and speaks 2026-07-28, with no MCP session. stateful asks for a state handle
// on the first call and carries it on every later one.
func connectGoDefault(ctx context.Context, t *testing.T, url, name string, stateful bool) *goClient {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("Go SDK connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != "2026-07-28" {
		t.Fatalf("the Go SDK in its default mode negotiated %q, want 2026-07-28", got)
	}
	if cs.ID() != "" {
		t.Fatalf("a 2026-07-28 client got an MCP session id %q", cs.ID())
	}
	g := &goClient{t: t, cs: cs, schemas: map[string]json.RawMessage{}, outputs: map[string]json.RawMessage{}}
	if stateful {
		g.state = "new"
	}
	return g
}

// The Go SDK in its default mode (2026-07-28) runs the real tools' stateful story over the
// model with a state handle, beside a 2025-11-25 session client on the same server: A compiles
// the fix, runs the tests and commits on its handle's gem; B, a session, sees the fix only after
// its refresh; then the rival commits. A stateless client of the same server (no handle) reads
// the committed state from the pool.
func TestGoSDKDefaultModeHoldsATransactionWithAStateHandleBesideASession(t *testing.T) {
	s := startOnModel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	a := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-a", true)
	b := connectGo(ctx, t, s.URL, "mcp-gemstone-go-sdk-2025-b")
	plain := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-stateless", false)
	if names := a.list(ctx); !slices.Equal(names, modelstone.RealTools) {
		t.Errorf("the Go SDK (2026-07-28) listed %v, want the %d real tools", names, len(modelstone.RealTools))
	}
	b.list(ctx)
	plain.list(ctx)
	method := map[string]any{"className": "SampleSavingsAccount", "selector": "addInterest"}
	afterCompile := func() {
		// A stateless client may not write: its pooled gem keeps nothing, so the worker refuses.
		write := map[string]any{"className": "SampleSavingsAccount", "source": "addInterest\n  self deposit: 3"}
		if got := plain.call(ctx, "compile_method", write); !got.IsError || got.Kind != "stateRequired" {
			t.Errorf("a stateless compile_method: %+v, want refused as stateRequired", got)
		}
		// Not committed yet: a stateless client of the same server does not see A's change.
		if got := plain.call(ctx, "get_method_source", method); strings.Contains(got.Text, fixMarker) {
			t.Errorf("a stateless client saw A's uncommitted change: %q", got.Text)
		}
	}
	afterCommit := func() {
		if got := plain.call(ctx, "get_method_source", method); !strings.Contains(got.Text, fixMarker) {
			t.Errorf("a stateless client does not see A's commit: %q", got.Text)
		}
	}
	s2 := runGoStory(ctx, a, b, afterCompile, afterCommit)
	s2.check(t, "Go SDK 2026-07-28 with a state handle beside a 2025-11-25 session")
}

// The TypeScript client package 2.x in its automatic mode (2026-07-28) holds the same story's
// transaction with a state handle, beside the TypeScript SDK 1.x on a 2025-11-25 session; a
// stateless 2.x client may not write, and sees A's change only after A's commit.
func TestTypeScriptClient2AutoModeHoldsATransactionWithAStateHandleBesideSDK1(t *testing.T) {
	var got struct {
		loopAndConflict
		Tools    []string `json:"tools"`
		Versions struct {
			A, Plain, BSession string
		} `json:"versions"`
		Handles                                                     []string `json:"handles"`
		StatelessBeforeCommit, StatelessWrite, StatelessAfterCommit toolOutcome
	}
	modelStory(t, "ts2-model-client.mjs", &got)
	if got.Versions.A != "2026-07-28" || got.Versions.Plain != "2026-07-28" || got.Versions.BSession == "" {
		t.Fatalf("negotiated %+v: want the 2.x clients on 2026-07-28 and the 1.x client on a session", got.Versions)
	}
	if !slices.Contains(got.Tools, "compile_method") {
		t.Errorf("the 2.x client listed %v", got.Tools)
	}
	for i, h := range got.Handles {
		if h == "" || h != got.Handles[0] {
			t.Fatalf("call %d of A answered state handle %q; want the same handle on every call (%v)", i, h, got.Handles)
		}
	}
	if !got.StatelessWrite.IsError || got.StatelessWrite.Kind != "stateRequired" {
		t.Errorf("a stateless compile_method: %+v, want refused as stateRequired", got.StatelessWrite)
	}
	if strings.Contains(got.StatelessBeforeCommit.Text, fixMarker) || !strings.Contains(got.StatelessAfterCommit.Text, fixMarker) {
		t.Errorf("the stateless client saw %q before A's commit and %q after it: want the fix only after", got.StatelessBeforeCommit.Text, got.StatelessAfterCommit.Text)
	}
	got.check(t, "TypeScript client 2.x (2026-07-28, state handle) beside SDK 1.x (session)")
}

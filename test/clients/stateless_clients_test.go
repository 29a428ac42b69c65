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

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
)

// connectGoDefault opens a Go SDK client in its default, automatic mode: it probes
// server/discover and speaks 2026-07-28, with no MCP session. Nothing of the client is set
// beyond its name: no vendor _meta, no header.
func connectGoDefault(ctx context.Context, t *testing.T, url, name string) *goClient {
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
	return &goClient{t: t, cs: cs, schemas: map[string]json.RawMessage{}, outputs: map[string]json.RawMessage{}}
}

// openSession calls open_session as a model would and threads the session it answers into
// every later call of g.
func (g *goClient) openSession(ctx context.Context) toolOutcome {
	g.t.Helper()
	o := g.call(ctx, "open_session", map[string]any{})
	h, _ := g.last["session"].(string)
	if o.IsError || h == "" || !strings.Contains(o.Text, h) {
		g.t.Fatalf("Go SDK: open_session answered %+v, structuredContent %v: want a session", o, g.last)
	}
	g.session = h
	return o
}

// handleStory is what both stock 2026-07-28 clients (the Go SDK, the TypeScript client 2.x)
// must see of issue 24's story, step by step: a write without a session is refused naming
// open_session; A opens a session, defines a class and a TestCase subclass, compiles methods and
// its tests pass, all in its session; B's own session does not see the work until A commits and
// B refreshes; A closes its session and its handle is refused afterwards.
type handleStory struct {
	Tools                                               []string
	SessionInEverySchema                                bool
	NoSessionWrite                                      toolOutcome
	OpenA                                               toolOutcome
	DefineClass, DefineTest, CompileMethod, CompileTest toolOutcome
	Tests                                               toolOutcome
	OpenB, BBefore, Commit, BBeforeRefresh, RefreshB    toolOutcome
	BAfterRefresh, BTests                               toolOutcome
	CloseA, AfterClose, CloseB                          toolOutcome
}

const (
	storyClass = "R1Counter"
	storyTest  = "R1CounterTest"
)

var storyArgs = struct {
	defineClass, defineTest, method, test, tests, read map[string]any
}{
	defineClass: map[string]any{"className": storyClass, "superclassName": "Object", "instVarNames": []any{"count"}, "dictionary": "UserGlobals"},
	defineTest:  map[string]any{"className": storyTest, "superclassName": "TestCase", "dictionary": "UserGlobals"},
	method:      map[string]any{"className": storyClass, "source": "increment\n  count := (count ifNil: [0]) + 1.\n  ^count"},
	test:        map[string]any{"className": storyTest, "source": "testIncrement\n  self assert: " + storyClass + " new increment = 1"},
	tests:       map[string]any{"className": storyTest},
	read:        map[string]any{"className": storyClass},
}

func (s handleStory) check(t *testing.T, who string) {
	t.Helper()
	if !slices.Equal(s.Tools, modelstone.RealTools) {
		t.Errorf("%s: listed %v, want the %d real tools", who, s.Tools, len(modelstone.RealTools))
	}
	if !s.SessionInEverySchema {
		t.Errorf("%s: a tool other than open_session lists no session argument", who)
	}
	if w := s.NoSessionWrite; !w.IsError || w.Kind != errkind.SessionRequired || !strings.Contains(w.Text, "open_session") {
		t.Errorf("%s: a write without a session: %+v, want refused as sessionRequired naming open_session", who, w)
	}
	for step, o := range map[string]toolOutcome{"open_session": s.OpenA, "define the class": s.DefineClass, "define the TestCase subclass": s.DefineTest,
		"compile the method": s.CompileMethod, "compile the test": s.CompileTest, "B's open_session": s.OpenB, "commit": s.Commit,
		"B's refresh": s.RefreshB, "close_session": s.CloseA, "B's close_session": s.CloseB} {
		if o.IsError {
			t.Errorf("%s: %s failed: %+v", who, step, o)
		}
	}
	if !strings.Contains(s.Tests.Text, "1 passed") || !strings.Contains(s.Tests.Text, "0 failed") {
		t.Errorf("%s: run_test_class in A's session: %+v, want 1 passed, 0 failed", who, s.Tests)
	}
	if !s.BBefore.IsError || !s.BBeforeRefresh.IsError {
		t.Errorf("%s: B's own session saw A's class before A's commit and B's refresh: %+v, %+v", who, s.BBefore, s.BBeforeRefresh)
	}
	if s.BAfterRefresh.IsError || !strings.Contains(s.BAfterRefresh.Text, storyClass) {
		t.Errorf("%s: B after its refresh: %+v, want A's committed class", who, s.BAfterRefresh)
	}
	if !strings.Contains(s.BTests.Text, "1 passed") {
		t.Errorf("%s: B's run of the committed tests: %+v", who, s.BTests)
	}
	if !strings.Contains(s.CloseA.Text, "Closed") {
		t.Errorf("%s: close_session answered %+v", who, s.CloseA)
	}
	if a := s.AfterClose; !a.IsError || a.Kind != errkind.UnknownSession || !strings.Contains(a.Text, "open_session") {
		t.Errorf("%s: a call with the closed session: %+v, want refused as unknownSession naming open_session", who, a)
	}
}

// The Go SDK v1.8.0 in its default mode (2026-07-28, no vendor _meta) changes code through
// open_session's session argument, step by step (handleStory).
func TestGoSDKDefaultModeChangesCodeInASessionItOpened(t *testing.T) {
	s := startOnModel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	a := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-a")
	b := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-b")
	var st handleStory
	st.Tools = a.list(ctx)
	b.list(ctx)
	st.SessionInEverySchema = true
	for name, schema := range a.schemas {
		if has := strings.Contains(string(schema), `"session"`); has != (name != "open_session") {
			st.SessionInEverySchema = false
		}
	}
	st.NoSessionWrite = a.call(ctx, "compile_class_definition", storyArgs.defineClass)
	st.OpenA = a.openSession(ctx)
	st.DefineClass = a.call(ctx, "compile_class_definition", storyArgs.defineClass)
	st.DefineTest = a.call(ctx, "compile_class_definition", storyArgs.defineTest)
	st.CompileMethod = a.call(ctx, "compile_method", storyArgs.method)
	st.CompileTest = a.call(ctx, "compile_method", storyArgs.test)
	st.Tests = a.call(ctx, "run_test_class", storyArgs.tests)
	st.OpenB = b.openSession(ctx)
	st.BBefore = b.call(ctx, "get_class_definition", storyArgs.read)
	st.Commit = a.call(ctx, "commit", map[string]any{})
	st.BBeforeRefresh = b.call(ctx, "get_class_definition", storyArgs.read)
	st.RefreshB = b.call(ctx, "refresh", map[string]any{})
	st.BAfterRefresh = b.call(ctx, "get_class_definition", storyArgs.read)
	st.BTests = b.call(ctx, "run_test_class", storyArgs.tests)
	st.CloseA = a.call(ctx, "close_session", map[string]any{})
	st.AfterClose = a.call(ctx, "get_class_definition", storyArgs.read)
	st.CloseB = b.call(ctx, "close_session", map[string]any{})
	st.check(t, "Go SDK (2026-07-28)")
	// The Go SDK's Ping sends ping without _meta: the revision removed the method, and that is
	// what it learns.
	if err := a.cs.Ping(ctx, nil); err == nil || !strings.Contains(strings.ToLower(err.Error()), "not found") {
		t.Errorf("Ping on 2026-07-28: %v, want method not found", err)
	}
}

// The Go SDK in its default mode runs the sample's fix-test-commit loop in a session it opened,
// beside a 2025-11-25 session client on the same server: B sees the fix only after its refresh;
// then the rival commits. A client without a session reads the committed state from the pool.
func TestGoSDKDefaultModeHoldsATransactionInItsSessionBesideAnMCPSession(t *testing.T) {
	s := startOnModel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	a := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-a")
	b := connectGo(ctx, t, s.URL, "mcp-gemstone-go-sdk-2025-b")
	plain := connectGoDefault(ctx, t, s.URL, "mcp-gemstone-go-sdk-2026-plain")
	a.list(ctx)
	b.list(ctx)
	plain.list(ctx)
	a.openSession(ctx)
	method := map[string]any{"className": "SampleSavingsAccount", "selector": "addInterest"}
	afterCompile := func() {
		if got := plain.call(ctx, "get_method_source", method); strings.Contains(got.Text, fixMarker) {
			t.Errorf("a client without a session saw A's uncommitted change: %q", got.Text)
		}
	}
	afterCommit := func() {
		if got := plain.call(ctx, "get_method_source", method); !strings.Contains(got.Text, fixMarker) {
			t.Errorf("a client without a session does not see A's commit: %q", got.Text)
		}
	}
	s2 := runGoStory(ctx, a, b, afterCompile, afterCommit)
	s2.check(t, "Go SDK 2026-07-28 in its own session beside a 2025-11-25 session")
}

// The TypeScript client package 2.x in its automatic mode (2026-07-28) runs the same story
// (ts2-session-story.mjs).
func TestTypeScriptClient2AutoModeChangesCodeInASessionItOpened(t *testing.T) {
	var got struct {
		handleStory
		Version string `json:"version"`
	}
	modelStory(t, "ts2-session-story.mjs", &got)
	if got.Version != "2026-07-28" {
		t.Fatalf("the 2.x client negotiated %q, want 2026-07-28", got.Version)
	}
	got.check(t, "TypeScript client 2.x (2026-07-28)")
}

// The TypeScript client package 2.x in its automatic mode holds the sample loop's transaction in
// a session it opened, beside the TypeScript SDK 1.x on a 2025-11-25 session; a 2.x client
// without a session sees A's change only after A's commit.
func TestTypeScriptClient2AutoModeHoldsATransactionInItsSessionBesideSDK1(t *testing.T) {
	var got struct {
		loopAndConflict
		Tools    []string `json:"tools"`
		Versions struct {
			A, Plain, BSession string
		} `json:"versions"`
		StatelessBeforeCommit, StatelessWrite, StatelessAfterCommit toolOutcome
	}
	modelStory(t, "ts2-model-client.mjs", &got)
	if got.Versions.A != "2026-07-28" || got.Versions.Plain != "2026-07-28" || got.Versions.BSession == "" {
		t.Fatalf("negotiated %+v: want the 2.x clients on 2026-07-28 and the 1.x client on a session", got.Versions)
	}
	if !slices.Contains(got.Tools, "compile_method") {
		t.Errorf("the 2.x client listed %v", got.Tools)
	}
	if !got.StatelessWrite.IsError || got.StatelessWrite.Kind != errkind.SessionRequired {
		t.Errorf("a compile_method without a session: %+v, want refused as sessionRequired", got.StatelessWrite)
	}
	if strings.Contains(got.StatelessBeforeCommit.Text, fixMarker) || !strings.Contains(got.StatelessAfterCommit.Text, fixMarker) {
		t.Errorf("the client without a session saw %q before A's commit and %q after it: want the fix only after", got.StatelessBeforeCommit.Text, got.StatelessAfterCommit.Text)
	}
	got.check(t, "TypeScript client 2.x (2026-07-28, own session) beside SDK 1.x (session)")
}

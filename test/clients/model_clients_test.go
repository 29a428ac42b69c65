//go:build proof

package clients

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/toolschema"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// The same SDK clients against the real tools: bin/mcp-gemstone on the stand-in whose gems run
// the project's Smalltalk McpServer in the executable model of GemStone (internal/gsmodel, started
// in this process with the sample application). A model, not GemStone: these tests say the
// clients, the front end and the worker agree, not that a real stone answers so.

// The sample's defect and its fix (internal/gsmodel/sample): interest rounds down.
const (
	failingTest = modelstone.FailingTest
	fixMarker   = "+ 99"
)

func startOnModel(t *testing.T) *harness.Server {
	t.Helper()
	stone := modelstone.Start(t) // started first, so the server and its gems stop first
	return harness.StartForTest(t, "server", harness.Options{Binary: binary, Dir: t.TempDir(),
		Env: []string{"MCP_MAX_SESSIONS=none", stone.Env()}})
}

// toolOutcome is what a client saw of one tools/call.
type toolOutcome struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
	Kind    string `json:"kind"`
}

// loopAndConflict holds what both SDK tests assert of the same story: A fixes the sample and
// commits while B holds an older view; then both change the same method and commit.
type loopAndConflict struct {
	Loop struct {
		TestsBefore, Read, Compile, TestsAfter, Commit toolOutcome
	}
	Second struct {
		Before, BeforeRefresh, Refresh, AfterRefresh, Tests toolOutcome
	}
	Conflict struct {
		CompileA, CompileB, CommitA, CommitB, AbortB, AfterAbortB toolOutcome
	}
}

func (s loopAndConflict) check(t *testing.T, who string) {
	t.Helper()
	l, b, c := s.Loop, s.Second, s.Conflict
	if !strings.Contains(l.TestsBefore.Text, "1 failed") || !strings.Contains(l.TestsBefore.Text, failingTest) {
		t.Errorf("%s: run_test_class before the fix: %+v, want 1 failure naming %s", who, l.TestsBefore, failingTest)
	}
	for name, o := range map[string]toolOutcome{"get_method_source": l.Read, "compile_method": l.Compile, "commit": l.Commit} {
		if o.IsError {
			t.Errorf("%s: %s in the loop failed: %+v", who, name, o)
		}
	}
	if !strings.Contains(l.TestsAfter.Text, "4 passed") || !strings.Contains(l.TestsAfter.Text, "0 failed") {
		t.Errorf("%s: run_test_class after the fix: %+v, want 4 passed, 0 failed", who, l.TestsAfter)
	}
	if strings.Contains(b.Before.Text, fixMarker) || strings.Contains(b.BeforeRefresh.Text, fixMarker) {
		t.Errorf("%s: the second client saw the fix before refreshing: %q, %q", who, b.Before.Text, b.BeforeRefresh.Text)
	}
	if b.Refresh.IsError || !strings.Contains(b.AfterRefresh.Text, fixMarker) {
		t.Errorf("%s: after refresh the second client sees %+v (refresh %+v), want the committed fix", who, b.AfterRefresh, b.Refresh)
	}
	if !strings.Contains(b.Tests.Text, "0 failed") {
		t.Errorf("%s: the second client's tests after refresh: %+v, want 0 failed", who, b.Tests)
	}
	if c.CompileA.IsError || c.CompileB.IsError || c.CommitA.IsError {
		t.Errorf("%s: the rival changes: compile A %+v, compile B %+v, commit A %+v", who, c.CompileA, c.CompileB, c.CommitA)
	}
	if !c.CommitB.IsError || c.CommitB.Kind != "commitConflict" {
		t.Errorf("%s: the second of two conflicting commits: %+v, want it refused as commitConflict", who, c.CommitB)
	}
	// What the refusal and the abort say is what the agent's next call depends on: the object in
	// conflict as a developer knows it, this client's change there, the next step, and what the
	// abort threw away (issue 28).
	for _, w := range []string{"Write-Write on the method dictionary of SampleSavingsAccount; your changes there: method changed: SampleSavingsAccount>>addInterest", "Next: call abort"} {
		if !strings.Contains(c.CommitB.Text, w) {
			t.Errorf("%s: the refused commit does not say %q: %s", who, w, c.CommitB.Text)
		}
	}
	if !strings.Contains(c.AbortB.Text, "SampleSavingsAccount>>addInterest") {
		t.Errorf("%s: abort does not name the change it discarded: %s", who, c.AbortB.Text)
	}
	if c.AbortB.IsError || !strings.Contains(c.AfterAbortB.Text, "deposit: 1") {
		t.Errorf("%s: after abort the refused client sees %+v, want the first commit's method", who, c.AfterAbortB)
	}
}

// modelStory runs a Node client script against a server on the model stone and decodes what it
// prints into got.
func modelStory(t *testing.T, script string, got any) {
	t.Helper()
	s := startOnModel(t)
	out := nodeTool(t, 120*time.Second, script, s.URL)
	if err := json.Unmarshal(out, got); err != nil {
		t.Fatalf("%s printed %s: %v", strings.TrimSuffix(script, ".mjs"), out, err)
	}
}

// The TypeScript SDK: two clients, every listed schema compiled by strict Ajv, the loop, the
// second client's view, the conflict.
func TestTypeScriptSDKClientsRunTheRealToolsOverTheModel(t *testing.T) {
	var got struct {
		loopAndConflict
		Sessions          []string `json:"sessions"`
		Tools             []string `json:"tools"`
		SchemaProblems    []string `json:"schemaProblems"`
		ArgumentProblems  []string `json:"argumentProblems"`
		UndeclaredRefused bool     `json:"undeclaredRefused"`
		SampleClasses     struct {
			Items           []string `json:"items"`
			IsError         bool     `json:"isError"`
			HasOutputSchema bool     `json:"hasOutputSchema"`
		} `json:"sampleClasses"`
	}
	modelStory(t, "ts-model-client.mjs", &got)
	sort.Strings(got.Tools)
	if !slices.Equal(got.Tools, modelstone.RealTools) {
		t.Errorf("the TypeScript SDK listed %d tools %v, want the %d real tools", len(got.Tools), got.Tools, len(modelstone.RealTools))
	}
	if len(got.SchemaProblems) > 0 || len(got.ArgumentProblems) > 0 {
		t.Errorf("strict Ajv refused schemas %v, or the client's arguments %v", got.SchemaProblems, got.ArgumentProblems)
	}
	if !got.UndeclaredRefused {
		t.Error("compile_method's inputSchema, compiled by Ajv, accepted an undeclared argument")
	}
	if sc := got.SampleClasses; sc.IsError || !sc.HasOutputSchema || !slices.Contains(sc.Items, "SampleAccount") {
		t.Errorf("list_classes of Sample, checked by the SDK against its outputSchema: %+v", sc)
	}
	got.check(t, "TypeScript SDK")
	if len(got.Sessions) != 2 || got.Sessions[0] == got.Sessions[1] {
		t.Errorf("the two TypeScript clients had sessions %v, want two distinct", got.Sessions)
	}
}

// goClient is one Go SDK client session with the input schemas it listed.
type goClient struct {
	t       *testing.T
	cs      *mcp.ClientSession
	schemas map[string]json.RawMessage // input schemas by tool
	outputs map[string]json.RawMessage // output schemas by tool, where declared
	// session is the GemStone session open_session answered: every call carries it as the
	// tool argument session, as a model threads it; "" calls without one.
	session string
	// last is the structuredContent of the last call.
	last map[string]any
}

// connectGo opens a session on the 2025-11-25 revision. The SDK's default, 2026-07-28, runs each
// call statelessly on a pooled gem whose uncommitted work is discarded after the call, so a
// read, a compile and a commit on three calls need a session to be one transaction.
func connectGo(ctx context.Context, t *testing.T, url, name string) *goClient {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("Go SDK connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Fatalf("the Go SDK negotiated %q, want the session revision 2025-11-25", got)
	}
	if cs.ID() == "" {
		t.Fatal("the Go SDK client has no MCP session id")
	}
	return &goClient{t: t, cs: cs, schemas: map[string]json.RawMessage{}, outputs: map[string]json.RawMessage{}}
}

// list answers the tools' names and keeps their input schemas, each held to JSON Schema.
func (g *goClient) list(ctx context.Context) []string {
	g.t.Helper()
	res, err := g.cs.ListTools(ctx, nil)
	if err != nil {
		g.t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			g.t.Fatalf("%s: %v", tool.Name, err)
		}
		g.schemas[tool.Name] = raw
		for _, p := range toolschema.Problems(raw) {
			g.t.Errorf("Go SDK: %s inputSchema %s: %s", tool.Name, p, raw)
		}
		if tool.OutputSchema != nil {
			out, _ := json.Marshal(tool.OutputSchema)
			if _, err := toolschema.Compile(out); err != nil {
				g.t.Errorf("Go SDK: %s outputSchema: %v", tool.Name, err)
			}
			g.outputs[tool.Name] = out
		}
	}
	sort.Strings(names)
	return names
}

// call holds the arguments to the listed schema, calls the tool and answers what came back.
func (g *goClient) call(ctx context.Context, name string, args map[string]any) toolOutcome {
	g.t.Helper()
	if g.session != "" {
		args = maps.Clone(args)
		args["session"] = g.session
	}
	if err := toolschema.Validate(g.schemas[name], args); err != nil {
		g.t.Errorf("Go SDK: %s %v do not satisfy the listed inputSchema: %v", name, args, err)
	}
	res, err := g.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		g.t.Fatalf("Go SDK: %s: %v", name, err)
	}
	g.last, _ = res.StructuredContent.(map[string]any)
	var o toolOutcome
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			o.Text += tc.Text
		}
	}
	o.IsError = res.IsError
	if out, ok := g.outputs[name]; ok {
		if err := toolschema.ValidateValue(out, res.StructuredContent); err != nil {
			g.t.Errorf("Go SDK: %s structuredContent does not satisfy its outputSchema: %v", name, err)
		}
	}
	if sc, ok := res.StructuredContent.(map[string]any); ok {
		if e, ok := sc["error"].(map[string]any); ok {
			o.Kind, _ = e["kind"].(string)
		}
	}
	return o
}

// The Go SDK: two clients, every listed schema held to JSON Schema and every argument sent to
// the listed schema, the loop, the second client's view, the conflict.
func TestGoSDKClientsRunTheRealToolsOverTheModel(t *testing.T) {
	s := startOnModel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	a := connectGo(ctx, t, s.URL, "mcp-gemstone-go-sdk-model-a")
	b := connectGo(ctx, t, s.URL, "mcp-gemstone-go-sdk-model-b")
	if names := a.list(ctx); !slices.Equal(names, modelstone.RealTools) {
		t.Errorf("the Go SDK listed %d tools %v, want the %d real tools", len(names), names, len(modelstone.RealTools))
	}
	b.list(ctx)
	if toolschema.Validate(a.schemas["compile_method"], map[string]any{"className": "X", "source": "x", "bogus": 1}) == nil {
		t.Error("compile_method's inputSchema accepted an undeclared argument")
	}
	if got := a.call(ctx, "list_classes", map[string]any{"dictionaryName": "Sample"}); got.IsError || !strings.Contains(got.Text, "SampleAccountTest") {
		t.Errorf("list_classes of Sample: %+v", got)
	}
	if _, ok := a.outputs["list_classes"]; !ok {
		t.Error("list_classes lists no outputSchema")
	}
	s2 := runGoStory(ctx, a, b, nil, nil)
	s2.check(t, "Go SDK")
}

// runGoStory is the loop-and-conflict story of two Go SDK clients: A fixes the sample and
// commits, B sees it only after its refresh, then both change the method and B's commit is
// refused. afterCompile runs between A's compile and its commit, afterCommit right after the
// commit: a test's own checks, each may be nil.
func runGoStory(ctx context.Context, a, b *goClient, afterCompile, afterCommit func()) loopAndConflict {
	method := map[string]any{"className": "SampleSavingsAccount", "selector": "addInterest"}
	tests := map[string]any{"className": "SampleAccountTest"}
	compile := func(source string) map[string]any {
		return map[string]any{"className": "SampleSavingsAccount", "source": source}
	}
	var s2 loopAndConflict
	s2.Second.Before = b.call(ctx, "get_method_source", method)
	s2.Loop.TestsBefore = a.call(ctx, "run_test_class", tests)
	s2.Loop.Read = a.call(ctx, "get_method_source", method)
	s2.Loop.Compile = a.call(ctx, "compile_method", compile(modelstone.FixedAddInterest))
	if afterCompile != nil {
		afterCompile()
	}
	s2.Loop.TestsAfter = a.call(ctx, "run_test_class", tests)
	s2.Loop.Commit = a.call(ctx, "commit", map[string]any{})
	if afterCommit != nil {
		afterCommit()
	}
	s2.Second.BeforeRefresh = b.call(ctx, "get_method_source", method)
	s2.Second.Refresh = b.call(ctx, "refresh", map[string]any{})
	s2.Second.AfterRefresh = b.call(ctx, "get_method_source", method)
	s2.Second.Tests = b.call(ctx, "run_test_class", tests)
	a.call(ctx, "get_method_source", method)
	s2.Conflict.CompileA = a.call(ctx, "compile_method", compile("addInterest\n  self deposit: 1"))
	s2.Conflict.CompileB = b.call(ctx, "compile_method", compile("addInterest\n  self deposit: 2"))
	s2.Conflict.CommitA = a.call(ctx, "commit", map[string]any{})
	s2.Conflict.CommitB = b.call(ctx, "commit", map[string]any{})
	s2.Conflict.AbortB = b.call(ctx, "abort", map[string]any{})
	s2.Conflict.AfterAbortB = b.call(ctx, "get_method_source", method)
	return s2
}

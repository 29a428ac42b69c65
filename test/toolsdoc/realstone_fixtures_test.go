package toolsdoc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/test/contract"
)

const realstoneDir = "../contract/realstone"

var sunitToolCall = regexp.MustCompile(`(?:callTool|failureOf|failureKindOf):\s*'([a-z_]+)'`)

// toolSurfaceToolsets are the toolsets whose tools the real-stone scenarios must cover.
var toolSurfaceToolsets = []string{
	"McpListingToolset", "McpBrowsingToolset", "McpSearchToolset", "McpMutationToolset",
	"McpTestingToolset",
}

type step struct {
	file string
	path string
	id   json.Number
	tool string
	c    contract.Case
}

type scenario struct {
	name  string
	steps []step
}

func realstoneScenarios(t *testing.T) []scenario {
	t.Helper()
	entries, err := os.ReadDir(realstoneDir)
	if err != nil {
		t.Fatalf("reading %s: %v", realstoneDir, err)
	}
	var out []scenario
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(realstoneDir, e.Name())
		cases, err := contract.Load(dir)
		if err != nil {
			t.Fatalf("loading scenario %s: %v", e.Name(), err)
		}
		s := scenario{name: e.Name()}
		for _, c := range cases {
			var req struct {
				ID     json.Number `json:"id"`
				Method string      `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if err := json.Unmarshal(c.Request(nil), &req); err != nil {
				t.Fatalf("%s/%s: request is not JSON: %v", e.Name(), c.Name, err)
			}
			if req.Method != "tools/call" || req.Params.Name == "" {
				t.Errorf("%s/%s: every step must be a tools/call naming a tool", e.Name(), c.Name)
			}
			s.steps = append(s.steps, step{file: c.Name, path: filepath.Join(dir, c.Name+".json"), id: req.ID,
				tool: req.Params.Name, c: c})
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatalf("no scenarios under %s", realstoneDir)
	}
	return out
}

func TestRealstoneScenariosCallEveryToolOfTheToolSurface(t *testing.T) {
	called := map[string]bool{}
	for _, s := range realstoneScenarios(t) {
		for _, st := range s.steps {
			called[st.tool] = true
		}
	}
	registered := registeredTools(t)
	var missing []string
	for _, n := range toolsOf(t, registered, toolSurfaceToolsets) {
		if !called[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no real-stone scenario calls %v", missing)
	}
	all := map[string]bool{}
	for _, names := range registered {
		for _, n := range names {
			all[n] = true
		}
	}
	for n := range called {
		if !all[n] {
			t.Errorf("a scenario calls %q, which no toolset in smalltalk/core registers", n)
		}
	}
}

// A real-stone scenario never commits and ends by aborting (then at most one check that the
// abort undid its work): it leaves the stone as it found it.
func TestRealstoneScenariosLeaveTheStoneAsTheyFoundIt(t *testing.T) {
	for _, s := range realstoneScenarios(t) {
		t.Run(s.name, func(t *testing.T) {
			lastAbort := -1
			for i, st := range s.steps {
				if st.tool == "commit" {
					t.Errorf("%s/%s commits; the scenarios must leave the stone as they found it", s.name, st.file)
				}
				if st.tool == "abort" {
					lastAbort = i
				}
			}
			switch {
			case lastAbort < 0:
				t.Errorf("scenario %s never aborts", s.name)
			case len(s.steps)-1-lastAbort > 1:
				t.Errorf("scenario %s runs %d steps after its last abort; at most one, a check that the abort undid its work",
					s.name, len(s.steps)-1-lastAbort)
			}
		})
	}
}

func TestRealstoneStepIdsCountUpFromOne(t *testing.T) {
	for _, s := range realstoneScenarios(t) {
		for i, st := range s.steps {
			if want := json.Number(strconv.Itoa(i + 1)); st.id != want {
				t.Errorf("%s/%s has id %s, want %s (its place in the scenario)", s.name, st.file, st.id, want)
			}
		}
	}
}

// TestRealstonePatternsAcceptTheDispatchersShape checks every pattern against a response of the
// shape McpDispatcher builds for that step's expected outcome, so a malformed pattern is caught
// here rather than on a stone.
func TestRealstonePatternsAcceptTheDispatchersShape(t *testing.T) {
	for _, s := range realstoneScenarios(t) {
		for _, st := range s.steps {
			resp := dispatcherShapeFor(t, st)
			if err := st.c.Check(resp); err != nil {
				t.Errorf("%s/%s rejects the dispatcher's shape: %v", s.name, st.file, err)
			}
		}
	}
}

// dispatcherShapeFor reads the expected isError, kind and extra error fields from the case file
// and builds the response McpDispatcher would send: text content, and structuredContent.error on
// failure or, for a tool declaring an outputSchema, its page on success.
func dispatcherShapeFor(t *testing.T, st step) []byte {
	t.Helper()
	raw, err := os.ReadFile(st.path)
	if err != nil {
		t.Fatalf("reading %s: %v", st.path, err)
	}
	var f struct {
		Response struct {
			Result struct {
				IsError           bool `json:"isError"`
				StructuredContent struct {
					Error map[string]any `json:"error"`
				} `json:"structuredContent"`
			} `json:"result"`
		} `json:"response"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("%s: %v", st.file, err)
	}
	result := map[string]any{
		"isError": f.Response.Result.IsError,
		"content": []any{map[string]any{"type": "text", "text": "answer\n[session] note"}},
	}
	if f.Response.Result.IsError {
		e := map[string]any{"message": "why"}
		for k, v := range f.Response.Result.StructuredContent.Error {
			if s, ok := v.(string); ok && len(s) > 0 && s[0] == '$' {
				continue
			}
			e[k] = v
		}
		result["structuredContent"] = map[string]any{"error": e}
	} else if pagedTools(t)[st.tool] {
		item := map[string]any{"name": "answer", "position": 1}
		result["structuredContent"] = map[string]any{"items": []any{item}, "offset": 0, "total": 1, "complete": true}
	}
	out, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": st.id, "result": result})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEveryToolSurfaceToolIsCalledBySomeSUnitTest keeps the claim that the SUnit suites cover every
// tool of the five toolsets honest: each tool name must appear as the tool argument of a
// callTool:with:, failureOf:with: or failureKindOf:with: send in smalltalk/tests.
func TestEveryToolSurfaceToolIsCalledBySomeSUnitTest(t *testing.T) {
	files, err := filepath.Glob("../../smalltalk/tests/*.gs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no .gs files in smalltalk/tests (err %v)", err)
	}
	called := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("reading %s: %v", f, err)
		}
		for _, m := range sunitToolCall.FindAllStringSubmatch(string(data), -1) {
			called[m[1]] = true
		}
	}
	registered := registeredTools(t)
	var missing []string
	for _, ts := range toolSurfaceToolsets {
		for _, n := range registered[ts] {
			if !called[n] {
				missing = append(missing, n)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no SUnit test in smalltalk/tests calls %v", missing)
	}
}

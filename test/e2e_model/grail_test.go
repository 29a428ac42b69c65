package e2e_model

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/modelstone"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/toolschema"
)

// The optional Grail toolset through the binary: a stone holding McpGrailToolset and the TEST
// DOUBLE of Grail's API it runs against in the model (smalltalk/tests/grail/double; the model has
// no Grail), and a server that names the toolset in MCP_TOOLSETS with MCP_GRAIL_DIR pointing at
// the double's stand-in checkout. What passes here is the toolset, the worker and the GCI path
// against what the double answers, not Grail.

var coreToolsets = "McpBrowsingToolset McpExecutionToolset McpListingToolset McpMutationToolset " +
	"McpSearchToolset McpSessionToolset McpTestingToolset"

func startGrail(t *testing.T, toolsets string) (*server, string) {
	t.Helper()
	root, err := binserver.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	checkout := filepath.Join(root, modelstone.GrailCheckout)
	s := startOn(t, modelstone.StartFiles(t, modelstone.GrailFiles),
		"MCP_TOOLSETS="+toolsets, "MCP_GRAIL_DIR="+checkout)
	return s, checkout
}

func TestGrailToolsetNamedInTheSurfaceListsItsNineToolsWithClosedSchemas(t *testing.T) {
	s, _ := startGrail(t, coreToolsets+" McpGrailToolset")
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(s.open(t).request("tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if !slices.Contains(modelstone.GrailTools, tool.Name) {
			continue
		}
		if tool.Title == "" {
			t.Errorf("%s: no title", tool.Name)
		}
		for _, p := range toolschema.Problems(tool.InputSchema) {
			t.Errorf("%s: inputSchema %s: %s", tool.Name, p, tool.InputSchema)
		}
		if tool.OutputSchema != nil {
			if _, err := toolschema.Compile(tool.OutputSchema); err != nil {
				t.Errorf("%s: outputSchema %v", tool.Name, err)
			}
		}
	}
	want := append(append([]string(nil), modelstone.RealTools...), modelstone.GrailTools...)
	sort.Strings(want)
	sort.Strings(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools/list named %d tools %v, want the %d real tools and the nine Python tools %v", len(names), names, len(want), want)
	}
}

func TestGrailToolsetLoadedButNotNamedIsNotServed(t *testing.T) {
	s, _ := startGrail(t, coreToolsets)
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(s.open(t).request("tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if slices.Contains(modelstone.GrailTools, tool.Name) {
			t.Errorf("%s is served though MCP_TOOLSETS does not name McpGrailToolset", tool.Name)
		}
	}
	if !strings.Contains(s.log.String(), "MCP_GRAIL_DIR is set but McpGrailToolset is not in MCP_TOOLSETS") {
		t.Errorf("the server did not say why MCP_GRAIL_DIR was left off; log:\n%s", s.log.String())
	}
}

func TestEachGrailToolAnswersThroughTheBinary(t *testing.T) {
	s, checkout := startGrail(t, coreToolsets+" McpGrailToolset")
	a := s.open(t)
	stack := filepath.Join(checkout, "src/python/stdlib/shelf/stack.py")
	expect := func(tool string, args map[string]any, wants ...string) {
		t.Helper()
		got := a.must(tool, args)
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %q, want it to contain %q", tool, args, got, w)
			}
		}
	}
	expect("compile_python", map[string]any{"code": "6 * 7"}, "___binOpMul___:")
	expect("eval_python", map[string]any{"code": "counter = 41"}, "None")
	expect("eval_python", map[string]any{"code": "counter + 1"}, "42")
	if r := a.call("eval_python", map[string]any{"code": "undefined_xyz"}); !r.IsError || r.Kind() != "pythonError" ||
		!strings.Contains(r.Text(), "NameError") {
		t.Errorf("eval_python of an undefined name: isError %v kind %q: %s", r.IsError, r.Kind(), r.Text())
	}
	expect("get_python_source", map[string]any{"name": "shelf.stack.copy_all"}, "# "+stack+":26\ndef copy_all(source, target):")
	expect("describe_python_class", map[string]any{"name": "shelf.stack.Stack"},
		"backing Smalltalk class: GrailDoubleStack", "storage base: OrderedCollection")
	expect("list_python_methods", map[string]any{"name": "shelf.stack.Stack"}, "17  pop(self, index=-1)")
	expect("python_module_state", map[string]any{"name": "sys"}, "kind: native")
	expect("python_module_state", map[string]any{"name": "shelf"}, "compiled: none registered", "source: no compile recorded", "in sys.modules: yes")
	expect("find_python_senders", map[string]any{"name": "helper"},
		"compiled    shelf.stack.Stack.push  line 14  self.append(helper(item))", "source      shelf/stack.py:28", "searched: ", "not searched:")
	expect("find_python_senders", map[string]any{"name": "__lt__", "includeNative": true},
		"compiled    builtins.list.sort  line ?", "the Smalltalk bases they are rooted at (builtins.list)", ", Grail's native modules")
	expect("search_python_source", map[string]any{"pattern": "helper("}, "shelf/stack.py:14: self.append(helper(item))")
	expect("run_python_tests", map[string]any{"classNames": []string{"NoSuchPythonTest"}}, "NoSuchPythonTest: NOT FOUND")
}

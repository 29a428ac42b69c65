// Package toolsdoc checks docs/tools.md against the Smalltalk worker's code: the tool tables must
// name exactly the tools each toolset registers in registerOn: (the core toolsets, and the
// optional ones of their own groups, smalltalk/grail), and the default surface
// (McpServer class >> defaultToolsetNames) must be exactly the 32 tools of the specification and
// the two session tools the front end serves, and the 11 of the debugger (issue 27).
//
// The Smalltalk is read as text, the way topaz files it in: a method starts at a `method:` or
// `classmethod:` line and ends at a line holding only `%`. Tool names are the string literals
// passed as `McpTool name: '...'`.
package toolsdoc

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const (
	coreDir  = "../../smalltalk/core"
	toolsDoc = "../../docs/tools.md"
)

// optionalDirs are the groups of the optional toolsets, which a router serves only when
// MCP_TOOLSETS names them; optionalSurface is what each registers (the specification's Python
// table for McpGrailToolset).
var (
	optionalDirs    = []string{"../../smalltalk/grail"}
	optionalSurface = map[string][]string{
		"McpGrailToolset": {"compile_python", "eval_python", "get_python_source", "run_python_tests",
			"describe_python_class", "list_python_methods", "python_module_state",
			"find_python_senders", "search_python_source"},
	}
)

// specDefaultSurface is the specification's default tool surface (the Execution, Session /
// transaction, Listing, Browsing, Search, Mutation and Testing tables) and open_session and
// close_session, the 2026-07-28 revision's sessions as explicit handles (docs/transport.md).
var specDefaultSurface = []string{
	"execute_code",
	"open_session", "close_session",
	"debug_code", "debug_resume", "debug_restart_frame", "debug_evaluate", "debug_set_temp", "debug_abandon",
	"debug_step", "set_breakpoint", "clear_breakpoint", "list_breakpoints",
	"abort", "commit", "pending_changes", "refresh", "status",
	"list_all_classes", "list_classes", "list_dictionaries", "list_dictionary_entries",
	"describe_class", "export_class_source", "get_class_definition", "get_class_hierarchy",
	"get_method_source", "list_methods",
	"find_implementors", "find_references_to", "find_senders", "search_method_source",
	"add_dictionary", "compile_class_definition", "compile_method", "delete_class",
	"delete_method", "remove_dictionary", "set_class_comment",
	"describe_test_failure", "list_failing_tests", "list_test_classes", "run_test_class",
	"run_test_method", "debug_test",
}

// method is one topaz method block.
type method struct {
	class    string
	meta     bool
	selector string
	category string
	body     string
}

// declaresTools tells whether m is where a toolset declares tools: its registerOn:, or one of the
// methods of category 'declarations' that registerOn: sends, one per tool.
func (m method) declaresTools() bool {
	return !m.meta && (m.selector == "registerOn:" || m.category == "declarations")
}

var (
	methodStart  = regexp.MustCompile(`^(method|classmethod):\s*(\S+)\s*$`)
	categoryLine = regexp.MustCompile(`^category:\s*'([^']*)'\s*$`)
	toolName     = regexp.MustCompile(`McpTool\s+name:\s*'([^']*)'`)
	stringLit    = regexp.MustCompile(`'([^']*)'`)
	docHeading   = regexp.MustCompile("^##\\s.*\\(`(\\w+)`\\)\\s*$")
	docToolRow   = regexp.MustCompile("^\\|\\s*`([a-z_]+)`\\s*\\|")
	keywordParts = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*:`)
)

// selectorOf reads a method's selector from its pattern line (unary, binary or keyword).
func selectorOf(pattern string) string {
	pattern = strings.TrimSpace(pattern)
	if kws := keywordParts.FindAllString(pattern, -1); len(kws) > 0 && strings.HasPrefix(pattern, kws[0]) {
		return strings.Join(kws, "")
	}
	if f := strings.Fields(pattern); len(f) > 0 {
		return f[0]
	}
	return ""
}

func parseMethods(t *testing.T, path string) []method {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer f.Close()
	var out []method
	var cur *method
	var body []string
	category := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil:
			if m := categoryLine.FindStringSubmatch(line); m != nil {
				category = m[1]
			}
			if m := methodStart.FindStringSubmatch(line); m != nil {
				cur = &method{class: m[2], meta: m[1] == "classmethod", category: category}
				body = nil
			}
		case line == "%":
			if len(body) > 0 {
				cur.selector = selectorOf(body[0])
			}
			cur.body = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		default:
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	if cur != nil {
		t.Fatalf("%s: method %s of %s has no closing %%", path, cur.selector, cur.class)
	}
	return out
}

func coreMethods(t *testing.T) []method {
	t.Helper()
	return methodsIn(t, coreDir)
}

// toolsetMethods are the methods of the core and the optional groups.
func toolsetMethods(t *testing.T) []method {
	t.Helper()
	all := coreMethods(t)
	for _, dir := range optionalDirs {
		all = append(all, methodsIn(t, dir)...)
	}
	return all
}

func methodsIn(t *testing.T, dir string) []method {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.gs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .gs files in %s (err %v)", dir, err)
	}
	var all []method
	for _, f := range files {
		all = append(all, parseMethods(t, f)...)
	}
	return all
}

// registeredTools maps each toolset class to the tool names it declares for registerOn:.
func registeredTools(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, m := range toolsetMethods(t) {
		if !m.declaresTools() {
			continue
		}
		for _, n := range toolName.FindAllStringSubmatch(m.body, -1) {
			out[m.class] = append(out[m.class], n[1])
		}
	}
	return out
}

// documentedTools maps each toolset named in a docs/tools.md heading to the tools of its table.
func documentedTools(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatalf("reading %s: %v", toolsDoc, err)
	}
	out := map[string][]string{}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		if m := docHeading.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if strings.HasPrefix(line, "## ") {
			section = ""
			continue
		}
		if m := docToolRow.FindStringSubmatch(line); m != nil && section != "" {
			out[section] = append(out[section], m[1])
		}
	}
	return out
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

func sameSet(a, b []string) bool {
	return strings.Join(sortedCopy(a), ",") == strings.Join(sortedCopy(b), ",")
}

func TestToolsDocListsExactlyWhatEachToolsetRegisters(t *testing.T) {
	registered := registeredTools(t)
	documented := documentedTools(t)
	if len(registered) == 0 {
		t.Fatal("no registerOn: in smalltalk/core registers a tool")
	}
	for class, names := range registered {
		doc, ok := documented[class]
		if !ok {
			t.Errorf("%s registers %v but docs/tools.md has no section for it", class, sortedCopy(names))
			continue
		}
		if !sameSet(names, doc) {
			t.Errorf("%s registers %v but docs/tools.md lists %v", class, sortedCopy(names), sortedCopy(doc))
		}
	}
	for class, names := range documented {
		if _, ok := registered[class]; !ok {
			t.Errorf("docs/tools.md documents %s (%v), which registers nothing in smalltalk/core or an optional group", class, names)
		}
	}
}

func TestNoToolNameIsRegisteredTwice(t *testing.T) {
	seen := map[string]string{}
	for class, names := range registeredTools(t) {
		for _, n := range names {
			if other, dup := seen[n]; dup {
				t.Errorf("tool %q is registered by both %s and %s", n, other, class)
			}
			seen[n] = class
		}
	}
}

// toolsOf answers the tools the toolsets register (registered maps a toolset to its tools); a
// toolset that registers none fails the test.
func toolsOf(t *testing.T, registered map[string][]string, toolsets []string) []string {
	t.Helper()
	var tools []string
	for _, ts := range toolsets {
		names, ok := registered[ts]
		if !ok {
			t.Errorf("toolset %s registers no tools in smalltalk/core", ts)
		}
		tools = append(tools, names...)
	}
	return tools
}

// The default surface is the specification's tools, the session tools and the debugger's.
func TestTheDefaultSurface(t *testing.T) {
	var toolsets []string
	for _, m := range coreMethods(t) {
		if m.class == "McpServer" && m.meta && m.selector == "defaultToolsetNames" {
			for _, s := range stringLit.FindAllStringSubmatch(m.body, -1) {
				toolsets = append(toolsets, s[1])
			}
		}
	}
	if len(toolsets) == 0 {
		t.Fatal("McpServer class >> defaultToolsetNames not found in smalltalk/core, or it names no toolset")
	}
	surface := toolsOf(t, registeredTools(t), toolsets)
	if len(surface) != len(specDefaultSurface) || !sameSet(surface, specDefaultSurface) {
		t.Errorf("default surface is %d tools %v, want the specification's and the session tools, %d %v",
			len(surface), sortedCopy(surface), len(specDefaultSurface), sortedCopy(specDefaultSurface))
	}
}

func TestSelectorOfReadsEveryPatternShape(t *testing.T) {
	cases := map[string]string{
		"registerOn: aRegistry":           "registerOn:",
		"toolNames":                       "toolNames",
		"+ aNumber":                       "+",
		"at: key put: value":              "at:put:",
		"page: c args: a defaultLimit: n": "page:args:defaultLimit:",
	}
	for pattern, want := range cases {
		if got := selectorOf(pattern); got != want {
			t.Errorf("selectorOf(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// An optional toolset registers the specification's tools for it and is not in the default
// surface: loaded is not served.
func TestOptionalToolsets(t *testing.T) {
	registered := registeredTools(t)
	for ts, want := range optionalSurface {
		t.Run(ts+" registers its tools", func(t *testing.T) {
			if !sameSet(registered[ts], want) {
				t.Errorf("%s registers %v, want %v", ts, sortedCopy(registered[ts]), sortedCopy(want))
			}
		})
		t.Run(ts+" is out of the default surface", func(t *testing.T) {
			for _, m := range coreMethods(t) {
				if m.class == "McpServer" && m.meta && m.selector == "defaultToolsetNames" && strings.Contains(m.body, "'"+ts+"'") {
					t.Errorf("McpServer class >> defaultToolsetNames names %s, an optional toolset", ts)
				}
			}
		})
	}
}

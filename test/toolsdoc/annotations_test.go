package toolsdoc

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// hintSet is one tool's declared title and hints, as the docs table writes them: yes or no for
// readOnlyHint, destructiveHint, idempotentHint and openWorldHint.
type hintSet struct {
	title  string
	hints  [4]string
	output string // the toolset method answering its outputSchema (pageSchema for every page, testRunSchema), if any
}

var (
	toolBlockStart = regexp.MustCompile(`McpTool\s+name:\s*'([a-z_]+)'`)
	titleDecl      = regexp.MustCompile(`\btitle:\s*'((?:[^']|'')*)'`)
	fullHintsDecl  = regexp.MustCompile(`hintsReadOnly:\s*(true|false)\s+destructive:\s*(true|false)\s+idempotent:\s*(true|false)\s+openWorld:\s*(true|false)`)
	readOnlyDecl   = regexp.MustCompile(`;\s*readOnly\s*;`)
	outputDecl     = regexp.MustCompile(`outputSchema:\s*self (\w+) from: self`)
	hintsDocRow    = regexp.MustCompile("^\\|\\s*`([a-z_]+)`\\s*\\|\\s*([^|]+?)\\s*\\|\\s*(yes|no)\\s*\\|\\s*(yes|no)\\s*\\|\\s*(yes|no)\\s*\\|\\s*(yes|no)\\s*\\|\\s*$")
)

func yesNo(b string) string {
	if b == "true" {
		return "yes"
	}
	return "no"
}

// declaredHints reads, from the tool declarations of smalltalk/core, the title and hints declared
// for each tool: the text from its McpTool name: to the next tool's.
func declaredHints(t *testing.T) map[string]hintSet {
	t.Helper()
	out := map[string]hintSet{}
	for _, m := range toolsetMethods(t) {
		if !m.declaresTools() {
			continue
		}
		starts := toolBlockStart.FindAllStringSubmatchIndex(m.body, -1)
		for i, st := range starts {
			end := len(m.body)
			if i+1 < len(starts) {
				end = starts[i+1][0]
			}
			block := m.body[st[0]:end]
			name := m.body[st[2]:st[3]]
			var h hintSet
			if tm := titleDecl.FindStringSubmatch(block); tm != nil {
				h.title = strings.ReplaceAll(tm[1], "''", "'")
			}
			switch fm := fullHintsDecl.FindStringSubmatch(block); {
			case fm != nil:
				h.hints = [4]string{yesNo(fm[1]), yesNo(fm[2]), yesNo(fm[3]), yesNo(fm[4])}
			case readOnlyDecl.MatchString(block):
				h.hints = [4]string{"yes", "no", "yes", "no"}
			}
			if om := outputDecl.FindStringSubmatch(block); om != nil {
				h.output = om[1]
				// A page of objects declares its own schema (classPageSchema, methodPageSchema,
				// ...) built on pageSchema: it is a page all the same.
				if strings.HasSuffix(h.output, "PageSchema") {
					h.output = "pageSchema"
				}
			}
			out[name] = h
		}
	}
	return out
}

// pagedTools are the tools whose declaration names the page outputSchema.
func pagedTools(t *testing.T) map[string]bool { return toolsWithOutput(t, "pageSchema") }

// toolsWithOutput are the tools whose declaration names outputSchema: self <schema> from: self.
func toolsWithOutput(t *testing.T, schema string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for name, h := range declaredHints(t) {
		if h.output == schema {
			out[name] = true
		}
	}
	return out
}

func documentedHints(t *testing.T) map[string]hintSet {
	t.Helper()
	data, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]hintSet{}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## Titles and behaviour hints")
			continue
		}
		if m := hintsDocRow.FindStringSubmatch(line); in && m != nil {
			out[m[1]] = hintSet{title: m[2], hints: [4]string{m[3], m[4], m[5], m[6]}}
		}
	}
	return out
}

// everyTool is the default surface and every optional toolset's tools.
func everyTool() []string {
	all := append([]string(nil), specDefaultSurface...)
	for _, names := range optionalSurface {
		all = append(all, names...)
	}
	return all
}

// Every default tool declares a title and all four behaviour hints.
func TestEveryDefaultToolDeclaresItsAnnotations(t *testing.T) {
	declared := declaredHints(t)
	for _, name := range everyTool() {
		t.Run(name, func(t *testing.T) {
			h, ok := declared[name]
			if !ok {
				t.Fatalf("%s is not registered in any registerOn: of smalltalk/core", name)
			}
			if h.title == "" {
				t.Errorf("%s declares no title: (its registerOn: must send title: to the McpTool)", name)
			}
			if h.hints[0] == "" {
				t.Errorf("%s declares no hints (readOnly, or hintsReadOnly:destructive:idempotent:openWorld:)", name)
			}
		})
	}
}

// docs/tools.md shows the titles and hints the code declares.
func TestToolsDocShowsTheAnnotationsTheCodeDeclares(t *testing.T) {
	declared, documented := declaredHints(t), documentedHints(t)
	if len(documented) == 0 {
		t.Fatal("docs/tools.md has no rows under \"## Titles and behaviour hints\"")
	}
	t.Run("each tool's row as declared", func(t *testing.T) {
		for _, name := range everyTool() {
			d, c := documented[name], declared[name]
			c.output = ""
			if d != c {
				t.Errorf("%s: docs/tools.md shows %q %v, the code declares %q %v", name, d.title, d.hints, c.title, c.hints)
			}
		}
	})
	t.Run("no row for a tool no toolset registers", func(t *testing.T) {
		for name := range documented {
			if _, ok := declared[name]; !ok {
				t.Errorf("docs/tools.md shows hints for %s, which no toolset registers", name)
			}
		}
	})
}

// The hints a client relies on most: a tool that deletes says it is destructive, and none of
// the tools that only read says it writes.
func TestTheHintsClientsRelyOnMost(t *testing.T) {
	declared := declaredHints(t)
	for _, name := range []string{"delete_class", "delete_method", "remove_dictionary", "abort", "execute_code"} {
		t.Run(name+" is destructive", func(t *testing.T) {
			if h := declared[name]; h.hints[0] != "no" || h.hints[1] != "yes" {
				t.Errorf("%s: readOnly %s destructive %s, want no and yes", name, h.hints[0], h.hints[1])
			}
		})
	}
	for _, name := range []string{"list_classes", "describe_class", "find_senders", "get_method_source", "status"} {
		t.Run(name+" is read-only", func(t *testing.T) {
			if h := declared[name]; h.hints[0] != "yes" {
				t.Errorf("%s: readOnly %s, want yes", name, h.hints[0])
			}
		})
	}
}

// The tools that answer a list, or a test run, answer it as structuredContent too: they declare
// its schema, and docs/tools.md names them.
func TestTheStructuredContentTools(t *testing.T) {
	want := map[string][]string{
		"pageSchema": {"list_all_classes", "list_classes", "list_dictionaries", "list_dictionary_entries",
			"find_implementors", "find_references_to", "find_senders", "search_method_source", "list_test_classes",
			"list_python_methods", "find_python_senders", "search_python_source"},
		"testRunSchema": {"run_test_class", "run_test_method", "list_failing_tests"},
		"failureSchema": {"describe_test_failure"},
	}
	structured := map[string]bool{}
	for schema, names := range want {
		for _, name := range names {
			structured[name] = true
		}
		t.Run("declare "+schema, func(t *testing.T) {
			declared := toolsWithOutput(t, schema)
			for _, name := range names {
				if !declared[name] {
					t.Errorf("%s declares no outputSchema: self %s from: self", name, schema)
				}
			}
			if len(declared) != len(names) {
				t.Errorf("tools declaring %s: %v, want %v", schema, sortedCopy(keys(declared)), names)
			}
		})
	}
	t.Run("are named in docs/tools.md", func(t *testing.T) { structuredToolsAreNamed(t, structured) })
}

func structuredToolsAreNamed(t *testing.T, structured map[string]bool) {
	doc, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	if i := strings.Index(section, "## Structured content"); i >= 0 {
		section = section[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
	} else {
		t.Fatal("docs/tools.md has no \"## Structured content\" section")
	}
	for name := range structured {
		if !strings.Contains(section, "`"+name+"`") {
			t.Errorf("docs/tools.md's Structured content section does not name %s", name)
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

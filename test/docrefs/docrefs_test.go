// Package docrefs checks that the documentation (README.md, docs/*.md, deploy/**/*.md) names
// only what exists: repository files and directories, flags of bin/mcp-gemstone, options of the
// scripts, and MCP_*/GS_* variables. What exists is read from the repository itself: its files,
// the configuration package (the flags it parses, its table and its environment-only list), the
// scripts, and the make rules that name build outputs. A name that a change removed or renamed
// fails here until the docs follow.
package docrefs

import (
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
)

const root = "../.."

// doc is one documentation file: its path from the repository root and its text.
type doc struct{ path, text string }

func docs(t *testing.T) []doc {
	t.Helper()
	paths := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range more {
		paths = append(paths, rel(p))
	}
	err = filepath.WalkDir(filepath.Join(root, "deploy"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			paths = append(paths, rel(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []doc
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, doc{p, string(b)})
	}
	return out
}

func rel(p string) string {
	return filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
}

// lineOf is the 1-based line of offset i in text.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// readAll is the text of every repository file matching the globs (relative to the root).
func readAll(t *testing.T, globs ...string) string {
	t.Helper()
	var b strings.Builder
	for _, g := range globs {
		files, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if st, err := os.Stat(f); err != nil || st.IsDir() {
				continue
			}
			text, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var (
	markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// A path from the repository root starts with one of its top-level names.
	pathToken = regexp.MustCompile("(?m)(?:^|[\\s`(\\[\"',;])((?:\\./)?([A-Za-z0-9_.-]+)/[A-Za-z0-9_.*/@<>{}$-]*)")
	// A bare file name with an extension the repository's own files use (not a host name such
	// as mcp.example.com: the name must end there).
	fileToken = regexp.MustCompile("(?m)(?:^|[\\s`(\\[\"'])([A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*\\.(?:go|sh|gs|md|mk|c|h|conf|service))(?:$|[^A-Za-z0-9_./-])")
)

// outside are the file names the docs cite that live outside the repository, each with where.
var outside = map[string]string{
	"kcadm.sh":              "Keycloak's admin command (deploy/keycloak.md)",
	"gci-ts.md":             "the fact sheets in ../shared/ref/, which the project's claims about GemStone cite",
	"gemstone-smalltalk.md": "the fact sheets in ../shared/ref/",
	"mcp-conformance.md":    "the fact sheets in ../shared/ref/",
}

// repo knows which paths exist: the working tree, and the build outputs a make rule or a
// script names (bin/..., build/...).
type repo struct {
	top       map[string]bool // top-level entries
	basenames map[string]bool
	outputs   []string // bin/... and build/... that Makefile or a *.mk names
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	r := &repo{top: map[string]bool{}, basenames: map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "bin" && e.Name() != "build" {
			r.top[e.Name()] = true
		}
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || p == filepath.Join(root, "bin") || p == filepath.Join(root, "build")) {
			return filepath.SkipDir
		}
		r.basenames[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rules := readAll(t, "Makefile", "*.mk", "*/*.mk", "*/*/*.mk", "*/*/*/*.mk", "*.sh")
	r.outputs = append(r.outputs, regexp.MustCompile(`\b(?:bin|build)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]`).FindAllString(rules, -1)...)
	return r
}

// exists says whether p, a path from the root as a doc writes it, names something real.
func (r *repo) exists(p string) bool {
	p = strings.TrimPrefix(p, "./")
	if i := strings.IndexAny(p, "#?"); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimRight(p, ".,:;")
	if p == "" || strings.ContainsAny(p, "<>{}$") {
		return true // a template (libgcits-<version>-64.so, ${NAME}), not a path
	}
	first, _, _ := strings.Cut(p, "/")
	if first == "bin" || first == "build" {
		for _, o := range r.outputs {
			if p == o || strings.HasPrefix(p, strings.TrimSuffix(o, "/")+"/") || strings.HasPrefix(o, strings.TrimSuffix(p, "/")) {
				return true
			}
		}
		return false
	}
	if strings.Contains(p, "*") {
		matches, _ := filepath.Glob(filepath.Join(root, strings.ReplaceAll(p, "**", "*")))
		return len(matches) > 0
	}
	if _, err := os.Stat(filepath.Join(root, p)); err == nil {
		return true
	}
	// A Go identifier after a package path (router/channel.Hub, internal/wiring.Assemble).
	dir, last := filepath.Split(strings.TrimSuffix(p, "/"))
	if pkg, _, ok := strings.Cut(last, "."); ok && pkg != "" {
		if st, err := os.Stat(filepath.Join(root, dir, pkg)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

var (
	heading        = regexp.MustCompile("(?m)^#{1,6} +(.+?) *$")
	notInAnchor    = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	fencedCodeSpan = regexp.MustCompile("(?s)\n```.*?\n```")
)

// headingAnchors are the anchors GitHub gives the headings of the Markdown file p: lower case,
// punctuation dropped, spaces made hyphens.
func headingAnchors(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, p))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range heading.FindAllStringSubmatch(fencedCodeSpan.ReplaceAllString(string(b), "\n"), -1) {
		text := notInAnchor.ReplaceAllString(strings.ToLower(m[1]), "")
		out = append(out, strings.ReplaceAll(text, " ", "-"))
	}
	return out
}

func TestDocsNameOnlyRepositoryFilesThatExist(t *testing.T) {
	r := newRepo(t)
	for _, d := range docs(t) {
		seen := map[string]bool{}
		report := func(i int, p, how string) {
			if !seen[p] {
				seen[p] = true
				t.Errorf("%s:%d names %s %q, which the repository does not have", d.path, lineOf(d.text, i), how, p)
			}
		}
		for _, m := range markdownLink.FindAllStringSubmatchIndex(d.text, -1) {
			target := d.text[m[2]:m[3]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			p := d.path
			if file != "" {
				p = filepath.ToSlash(filepath.Join(filepath.Dir(d.path), file))
			}
			switch {
			case !r.exists(p):
				report(m[2], target, "the link target")
			case anchor != "" && strings.HasSuffix(p, ".md") && !slices.Contains(headingAnchors(t, p), anchor):
				report(m[2], target, "the heading")
			}
		}
		for _, m := range pathToken.FindAllStringSubmatchIndex(d.text, -1) {
			p, first := d.text[m[2]:m[3]], d.text[m[4]:m[5]]
			if first != "bin" && first != "build" && !r.top[first] {
				continue // not from the root: a method (tools/call), a MIME type, a URL path
			}
			if m[2] > 0 && d.text[m[2]-1] == '/' {
				continue
			}
			if !r.exists(p) {
				report(m[2], p, "the path")
			}
		}
		for _, m := range fileToken.FindAllStringSubmatchIndex(d.text, -1) {
			if name := d.text[m[2]:m[3]]; !r.basenames[name] && outside[name] == "" {
				report(m[2], name, "the file")
			}
		}
	}
}

// externalFlags are the flags the docs quote of programs that are not the project's: go's and
// topaz's. Every other single-dash flag a doc quotes is bin/mcp-gemstone's or a project
// command's, read from its source.
var externalFlags = map[string]string{"race": "go test", "run": "go test", "bench": "go test",
	"count": "go test", "fuzz": "go test", "cpuprofile": "go test", "l": "topaz", "i": "topaz"}

// serverHasFlag asks the configuration's own parser whether -name is a flag of bin/mcp-gemstone.
func serverHasFlag(name string) bool {
	_, err := config.Load([]string{"-" + name, "1"}, func(string) string { return "" }, io.Discard)
	return err == nil || errors.Is(err, flag.ErrHelp) || errors.Is(err, config.ErrVersion) ||
		!strings.Contains(err.Error(), "flag provided but not defined")
}

var (
	quotedFlag  = regexp.MustCompile("`(--?)([a-z][a-z0-9-]*)`")
	serverFlag  = regexp.MustCompile(`mcp-gemstone\s+--?([a-z][a-z0-9-]*)`)
	flagDefined = regexp.MustCompile(`\.(?:String|Bool|Int|Int64|Uint|Float64|Duration)(?:Var)?\((?:[^,()]+, )?"([a-z][a-z0-9-]*)"|\.(?:Var|Func)\([^,()]+, "([a-z][a-z0-9-]*)"`)
)

// Docs name only flags and options that exist.
func TestDocsNameOnlyFlagsThatExist(t *testing.T) {
	commands := map[string]bool{} // flags of the project's other commands
	for _, m := range flagDefined.FindAllStringSubmatch(readAll(t, "cmd/*/*.go", "bench/*/*.go", "test/*/*.go", "test/*/*/*.go"), -1) {
		commands[m[1]+m[2]] = true
	}
	scripts := readAll(t, "*.sh")
	for _, d := range docs(t) {
		for _, m := range serverFlag.FindAllStringSubmatchIndex(d.text, -1) {
			if name := d.text[m[2]:m[3]]; !serverHasFlag(name) {
				t.Errorf("%s:%d: bin/mcp-gemstone has no flag -%s", d.path, lineOf(d.text, m[0]), name)
			}
		}
		for _, m := range quotedFlag.FindAllStringSubmatchIndex(d.text, -1) {
			dashes, name := d.text[m[2]:m[3]], d.text[m[4]:m[5]]
			switch {
			case dashes == "--" && !strings.Contains(scripts, "--"+name):
				t.Errorf("%s:%d: no script takes --%s", d.path, lineOf(d.text, m[0]), name)
			case dashes == "-" && externalFlags[name] == "" && !commands[name] && !serverHasFlag(name):
				t.Errorf("%s:%d: -%s is a flag of neither bin/mcp-gemstone nor another command of the project", d.path, lineOf(d.text, m[0]), name)
			}
		}
	}
}

var variable = regexp.MustCompile(`\b(?:MCP|GS)_[A-Z0-9_]*[A-Z0-9]\b`)

// knownVariables are the MCP_*/GS_* names something reads: the configuration table and the
// server's -help (which lists the variables read from the environment only), the scripts and
// their example settings, and the client snippets the docs show.
func knownVariables(t *testing.T) map[string]bool {
	t.Helper()
	var sources strings.Builder
	sources.WriteString(config.Table())
	if _, err := config.Load([]string{"-help"}, func(string) string { return "" }, &sources); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("mcp-gemstone -help: %v", err)
	}
	sources.WriteString(readAll(t, "*.sh", ".setenv.example", "deploy/systemd/*", "test/clients/snippets/*", "test/clients/snippets/*/*"))
	known := map[string]bool{}
	for _, v := range variable.FindAllString(sources.String(), -1) {
		known[v] = true
	}
	return known
}

func TestDocsNameOnlyVariablesSomethingReads(t *testing.T) {
	known := knownVariables(t)
	for _, d := range docs(t) {
		var unknown []string
		for _, m := range variable.FindAllStringIndex(d.text, -1) {
			if v := d.text[m[0]:m[1]]; !known[v] && !slices.Contains(unknown, v) {
				unknown = append(unknown, v)
				t.Errorf("%s:%d names %s, which neither the server's configuration nor a script reads", d.path, lineOf(d.text, m[0]), v)
			}
		}
	}
}

// The checks above pass on any text that names nothing; these names are in the docs today and
// must be found as the kinds of reference they are, so a broken pattern cannot pass silently.
func TestTheChecksFindTheReferencesTheyCheck(t *testing.T) {
	var all strings.Builder
	for _, d := range docs(t) {
		all.WriteString(d.text)
	}
	text := all.String()
	var paths []string
	for _, m := range pathToken.FindAllStringSubmatch(text, -1) {
		paths = append(paths, m[1])
	}
	for _, want := range []string{"docs/worker-contract.md", "test/standin/"} {
		if !slices.Contains(paths, want) {
			t.Errorf("the path pattern does not find %s in the docs", want)
		}
	}
	if !slices.ContainsFunc(quotedFlag.FindAllStringSubmatch(text, -1), func(m []string) bool { return m[2] == "max-sessions" }) {
		t.Error("the flag pattern does not find `-max-sessions` in the docs")
	}
	if !slices.Contains(variable.FindAllString(text, -1), "MCP_MAX_SESSIONS") {
		t.Error("the variable pattern does not find MCP_MAX_SESSIONS in the docs")
	}
	r := newRepo(t)
	if anchors := headingAnchors(t, "docs/transport.md"); !slices.Contains(anchors, "reference-verb--condition--answer") ||
		!slices.Contains(anchors, "2026-07-28-state-without-sessions") {
		t.Errorf("docs/transport.md's heading anchors are read as %q", anchors)
	}
	for _, p := range []string{"docs/no-such-page.md", "router/no-such-package", "bin/no-such-command"} {
		if r.exists(p) {
			t.Errorf("%s counts as existing", p)
		}
	}
	if serverHasFlag("no-such-flag") || !serverHasFlag("max-sessions") || !serverHasFlag("version") {
		t.Error("the server's flag probe does not tell its flags from others")
	}
	if known := knownVariables(t); known["MCP_NO_SUCH_SETTING"] || !known["MCP_MAX_SESSIONS"] || !known["GS_PASS"] {
		t.Error("the known variables are not the configuration's and the scripts'")
	}
}

package errkind

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// declared reads the constants of errkind.go, name by value.
func declared(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errkind.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s is not a string literal", name.Name)
				}
				value, _ := strconv.Unquote(lit.Value)
				if other, dup := out[value]; dup {
					t.Errorf("%s and %s are both %q", other, name.Name, value)
				}
				out[value] = name.Name
			}
		}
	}
	return out
}

// documented reads the kinds docs/transport.md lists under "Reference: error kinds".
func documented(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../../docs/transport.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Reference: error kinds\n")
	if !ok {
		t.Fatal(`docs/transport.md has no section "Reference: error kinds"`)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Za-z]+)` \\|").FindAllStringSubmatch(section, -1) {
		out[m[1]] = true
	}
	if len(out) == 0 {
		t.Fatal("the error kinds table of docs/transport.md lists no kind")
	}
	return out
}

func TestTheDocsListExactlyTheNamedKinds(t *testing.T) {
	consts, doc := declared(t), documented(t)
	t.Run("every named kind is listed", func(t *testing.T) {
		for value, name := range consts {
			if !doc[value] {
				t.Errorf("%s (%q) is not in docs/transport.md's error kinds table", name, value)
			}
		}
	})
	t.Run("every listed kind is named", func(t *testing.T) {
		for value := range doc {
			if _, ok := consts[value]; !ok {
				t.Errorf("docs/transport.md lists the error kind %q, which internal/errkind does not name", value)
			}
		}
	})
}

func TestEachConstantIsNamedAfterItsKind(t *testing.T) {
	for value, name := range declared(t) {
		if !strings.EqualFold(name, value) {
			t.Errorf("%s names the kind %q: a constant takes its kind's name (initialisms aside)", name, value)
		}
	}
}

package gsmodel

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the checkout this package's tests run in: go test runs them in internal/gsmodel.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root %s has no go.mod: %v", root, err)
	}
	return root
}

// unmodelled lists the kernel selectors the project's Smalltalk sends that the model does not
// implement on purpose, each with the reason. Every other selector the project sends must be
// implemented somewhere (by the project or by the model), so that no tool call can meet a
// MessageNotUnderstood that only the model would raise.
var unmodelled = map[string]string{}

func TestEverySelectorTheProjectSendsIsImplemented(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	tz := NewTopaz(s, io.Discard)
	tz.Dir = repoRoot(t)
	for _, f := range []string{"smalltalk/core/load.gs", "smalltalk/tests/load.gs"} {
		if err := tz.RunFile(f); err != nil {
			t.Fatal(err)
		}
	}
	if tz.Errors > 0 {
		t.Fatalf("%d file-in errors", tz.Errors)
	}
	implemented := map[string]bool{}
	var projectMethods []*Method
	for _, cls := range s.allClasses() {
		for _, side := range []*Object{cls, s.rd(cls).class.thisClass} {
			for _, sel := range s.selectorsOf(side) {
				m := s.methodAt(side, sel)
				implemented[sel] = true
				if !m.kernel {
					projectMethods = append(projectMethods, m)
				}
			}
		}
	}
	missing := map[string][]string{}
	for _, m := range projectMethods {
		for _, sel := range m.sends {
			if !implemented[sel] && unmodelled[sel] == "" {
				missing[sel] = append(missing[sel], s.className(m.class)+">>"+m.selector)
			}
		}
	}
	var lines []string
	for sel, where := range missing {
		lines = append(lines, "#"+sel+" sent by "+strings.Join(where, ", "))
	}
	sort.Strings(lines)
	if len(lines) > 0 {
		t.Errorf("%d selectors the project sends are implemented nowhere in the model:\n  %s", len(lines), strings.Join(lines, "\n  "))
	}
}

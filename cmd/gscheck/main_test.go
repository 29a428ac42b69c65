package main

import (
	"bytes"
	"strings"
	"testing"
)

const fixtures = "../../internal/gscheck/testdata/"

func runCmd(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCleanTreeExitsZeroWithOneSummaryLine(t *testing.T) {
	code, out, _ := runCmd(fixtures + "clean")
	if code != 0 || out != "gscheck: 3 files, 9 methods, clean\n" {
		t.Errorf("exit %d, stdout %q; want 0 and the one-line summary", code, out)
	}
}

func TestFindingsExitOneWithOneFileLinePerFinding(t *testing.T) {
	code, out, errOut := runCmd(fixtures+"broken/FxSyntax.gs", fixtures+"broken/FxAscii.gs")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("stdout has %d lines, want 3:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, fixtures+"broken/") || strings.Count(l, ":") < 2 {
			t.Errorf("line %q is not file:line: finding", l)
		}
	}
	if !strings.Contains(errOut, "2 errors, 1 style findings") {
		t.Errorf("stderr %q does not count the findings", errOut)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{{}, {"-nosuchflag", "x"}, {fixtures + "does-not-exist"}} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("gscheck %v exited %d, want 2", args, code)
		}
	}
}

func TestDirectoryWithoutGsFilesFailsPlainly(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCmd(dir)
	if code != 1 || out != "gscheck: no .gs files under "+dir+"\n" {
		t.Errorf("exit %d, stdout %q; want 1 and the no-.gs-files line", code, out)
	}
}

func TestStyleFindingsFailOnlyWithStrict(t *testing.T) {
	layout := fixtures + "broken/categories"
	code, out, errOut := runCmd(layout)
	if code != 0 {
		t.Errorf("without -strict: exit %d, want 0 (style only); stderr %q", code, errOut)
	}
	if !strings.Contains(out, ": style: ") || strings.Contains(out, ": error: ") {
		t.Errorf("without -strict: stdout %q should list the style findings, tagged style", out)
	}
	if code, _, _ := runCmd("-strict", layout); code != 1 {
		t.Errorf("with -strict: exit %d, want 1", code)
	}
}

func TestErrorsFailWithoutStrict(t *testing.T) {
	code, out, _ := runCmd(fixtures + "broken/FxSyntax.gs")
	if code != 1 || !strings.Contains(out, ": error: syntax error") {
		t.Errorf("exit %d, stdout %q; want 1 and error-tagged lines", code, out)
	}
}

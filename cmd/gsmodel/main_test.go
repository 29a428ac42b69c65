package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPrintitGoesOnPastAnError(t *testing.T) {
	code, out, _ := runCLI(t, "printit\n3 + 4\n%\nrun\nnil foo\n%\nprintit\n'it''s'\n%\n")
	t.Run("writing each print string or error", func(t *testing.T) {
		want := "7\nERROR 2010 , a MessageNotUnderstood occurred (error 2010), an UndefinedObject does not understand  #foo (stdin:5)\n'it''s'\n"
		if out != want {
			t.Errorf("output:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("then exits 1", func(t *testing.T) {
		if code != 1 {
			t.Errorf("exit %d after an error, want 1", code)
		}
	})
}

func TestFilesRunBeforeStdin(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.gs")
	if err := os.WriteFile(f, []byte("run\nUserGlobals at: #X put: 41. true\n%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errText := runCLI(t, "printit\nX + 1\n%\n", f)
	if code != 0 || out != "42\n" {
		t.Errorf("exit %d, output %q, stderr %q", code, out, errText)
	}
}

func TestAMissingFileIsNamed(t *testing.T) {
	code, _, errText := runCLI(t, "", "/no/such/file.gs")
	if code != 1 || !strings.Contains(errText, "/no/such/file.gs") {
		t.Errorf("exit %d, stderr %q", code, errText)
	}
}

func TestAnUnknownFlagIsAUsageError(t *testing.T) {
	if code, _, errText := runCLI(t, "", "-frobnicate"); code != 2 || !strings.Contains(errText, "usage:") {
		t.Errorf("exit %d, stderr %q", code, errText)
	}
}

// -test counts passes and failures and fails the run on a failure.
func TestTestMode(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"core", "tests"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"core/load.gs":  "run\nObject subclass: 'Adder' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()\n%\ncategory: 'x'\nmethod: Adder\nadd: a to: b\n  ^a + b\n%\n",
		"tests/load.gs": "run\nTestCase subclass: 'AdderTest' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()\n%\ncategory: 'tests'\nmethod: AdderTest\ntestAdds\n  self assert: (Adder new add: 2 to: 3) = 5\n%\ncategory: 'tests'\nmethod: AdderTest\ntestWrong\n  self assert: (Adder new add: 2 to: 2) = 5\n%\ncategory: 'tests'\nmethod: AdderTest\ntestErrs\n  ^Adder new frob\n%\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ := runCLI(t, "", "-root", "/", "-test", dir)
	t.Run("counts passes and failures", func(t *testing.T) {
		for _, want := range []string{
			"AdderTest                           1 passed    2 failed    0 skipped",
			"FAILED AdderTest>>testErrs: a MessageNotUnderstood occurred (error 2010), an Adder does not understand  #frob",
			"FAILED AdderTest>>testWrong: Assertion failed",
			"1 passed, 2 failed, 0 skipped",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("exits 1 on a failure", func(t *testing.T) {
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
	})
}

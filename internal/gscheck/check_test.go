package gscheck

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// runCheck checks the given fixture paths with the embedded inventory plus extra inventory dirs.
func runCheck(t *testing.T, paths []string, extraInventory ...string) *Result {
	t.Helper()
	files, err := CollectFiles(paths)
	if err != nil {
		t.Fatalf("collect %v: %v", paths, err)
	}
	inv, err := LoadInventory(extraInventory...)
	if err != nil {
		t.Fatalf("load inventory: %v", err)
	}
	res, err := Check(files, inv)
	if err != nil {
		t.Fatalf("check %v: %v", paths, err)
	}
	return res
}

func findingLines(res *Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.String())
	}
	return out
}

func assertFindings(t *testing.T, res *Result, want ...string) {
	t.Helper()
	got := findingLines(res)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestRealisticFileOutTreeIsClean(t *testing.T) {
	res := runCheck(t, []string{"testdata/clean"})
	assertFindings(t, res)
	if res.Files != 3 || res.Methods != 9 {
		t.Errorf("counted %d files, %d methods; want 3 files, 9 methods", res.Files, res.Methods)
	}
}

func TestSyntaxErrorIsReportedAtItsFileLine(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxSyntax.gs"})
	assertFindings(t, res,
		"testdata/broken/FxSyntax.gs:35: syntax error in FxSyntax>>missingPeriod: expected '.' or the end of the statements, found ':='",
		"testdata/broken/FxSyntax.gs:42: syntax error in FxSyntax>>unclosedParen: expected ')', found the end of the source")
}

func TestDoubleQuoteInsideMethodCommentIsReportedAsTheTrap(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxCommentQuote.gs"})
	assertFindings(t, res,
		`testdata/broken/FxCommentQuote.gs:28: a " inside a comment ends it early; the text after it is compiled as code (silent file-in trap)`,
		`testdata/broken/FxCommentQuote.gs:34: a " opens a comment that is never closed before %: it swallows the rest of the source (silent file-in trap)`)
}

func TestLoneQuoteInsideClassCommentIsReportedAtTheQuote(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxClassComment.gs"})
	assertFindings(t, res,
		"testdata/broken/FxClassComment.gs:17: a ' inside the class comment of FxClassComment ends the string here; double it ('') (silent file-in trap)")
}

func TestTopazCommandInsideMethodBodyIsReportedAsLostPercent(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxLostPercent.gs"})
	assertFindings(t, res,
		"testdata/broken/FxLostPercent.gs:30: topaz command `category: 'accessing'` inside the body opened by `method: FxLostPercent` at line 26 (a lost %?)")
	// The method after the lost % is still read: all three methods are counted.
	if res.Methods != 3 {
		t.Errorf("counted %d methods, want 3 (the one after the lost %% must survive)", res.Methods)
	}
}

func TestBodyNeverClosedIsReported(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxMissing.gs"})
	assertFindings(t, res,
		"testdata/broken/FxMissing.gs:26: `method: FxMissing` opens a body that no % line closes")
}

func TestLinesTopazWouldMisreadAreReported(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxTopaz.gs"})
	assertFindings(t, res,
		"testdata/broken/FxTopaz.gs:25: unknown topaz command `frobnicate now`",
		"testdata/broken/FxTopaz.gs:26: Smalltalk outside a body: `FxTopaz new a` is no topaz command (a lost doit or method: line?)",
		"testdata/broken/FxTopaz.gs:33: Smalltalk outside a body: `#( #a #b ) do: [:x | x]` is read by topaz as a # comment (a lost doit?)")
}

func TestUnresolvedNamesAreReported(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxGlobals.gs"})
	assertFindings(t, res,
		"testdata/broken/FxGlobals.gs:28: undefined global NoSuchClass in FxGlobals>>undefinedGlobal: not defined in the scanned tree nor in the kernel inventory",
		"testdata/broken/FxGlobals.gs:33: undeclared variable b in FxGlobals>>undeclaredVariable")
}

func TestTypoInASendIsReportedAsUnimplementedSelector(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxSelectors.gs"})
	assertFindings(t, res,
		"testdata/broken/FxSelectors.gs:30: #nextPutAl: in FxSelectors>>typo is implemented nowhere in the scanned tree and is not in the kernel inventory")
}

func TestNonASCIISourceIsReportedWithItsColumn(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/FxAscii.gs"})
	assertFindings(t, res,
		"testdata/broken/FxAscii.gs:28: non-ASCII byte 0xC3 at column 8 (sources must be ASCII)")
}

// Tool declarations and their handlers must agree both ways.
func TestToolDeclarationsMustMatchTheirHandlers(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/toolnames"})
	assertFindings(t, res,
		"testdata/broken/toolnames/FxDeclaredToolset.gs:39: FxDeclaredToolset>>declareBetaOn: is in category 'declarations' (a tool declaration) but no registerOn: of FxDeclaredToolset sends it, so its tool is never registered",
		"testdata/broken/toolnames/FxDeclaredToolset.gs:46: tool 'gamma' declared in FxDeclaredToolset>>declareGammaOn: has no handler: its block sends #setName: to self, which FxDeclaredToolset does not implement",
		"testdata/broken/toolnames/FxDriftToolset.gs:30: tool 'beta' declared in FxDriftToolset>>registerOn: has no handler: its block sends #setName: to self, which FxDriftToolset does not implement",
		"testdata/broken/toolnames/FxDriftToolset.gs:38: FxDriftToolset>>gamma: is in category 'tools' (a tool handler) but no tool declared in FxDriftToolset>>registerOn: calls it",
		"testdata/broken/toolnames/FxListedToolset.gs:26: FxListedToolset class>>toolNames lists the tool names a second time; they are derived from FxListedToolset>>registerOn:, the one declaration of each tool",
		"testdata/broken/toolnames/FxListedToolset.gs:34: tool 'delta' is declared twice in FxListedToolset>>registerOn: (the prepare refuses it)")
}

func TestInventoryEntryWithoutCitationIsAFinding(t *testing.T) {
	res := runCheck(t, []string{"testdata/clean"}, "testdata/inventory-uncited")
	assertFindings(t, res,
		"testdata/inventory-uncited/extra.txt:3: inventory entry without citation",
		"testdata/inventory-uncited/extra.txt:4: malformed inventory entry `global Frob Nicate` (want `global NAME`, `selector SEL` or `ivar CLASS NAME`, then `-- citation`)")
}

func TestEmbeddedInventoryIsFullyCited(t *testing.T) {
	inv, err := LoadInventory()
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	for _, p := range inv.Problems {
		t.Errorf("embedded inventory: %s", p)
	}
	for _, name := range []string{"Object", "TestCase", "System", "JsonParser"} {
		if inv.Globals[name] == "" {
			t.Errorf("global %s missing from the embedded inventory", name)
		}
	}
	if inv.Selectors["commitTransaction"] != "gemstone-smalltalk.md s4 (answers a Boolean)" {
		t.Errorf("selector commitTransaction cites %q", inv.Selectors["commitTransaction"])
	}
}

func TestPathsWithNoGsFilesAreRefusedNotPassed(t *testing.T) {
	dir := t.TempDir()
	files, err := CollectFiles([]string{dir})
	if err != nil {
		t.Fatalf("collect: %v", err)
	}
	inv, err := LoadInventory()
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if _, err := Check(files, inv); !errors.Is(err, ErrNoFiles) {
		t.Errorf("Check over an empty directory answered %v, want ErrNoFiles", err)
	}
}

func TestEveryBrokenFixtureFailsAlone(t *testing.T) {
	files, err := filepath.Glob("testdata/broken/*.gs")
	if err != nil || len(files) < 9 {
		t.Fatalf("glob: %v, %d files", err, len(files))
	}
	for _, f := range files {
		if res := runCheck(t, []string{f}); len(res.Findings) == 0 {
			t.Errorf("%s passed clean; every broken fixture must fail", f)
		}
	}
}

// One class per file named after it, and a loader that inputs every file of its directory.
func TestLayoutBreaksAreReported(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/layout"})
	assertFindings(t, res,
		"testdata/broken/layout/FxWrongName.gs:2: the file defining class FxB must be named FxB.gs",
		"testdata/broken/layout/FxWrongName.gs:11: a second class (FxC) in a file that defines FxB: one class per .gs file",
		"testdata/broken/layout/load.gs:1: FxOrphan.gs is in testdata/broken/layout but this loader never inputs it",
		"testdata/broken/layout/load.gs:4: input names a file that does not exist: internal/gscheck/testdata/broken/layout/FxNoSuchFile.gs")
}

func TestClassWithoutCommentOrCategoryOrOutOfItsGroupIsReported(t *testing.T) {
	res := runCheck(t, []string{"testdata/broken/categories"})
	assertFindings(t, res,
		"testdata/broken/categories/FxNoCategory.gs:2: class FxNoCategory has no category (a `FxNoCategory category: '...'` doit)",
		"testdata/broken/categories/FxNoComment.gs:2: class FxNoComment has no class comment (a `FxNoComment comment: '...'` doit saying what it is for and what it must never do)",
		"testdata/broken/categories/FxOtherCategory.gs:14: class FxOtherCategory is in category 'Fx-Elsewhere' but its directory's classes are in 'Fx-Group'")
}

// severities maps each finding's text to its severity, for the severity tests.
func severities(res *Result) map[string]Severity {
	out := map[string]Severity{}
	for _, f := range res.Findings {
		out[f.String()] = f.Severity
	}
	return out
}

// A layout finding is style; a code finding is an error.
func TestEachFindingHasItsRulesSeverity(t *testing.T) {
	cases := []struct {
		path string
		want Severity
	}{
		{"testdata/broken/layout", Style},
		{"testdata/broken/categories", Style},
		{"testdata/broken/toolnames", Style},
		{"testdata/broken/FxAscii.gs", Style},
		{"testdata/broken/FxSyntax.gs", Error},
		{"testdata/broken/FxCommentQuote.gs", Error},
		{"testdata/broken/FxClassComment.gs", Error},
		{"testdata/broken/FxLostPercent.gs", Error},
		{"testdata/broken/FxGlobals.gs", Error},
		{"testdata/broken/FxSelectors.gs", Error},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			res := runCheck(t, []string{tc.path})
			if len(res.Findings) == 0 {
				t.Errorf("%s: no findings; the fixture must break a rule", tc.path)
			}
			for text, sev := range severities(res) {
				// A loader naming a file that does not exist breaks the file-in wherever it is.
				if sev != tc.want && !strings.Contains(text, "input names a file that does not exist") {
					t.Errorf("%s: %q is %v, want %v", tc.path, text, sev, tc.want)
				}
			}
		})
	}
}

func TestTaggedFindingNamesItsSeverity(t *testing.T) {
	f := Finding{File: "a.gs", Line: 3, Msg: "m", Severity: Style}
	if got := f.Tagged(); got != "a.gs:3: style: m" {
		t.Errorf("Tagged() = %q", got)
	}
	errs, style := Counts([]Finding{f, {Msg: "x"}, {Msg: "y"}})
	if errs != 2 || style != 1 {
		t.Errorf("Counts = %d errors, %d style; want 2, 1", errs, style)
	}
}

// A test double (a directory named double) implements and binds names for the suites beside it,
// not for the code under test: that code still needs inventory evidence for the API it sends.
func TestADoubleCountsOnlyForTheSuitesBesideIt(t *testing.T) {
	res := runCheck(t, []string{"testdata/doubles"})
	assertFindings(t, res,
		"testdata/doubles/app/FxUser.gs:22: #frobnicate in FxUser>>use is implemented nowhere in the scanned tree and is not in the kernel inventory",
		"testdata/doubles/app/FxUser.gs:22: undefined global RealApi in FxUser>>use: not defined in the scanned tree nor in the kernel inventory")
}

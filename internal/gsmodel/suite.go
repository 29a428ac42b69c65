package gsmodel

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SuiteResult counts one run of the SUnit suites.
type SuiteResult struct {
	Passed, Failed, Skipped int
	FileInErrors            int
}

// RunTests files in dir/core/load.gs and dir/tests/load.gs (their input paths are relative to
// root), then dir/model.gs when there is one (what the model files in beyond a base install: the
// optional groups, with test doubles of what they need), then runs every concrete TestCase
// subclass, in sorted order as run-unit-tests.sh does, one line per suite. A suite whose class
// side answers true to needsNetldi spawns gems, and one answering true to needsGrail needs a
// Grail image; the model is neither, so their tests are skipped, each named with the reason.
func RunTests(img *Image, root, dir string, out io.Writer) (SuiteResult, error) {
	var res SuiteResult
	s, err := img.Login("DataCurator")
	if err != nil {
		return res, err
	}
	t := NewTopaz(s, out)
	t.Dir = root
	for _, loader := range []string{"core/load.gs", "tests/load.gs", "model.gs"} {
		if loader == "model.gs" && !exists(filepath.Join(dir, loader)) {
			continue
		}
		rel, _ := filepath.Rel(root, filepath.Join(dir, loader))
		if err := t.RunFile(rel); err != nil {
			return res, err
		}
	}
	res.FileInErrors = t.Errors
	if t.Errors > 0 {
		fmt.Fprintf(out, "file-in: %d errors\n", t.Errors)
	}
	for _, name := range suiteNames(s) {
		p, f, sk := runSuite(s, name, out)
		res.Passed += p
		res.Failed += f
		res.Skipped += sk
	}
	fmt.Fprintf(out, "%d passed, %d failed, %d skipped\n", res.Passed, res.Failed, res.Skipped)
	return res, nil
}

func suiteNames(s *Session) []string {
	tc, _ := s.globalNamed("TestCase")
	var names []string
	for _, c := range s.allClasses() {
		if c == tc || !s.inheritsFrom(c, tc.(*Object)) || s.rd(c).class.inDictionary == s.img.globals {
			continue
		}
		names = append(names, s.className(c))
	}
	sort.Strings(names)
	return names
}

func runSuite(s *Session, name string, out io.Writer) (passed, failed, skipped int) {
	abstract, _, _, ok := s.Execute(name + " isAbstract")
	if ok && abstract == true {
		return
	}
	skipReason := ""
	if v, _, _, ok := s.Execute("(" + name + " respondsTo: #needsNetldi) and: [" + name + " needsNetldi]"); ok && v == true {
		skipReason = "the suite spawns gems through a netldi, which the model cannot be"
	}
	if v, _, _, ok := s.Execute("(" + name + " respondsTo: #needsGrail) and: [" + name + " needsGrail]"); ok && v == true {
		skipReason = "the suite needs a Grail image (GemTalk/Grail installed), which the model is not; run-unit-tests.sh runs it on one"
	}
	sels, errText, _, ok2 := s.Execute(name + " testSelectors asArray")
	if !ok2 {
		fmt.Fprintf(out, "%-32s could not list its tests: %s\n", name, errText)
		return 0, 1, 0
	}
	var lines []string
	for _, sel := range s.elements(sels) {
		selName, _ := s.str(sel)
		if skipReason != "" {
			skipped++
			lines = append(lines, fmt.Sprintf("  skipped %s>>%s: %s", name, selName, skipReason))
			continue
		}
		v, errText, _, ok := s.Execute(fmt.Sprintf("| r | r := (%s selector: #'%s') run. r passedCount = 1", name, selName))
		if ok && v == true {
			passed++
			continue
		}
		reason := errText
		if ok {
			d, _, _, _ := s.Execute("SessionTemps current at: #'gsmodel failure' ifAbsent: ['?']")
			reason, _ = s.str(d)
		}
		if strings.HasPrefix(reason, modelLimitPrefix) {
			skipped++
			lines = append(lines, fmt.Sprintf("  skipped %s>>%s: %s", name, selName, reason))
			continue
		}
		failed++
		lines = append(lines, fmt.Sprintf("  FAILED %s>>%s: %s", name, selName, shorten(strings.ReplaceAll(reason, "\n", " "), 300)))
	}
	fmt.Fprintf(out, "%-32s %4d passed %4d failed %4d skipped\n", name, passed, failed, skipped)
	for _, l := range lines {
		fmt.Fprintln(out, l)
	}
	return
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

package gscheck

import (
	"fmt"
	"sort"
	"strconv"
)

// Severity says whether a finding breaks the code or only this project's layout rules.
type Severity int

const (
	// Error: the file-in breaks, or the code is certain to fail at run time (syntax, an
	// unresolved global or selector, the silent file-in traps, a name the compiler refuses).
	Error Severity = iota
	// Style: this project's own conventions (file name = class name, class comment, category,
	// loader coverage, ASCII sources, tool declarations). A correct file-in written elsewhere may break
	// them; only -strict fails on them.
	Style
)

func (s Severity) String() string {
	if s == Style {
		return "style"
	}
	return "error"
}

// Finding is one problem at a line of a file.
type Finding struct {
	File     string
	Line     int
	Msg      string
	Severity Severity
}

func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Msg) }

// Tagged is the finding as the command prints it: file:line: severity: message.
func (f Finding) Tagged() string {
	return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Severity, f.Msg)
}

// Counts answers how many findings are errors and how many are style.
func Counts(fs []Finding) (errors, style int) {
	for _, f := range fs {
		if f.Severity == Style {
			style++
		} else {
			errors++
		}
	}
	return errors, style
}

// sortFindings orders findings by file, line and text, and drops exact duplicates (the same
// unknown selector sent twice on one line is one finding).
func sortFindings(fs []Finding) []Finding {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Msg != b.Msg {
			return a.Msg < b.Msg
		}
		return a.Severity < b.Severity
	})
	var out []Finding
	for _, f := range fs {
		if len(out) > 0 && out[len(out)-1] == f {
			continue
		}
		out = append(out, f)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

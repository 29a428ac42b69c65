package gscheck

import (
	"fmt"
	"sort"
	"strconv"
)

// Finding is one problem at a line of a file.
type Finding struct {
	File string
	Line int
	Msg  string
}

func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Msg) }

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
		return a.Msg < b.Msg
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

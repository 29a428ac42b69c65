package gscheck

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheckNeverPanics feeds arbitrary bytes through the whole pipeline (topaz layer, lexer,
// parser, tree, every check): a checker that panics on a malformed file would hide every other
// finding. The seeds are the fixtures; `go test -fuzz=FuzzCheckNeverPanics` explores from them.
func FuzzCheckNeverPanics(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.gs")
	more, _ := filepath.Glob("testdata/broken/*/*.gs")
	for _, p := range append(seeds, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("method: Foo\n^#(#[1 2] $' $ \"x\" 16r1F 1.5s2 -2e-3 {a. b} ->)\n%\n"))
	inv, err := LoadInventory()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := checkSources([]source{{"fuzz.gs", data}}, inv)
		for _, fd := range res.Findings {
			if fd.Line < 1 {
				t.Fatalf("finding with line %d: %s", fd.Line, fd)
			}
		}
	})
}

package gsmodel

import (
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

// The interpreter's cost per iteration and per send (docs/performance.md). They use only the
// package's exported face, so the same file runs against an older tree for a baseline.

func benchSession(b *testing.B) *Session {
	b.Helper()
	inv, err := gscheck.LoadInventory()
	if err != nil {
		b.Fatal(err)
	}
	img, err := NewImage(inv, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := img.Login("DataCurator")
	if err != nil {
		b.Fatal(err)
	}
	for _, src := range []string{
		"Object subclass: 'BenchCounter' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
		"BenchCounter compileMethod: 'add: x ^x + 1' dictionaries: System myUserProfile symbolList category: 'bench' environmentId: 0",
	} {
		if _, errText, _, ok := s.Execute(src); !ok {
			b.Fatal(errText)
		}
	}
	return s
}

func benchLoop(b *testing.B, src, want string) {
	s := benchSession(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, errText, _, ok := s.Execute(src)
		if !ok {
			b.Fatal(errText)
		}
		if got := s.printString(v); got != want {
			b.Fatalf("%s answered %s, want %s", src, got, want)
		}
	}
}

// BenchmarkBlockIteration is a million iterations of a one-argument block that adds.
func BenchmarkBlockIteration(b *testing.B) {
	benchLoop(b, "| s | s := 0. 1 to: 1000000 do: [:i | s := s + i]. s", "500000500000")
}

// BenchmarkPlainSend is a million sends of a one-line method, each from a loop iteration.
func BenchmarkPlainSend(b *testing.B) {
	benchLoop(b, "| c s | c := BenchCounter new. s := 0. 1 to: 1000000 do: [:i | s := c add: s]. s", "1000000")
}

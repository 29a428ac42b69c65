package gsmodel

import (
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

func seededImage(t *testing.T, inv *gscheck.Inventory, seed uint64) *Session {
	t.Helper()
	img, err := NewImageWith(inv, Options{HashSeed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if img.HashSeed() != seed {
		t.Fatalf("asked for seed %d, the image has %d", seed, img.HashSeed())
	}
	s, err := img.Login("DataCurator")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Hashed collections iterate in an order that depends on the seed, not on insertion, the same
// for the same keys under the same seed; keys and values agree.
func TestHashedCollectionsIterateInTheSeedsOrder(t *testing.T) {
	_, inv := newTestImage(t)
	const fill = "| d out | d := Dictionary new. 1 to: 40 do: [:i | d at: 'k' , i printString put: i]. out := WriteStream on: String new. "
	const keys = fill + "d keysAndValuesDo: [:k :v | out nextPutAll: k; nextPutAll: ' ']. out contents"
	const insertion = fill + "1 to: 40 do: [:i | out nextPutAll: 'k' , i printString; nextPutAll: ' ']. out contents"
	const agree = fill + "(d keys asArray collect: [:k | d at: k]) = d values asArray"
	const set = "| s out | s := Set new. 40 to: 1 by: -1 do: [:i | s add: i]. out := WriteStream on: String new. s do: [:e | out nextPutAll: e printString; nextPutAll: ' ']. out contents"
	orders := map[string]bool{}
	sets := map[string]bool{}
	for _, seed := range []uint64{1, 2, 3, 0x9E3779B97F4A7C15} {
		a, b := seededImage(t, inv, seed), seededImage(t, inv, seed)
		got, again := run(t, a, keys), run(t, b, keys)
		if strings.Count(got, "k") != 40 {
			t.Fatalf("seed %d: the keys printed %s", seed, got)
		}
		if got != again {
			t.Errorf("seed %d: two images iterate the same keys differently:\n  %s\n  %s", seed, got, again)
		}
		if got == run(t, a, insertion) {
			t.Errorf("seed %d: the Dictionary iterates in insertion order", seed)
		}
		if v := run(t, a, agree); v != "true" {
			t.Errorf("seed %d: keys and values disagree: %s", seed, v)
		}
		orders[got] = true
		elements := run(t, a, set)
		if strings.Count(elements, " ") != 40 {
			t.Fatalf("seed %d: the Set printed %s", seed, elements)
		}
		sets[elements] = true
	}
	if len(orders) < 3 || len(sets) < 3 {
		t.Errorf("four seeds gave %d Dictionary orders and %d Set orders; want the order to change with the seed", len(orders), len(sets))
	}
}

// The seed comes from the options, else from GSMODEL_HASHSEED, else it is fresh; a bad
// environment value is an error that names it.
func TestTheHashSeed(t *testing.T) {
	_, inv := newTestImage(t)
	t.Run("comes from the environment", func(t *testing.T) {
		t.Setenv(HashSeedEnv, "42")
		img, err := NewImageWith(inv, Options{})
		if err != nil || img.HashSeed() != 42 {
			t.Fatalf("with %s=42: seed %v, err %v", HashSeedEnv, img.HashSeed(), err)
		}
	})
	t.Run("comes from the options before the environment", func(t *testing.T) {
		t.Setenv(HashSeedEnv, "42")
		if img, _ := NewImageWith(inv, Options{HashSeed: 7}); img.HashSeed() != 7 {
			t.Errorf("the option's seed 7 lost to the environment: %d", img.HashSeed())
		}
	})
	t.Run("refuses a bad environment value", func(t *testing.T) {
		t.Setenv(HashSeedEnv, "soon")
		if _, err := NewImageWith(inv, Options{}); err == nil {
			t.Errorf("%s=soon made an image", HashSeedEnv)
		}
	})
	t.Run("is fresh otherwise", func(t *testing.T) {
		t.Setenv(HashSeedEnv, "")
		a, _ := NewImageWith(inv, Options{})
		b, _ := NewImageWith(inv, Options{})
		if a.HashSeed() == 0 || a.HashSeed() == b.HashSeed() {
			t.Errorf("two fresh seeds: %d and %d", a.HashSeed(), b.HashSeed())
		}
	})
}

package gsmodel

import (
	"sort"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

func newTestImage(t *testing.T) (*Image, *gscheck.Inventory) {
	t.Helper()
	inv, err := gscheck.LoadInventory()
	if err != nil {
		t.Fatal(err)
	}
	img, err := NewImage(inv, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("hashed collections iterated in the order of seed %d (replay: %s=%d)", img.HashSeed(), HashSeedEnv, img.HashSeed())
		}
	})
	return img, inv
}

// Strictness: the model implements a public kernel selector only where the shared inventory
// cites evidence for it; everything else it needs is private (a leading underscore).
func TestKernelSelectorsAreCited(t *testing.T) {
	img, inv := newTestImage(t)
	s, _ := img.Login("DataCurator")
	var uncited []string
	for _, cls := range s.allClasses() {
		for _, side := range []*Object{cls, s.rd(cls).class.thisClass} {
			for _, sel := range s.selectorsOf(side) {
				m := s.methodAt(side, sel)
				if !m.kernel || strings.HasPrefix(sel, "_") {
					continue
				}
				if _, ok := inv.Selectors[sel]; !ok {
					uncited = append(uncited, s.className(side)+">>"+sel)
				}
			}
		}
	}
	sort.Strings(uncited)
	if len(uncited) > 0 {
		t.Errorf("%d kernel methods of the model have no evidence in the inventory:\n  %s",
			len(uncited), strings.Join(uncited, "\n  "))
	}
}

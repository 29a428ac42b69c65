package gscheck

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Inventory is the kernel knowledge the checker trusts: globals (classes and other bindings),
// selectors, and instance variables of kernel classes. Every entry carries the citation of where
// it was seen, so the inventory stays evidence rather than a wish list.
type Inventory struct {
	Globals   map[string]string            // name -> citation
	Selectors map[string]string            // selector -> citation
	Ivars     map[string]map[string]string // class -> ivar -> citation
	Problems  []Finding                    // malformed or uncited entries
}

func newInventory() *Inventory {
	return &Inventory{Globals: map[string]string{}, Selectors: map[string]string{},
		Ivars: map[string]map[string]string{}}
}

// embeddedLabel is how findings name the embedded inventory files: their path in the repository.
const embeddedLabel = "internal/gscheck/inventory"

// inventoryFiles is the kernel inventory as plain text files (docs/gscheck.md gives the
// format), embedded so that bin/gscheck carries it.
//
//go:embed inventory/*.txt
var inventoryFiles embed.FS

// LoadInventory reads every *.txt file of the embedded inventory, then of each extra directory.
func LoadInventory(extraDirs ...string) (*Inventory, error) {
	inv := newInventory()
	files, err := fs.Sub(inventoryFiles, "inventory")
	if err != nil {
		return nil, err
	}
	if err := inv.addFS(files, ".", embeddedLabel); err != nil {
		return nil, err
	}
	for _, d := range extraDirs {
		if err := inv.addFS(os.DirFS(d), ".", d); err != nil {
			return nil, err
		}
	}
	return inv, nil
}

func (inv *Inventory) addFS(fsys fs.FS, dir, label string) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*.txt"))
	if err != nil {
		return fmt.Errorf("listing inventory %s: %w", label, err)
	}
	if len(names) == 0 {
		return fmt.Errorf("inventory %s holds no *.txt files", label)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return fmt.Errorf("reading inventory %s/%s: %w", label, n, err)
		}
		inv.parse(filepath.Join(label, n), string(data))
	}
	return nil
}

// parse reads one inventory file: `global NAME -- citation`, `selector SEL -- citation`,
// `ivar CLASS NAME -- citation`, `#` comments and blank lines.
func (inv *Inventory) parse(file, text string) {
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		raw := strings.TrimSpace(sc.Text())
		if raw == "" || strings.HasPrefix(raw, "#") {
			continue
		}
		bad := func(msg string) { inv.Problems = append(inv.Problems, Finding{File: file, Line: line, Msg: msg}) }
		// The citation follows the first " --" (spaced, so that a selector such as -> is no cut).
		entry, citation, found := strings.Cut(raw, " --")
		citation = strings.TrimSpace(citation)
		if !found || citation == "" {
			bad("inventory entry without citation")
			continue
		}
		fields := strings.Fields(entry)
		if len(fields) == 0 {
			bad("inventory entry with no kind")
			continue
		}
		switch {
		case fields[0] == "global" && len(fields) == 2:
			inv.Globals[fields[1]] = citation
		case fields[0] == "selector" && len(fields) == 2:
			inv.Selectors[fields[1]] = citation
		case fields[0] == "ivar" && len(fields) == 3:
			if inv.Ivars[fields[1]] == nil {
				inv.Ivars[fields[1]] = map[string]string{}
			}
			inv.Ivars[fields[1]][fields[2]] = citation
		default:
			bad("malformed inventory entry " + quoteLine(entry) +
				" (want `global NAME`, `selector SEL` or `ivar CLASS NAME`, then `-- citation`)")
		}
	}
}

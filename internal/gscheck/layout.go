package gscheck

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Layout checks (the spec's "Source layout"): one class per .gs file, named after the class, and
// each group's load.gs inputs every .gs file of its directory, because install.sh verifies a
// load by the file names in the directory: a file no loader names is a class that never loads.

func (c *checker) checkLayout(files []*gsFile) {
	classesByFile := map[string][]*classDef{}
	for _, def := range c.tree.classes {
		classesByFile[def.File] = append(classesByFile[def.File], def)
	}
	for _, f := range files {
		base := filepath.Base(f.Path)
		if base == "load.gs" {
			c.checkLoaderCoversDirectory(f)
			continue
		}
		defs := classesByFile[f.Path]
		sort.Slice(defs, func(i, j int) bool { return defs[i].Line < defs[j].Line })
		if len(defs) > 1 {
			c.report(f.Path, defs[1].Line, "a second class ("+defs[1].Name+") in a file that defines "+
				defs[0].Name+": one class per .gs file")
		}
		if len(defs) >= 1 && strings.TrimSuffix(base, ".gs") != defs[0].Name {
			c.report(f.Path, defs[0].Line, "the file defining class "+defs[0].Name+" must be named "+defs[0].Name+".gs")
		}
	}
}

// checkLoaderCoversDirectory reports each .gs file beside a load.gs that no input line names.
func (c *checker) checkLoaderCoversDirectory(loader *gsFile) {
	dir := filepath.Dir(loader.Path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	named := map[string]bool{}
	for _, in := range loader.Inputs {
		named[filepath.Base(in.Path)] = true
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".gs") || n == "load.gs" || named[n] {
			continue
		}
		c.report(loader.Path, 1, n+" is in "+dir+" but this loader never inputs it")
	}
}

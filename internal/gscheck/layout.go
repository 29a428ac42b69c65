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
	c.checkCommentsAndCategories()
	for _, f := range files {
		base := filepath.Base(f.Path)
		if base == "load.gs" {
			c.checkLoaderCoversDirectory(f)
			continue
		}
		defs := classesByFile[f.Path]
		sort.Slice(defs, func(i, j int) bool { return defs[i].Line < defs[j].Line })
		if len(defs) > 1 {
			c.reportStyle(f.Path, defs[1].Line, "a second class ("+defs[1].Name+") in a file that defines "+
				defs[0].Name+": one class per .gs file")
		}
		if len(defs) >= 1 && strings.TrimSuffix(base, ".gs") != defs[0].Name {
			c.reportStyle(f.Path, defs[0].Line, "the file defining class "+defs[0].Name+" must be named "+defs[0].Name+".gs")
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
		c.reportStyle(loader.Path, 1, n+" is in "+dir+" but this loader never inputs it")
	}
}

// checkCommentsAndCategories reports a class with no class comment or no category, and a class
// whose category differs from the one most classes of its directory share (categories match the
// group, as the directories do).
func (c *checker) checkCommentsAndCategories() {
	byDir := map[string][]*classDef{}
	for _, def := range c.tree.classes {
		byDir[filepath.Dir(def.File)] = append(byDir[filepath.Dir(def.File)], def)
		if !def.HasComment && !c.trappedComments[def.Name] {
			c.reportStyle(def.File, def.Line, "class "+def.Name+" has no class comment (a `"+def.Name+
				" comment: '...'` doit saying what it is for and what it must never do)")
		}
		if def.Category == "" {
			c.reportStyle(def.File, def.Line, "class "+def.Name+" has no category (a `"+def.Name+" category: '...'` doit)")
		}
	}
	for _, defs := range byDir {
		counts := map[string]int{}
		for _, d := range defs {
			if d.Category != "" {
				counts[d.Category]++
			}
		}
		group, best := "", 0
		for cat, n := range counts {
			if n > best || n == best && cat < group {
				group, best = cat, n
			}
		}
		for _, d := range defs {
			if d.Category != "" && d.Category != group {
				c.reportStyle(d.File, d.CategoryLine, "class "+d.Name+" is in category '"+d.Category+
					"' but its directory's classes are in '"+group+"'")
			}
		}
	}
}

package gscheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Result is the outcome of checking a tree.
type Result struct {
	Files    int
	Methods  int
	Findings []Finding
}

// parsedBody is a body with its parse result (nil when it did not parse).
type parsedBody struct {
	*body
	File     string
	Method   *MethodNode // for methods that parsed
	Selector string      // for methods whose pattern parsed, even if the rest did not
	Doit     *Sequence   // for doits that parsed
	newlines []int       // offsets of the newlines of Src, built on first use by lineOf
}

// lineOf answers the file line of a byte offset into the body's source.
func (b *parsedBody) lineOf(pos int) int {
	if b.newlines == nil {
		b.newlines = []int{}
		for i := 0; i < len(b.Src); i++ {
			if b.Src[i] == '\n' {
				b.newlines = append(b.newlines, i)
			}
		}
	}
	return b.Line + sort.SearchInts(b.newlines, pos)
}

// checker holds one run's state: the files, the tree model built from them, and the findings.
type checker struct {
	inv      *Inventory
	findings []Finding
	bodies   []*parsedBody
	tree     *treeModel
	// classes whose comment doit fell into the quote trap: already reported, so not also
	// reported as having no comment
	trappedComments map[string]bool
}

func (c *checker) report(file string, line int, msg string) {
	c.findings = append(c.findings, Finding{File: file, Line: line, Msg: msg, Severity: Error})
}

// reportStyle records a breach of this project's conventions rather than of GemStone's rules.
func (c *checker) reportStyle(file string, line int, msg string) {
	c.findings = append(c.findings, Finding{File: file, Line: line, Msg: msg, Severity: Style})
}

// CollectFiles expands paths into the sorted list of .gs files they name (directories recurse).
func CollectFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("gscheck: %w", err)
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".gs") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("gscheck: walking %s: %w", p, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// ErrNoFiles is answered when the paths hold no .gs file at all, so that a missing tree never
// passes as clean.
var ErrNoFiles = errors.New("no .gs files")

// Check runs every check over the given .gs files with the given inventory.
func Check(files []string, inv *Inventory) (*Result, error) {
	if len(files) == 0 {
		return nil, ErrNoFiles
	}
	sources := make([]source, 0, len(files))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("gscheck: %w", err)
		}
		sources = append(sources, source{path, data})
	}
	return checkSources(sources, inv), nil
}

// source is one file's path and bytes.
type source struct {
	path string
	data []byte
}

// checkSources runs every check over sources already read.
func checkSources(sources []source, inv *Inventory) *Result {
	c := &checker{inv: inv, trappedComments: map[string]bool{}}
	var parsed []*gsFile
	c.findings = append(c.findings, inv.Problems...)
	res := &Result{Files: len(sources)}
	for _, src := range sources {
		path, data := src.path, src.data
		c.checkASCII(path, data)
		f := parseTopaz(path, string(data), func(line int, msg string) { c.report(path, line, msg) })
		c.checkInputs(f)
		parsed = append(parsed, f)
		for _, b := range f.Bodies {
			if b.Kind == bodyMethod {
				res.Methods++
			}
			c.bodies = append(c.bodies, c.parseBody(path, b))
		}
	}
	c.tree = buildTree(c.bodies)
	for _, d := range c.tree.duplicates {
		c.report(d.File, d.Line, d.Msg)
	}
	for _, b := range c.bodies {
		c.checkNames(b)
	}
	c.checkToolDeclarations()
	c.checkSUnitShadowing()
	c.checkLayout(parsed)
	res.Findings = sortFindings(c.findings)
	return res
}

// checkASCII reports the first non-ASCII byte of each line: sources must be ASCII (a file-in
// reads them in the image's default encoding, and the wire is UTF-8 only at the boundary).
func (c *checker) checkASCII(path string, data []byte) {
	line, col := 1, 1
	reported := false
	for _, b := range data {
		if b == '\n' {
			line, col, reported = line+1, 1, false
			continue
		}
		if b >= 0x80 && !reported {
			c.reportStyle(path, line, fmt.Sprintf("non-ASCII byte 0x%02X at column %d (sources must be ASCII)", b, col))
			reported = true
		}
		col++
	}
}

// parseBody parses one body and reports syntax errors and the comment traps.
func (c *checker) parseBody(path string, b *body) *parsedBody {
	pb := &parsedBody{body: b, File: path}
	if b.Kind == bodyDoit && c.commentStringTrap(pb) {
		return pb
	}
	var (
		comments []comment
		err      error
	)
	if b.Kind == bodyMethod {
		pb.Method, comments, err = parseMethod(b.Src)
		if pb.Method != nil {
			pb.Selector = pb.Method.Selector
		}
		if err != nil {
			pb.Method = nil
		}
	} else {
		pb.Doit, comments, err = parseDoit(b.Src)
	}
	if c.checkCommentQuotes(pb, comments) {
		// The trap explains whatever the parse made of the swallowed words; report it alone.
		pb.Method, pb.Doit = nil, nil
		return pb
	}
	if err != nil {
		var trap *trapError
		var syn *syntaxError
		switch {
		case errors.As(err, &trap):
			c.report(path, pb.lineOf(trap.Pos), trap.Msg)
		case errors.As(err, &syn):
			c.report(path, pb.lineOf(syn.Pos), "syntax error in "+pb.where()+": "+syn.Msg)
		default:
			c.report(path, b.Line, "syntax error in "+pb.where()+": "+err.Error())
		}
	}
	return pb
}

// where names a body for messages: Foo>>bar, Foo class>>bar, or the topaz command.
func (b *parsedBody) where() string {
	if b.Kind != bodyMethod {
		return quoteLine(b.Command) + " at line " + itoa(b.CmdLine)
	}
	cls := b.Class
	if b.Meta {
		cls += " class"
	}
	sel := b.Selector
	if sel == "" {
		sel = "?"
	}
	return cls + ">>" + sel
}

// checkInputs reports an `input` line naming a file that does not exist. Loaders name paths
// relative to where topaz runs (the repository root, by this project's convention), which the
// checker cannot know, so a path counts as present if it exists relative to the working
// directory or to any directory enclosing the loader.
func (c *checker) checkInputs(f *gsFile) {
	for _, in := range f.Inputs {
		if !inputExists(f.Path, in.Path) {
			c.report(f.Path, in.Line, "input names a file that does not exist: "+in.Path)
		}
	}
}

func inputExists(loader, path string) bool {
	if _, err := os.Stat(path); err == nil {
		return true
	}
	if filepath.IsAbs(path) {
		return false
	}
	dir, err := filepath.Abs(filepath.Dir(loader))
	if err != nil {
		return false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, path)); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

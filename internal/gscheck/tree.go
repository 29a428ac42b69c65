package gscheck

import (
	"path/filepath"
	"regexp"
	"strings"
)

// treeModel is what the scanned tree itself defines: classes (from class-definition doits),
// names bound by doits, and every implemented selector.
type treeModel struct {
	classes   map[string]*classDef
	globals   map[string]bool
	selectors map[string]bool
	// what files under a directory named double (a test double of an API the project cannot
	// install, e.g. smalltalk/tests/grail/double) implement and bind: it counts only for files
	// below the double's parent directory (the double and the suites beside it), so the code
	// under test still needs inventory evidence for every name of that API it sends, exactly as
	// if the double were absent
	doubleGlobals   map[string]bool
	doubleSelectors map[string]bool
	doubleParents   map[string]bool
	duplicates      []Finding
	// classes whose definition doit did not parse: their names are known, their variables not,
	// so their methods are spared the undeclared-variable findings the one real error caused
	broken map[string]bool

	// comment: and category: doits, applied once every class is known (a file may set the
	// comment of a class defined in a file read later).
	pendingClassNotes []classNote
}

type classNote struct {
	class string
	send  *SendNode
	body  *parsedBody
}

// classDef is one class-definition doit, e.g.
// Object subclass: 'Foo' instVarNames: #(a) classVars: #(B) classInstVars: #() poolDictionaries: #()
// inDictionary: Mcp options: #()
type classDef struct {
	Name, Super   string
	Ivars         []string
	ClassVars     []string
	ClassInstVars []string
	File          string
	Line          int
	HasComment    bool   // a `Name comment: '...'` doit was seen
	Category      string // from a `Name category: '...'` doit
	CategoryLine  int
}

// classDefinitionSelectors are the keyword heads of GemStone 3.7 class-definition messages
// (gemstone-smalltalk.md s2): subclass:instVarNames:classVars:classInstVars:poolDictionaries:
// inDictionary:options:, the short subclass:instVarNames:inDictionary:, and the byte/indexable
// variants.
var classDefinitionHeads = []string{"subclass:", "byteSubclass:", "indexableSubclass:",
	"variableSubclass:", "variableByteSubclass:"}

func isClassDefinition(sel string) bool {
	for _, h := range classDefinitionHeads {
		if strings.HasPrefix(sel, h) && len(strings.Split(sel, ":")) > 2 {
			return true
		}
	}
	return false
}

func buildTree(bodies []*parsedBody) *treeModel {
	t := &treeModel{classes: map[string]*classDef{}, globals: map[string]bool{}, selectors: map[string]bool{},
		broken: map[string]bool{}, doubleGlobals: map[string]bool{}, doubleSelectors: map[string]bool{},
		doubleParents: map[string]bool{}}
	type methodKey struct {
		class    string
		meta     bool
		selector string
	}
	seen := map[methodKey]*parsedBody{}
	for _, b := range bodies {
		if b.Kind == bodyMethod {
			if b.Selector == "" {
				continue
			}
			if parent, ok := doubleParent(b.File); ok {
				t.doubleParents[parent] = true
				t.doubleSelectors[b.Selector] = true
			} else {
				t.selectors[b.Selector] = true
			}
			k := methodKey{b.Class, b.Meta, b.Selector}
			if first, dup := seen[k]; dup {
				t.duplicates = append(t.duplicates, Finding{File: b.File, Line: b.CmdLine, Msg: b.where() + " is defined twice (first at " + first.File + ":" + itoa(first.CmdLine) + "); the later one wins"})
			} else {
				seen[k] = b
			}
			continue
		}
		if b.Doit == nil {
			t.salvageClassNames(b)
			continue
		}
		binds := false
		walkSequence(b.Doit, func(e Expr) {
			s, ok := e.(*SendNode)
			if !ok {
				return
			}
			if s.Selector == "at:put:" {
				binds = true
			}
			t.noteDoitSend(b, s)
		})
		if binds {
			t.notePredeclaredNames(b)
		}
	}
	for _, n := range t.pendingClassNotes {
		def := t.classes[n.class]
		if def == nil {
			continue
		}
		if n.send.Selector == "comment:" {
			def.HasComment = true
			continue
		}
		if cat, ok := literalText(n.send.Args[0]); ok {
			def.Category, def.CategoryLine = cat, n.body.lineOf(n.send.At)
		}
	}
	return t
}

// definedInBrokenDoit finds the class a doit that did not parse was meant to define.
var definedInBrokenDoit = regexp.MustCompile(`[Ss]ubclass:\s*[#']([A-Za-z_][A-Za-z0-9_]*)`)

// salvageClassNames records the classes a doit that did not parse defines, so that the one
// syntax error already reported does not also surface as an undefined global at every use.
func (t *treeModel) salvageClassNames(b *parsedBody) {
	for _, m := range definedInBrokenDoit.FindAllStringSubmatch(b.Src, -1) {
		if t.classes[m[1]] == nil {
			t.globals[m[1]] = true
			t.broken[m[1]] = true
		}
	}
}

// noteDoitSend records what a doit send defines: a class, or a name bound with at:put: /
// createDictionary: / name: given a Symbol literal.
func (t *treeModel) noteDoitSend(b *parsedBody, s *SendNode) {
	if isClassDefinition(s.Selector) {
		name, ok := literalText(s.Args[0])
		if !ok {
			return
		}
		def := &classDef{Name: name, File: b.File, Line: b.lineOf(s.At)}
		if r, ok := s.Receiver.(*VarRef); ok {
			def.Super = r.Name
		}
		parts := strings.SplitAfter(s.Selector, ":")
		for i, kw := range parts {
			if i >= len(s.Args) {
				break
			}
			switch kw {
			case "instVarNames:":
				def.Ivars = namesIn(s.Args[i])
			case "classVars:":
				def.ClassVars = namesIn(s.Args[i])
			case "classInstVars:":
				def.ClassInstVars = namesIn(s.Args[i])
			}
		}
		if prev, dup := t.classes[name]; dup && (prev.File != def.File) {
			t.duplicates = append(t.duplicates, Finding{File: def.File, Line: def.Line, Msg: "class " + name + " is also defined at " + prev.File + ":" + itoa(prev.Line)})
		}
		t.classes[name] = def
		t.globals[name] = true
		return
	}
	if r, ok := s.Receiver.(*VarRef); ok && (s.Selector == "comment:" || s.Selector == "category:") {
		t.pendingClassNotes = append(t.pendingClassNotes, classNote{r.Name, s, b})
	}
	switch s.Selector {
	case "at:put:", "createDictionary:", "name:", "at:ifAbsentPut:":
		if lit, ok := s.Args[0].(*LiteralNode); ok && lit.Kind == LitSymbol {
			t.bind(b, lit.Value)
		}
	}
}

// notePredeclaredNames records the capitalised Symbol literals of a doit that binds names with
// at:put:, the loader idiom that pre-declares a group's classes before filing them in
// (gemstone-smalltalk.md s1): #( #McpError #McpTool ) do: [:each | mcp at: each put: nil].
func (t *treeModel) notePredeclaredNames(b *parsedBody) {
	seq := b.Doit
	var note func(l *LiteralNode)
	note = func(l *LiteralNode) {
		if l.Kind == LitSymbol && l.Value != "" && l.Value[0] >= 'A' && l.Value[0] <= 'Z' {
			t.bind(b, l.Value)
		}
		for _, el := range l.Elems {
			note(el)
		}
	}
	walkSequence(seq, func(e Expr) {
		if l, ok := e.(*LiteralNode); ok {
			note(l)
		}
	})
}

// bind records a name a doit of b binds: a global of the tree, or of the doubles when b is in one.
func (t *treeModel) bind(b *parsedBody, name string) {
	if parent, ok := doubleParent(b.File); ok {
		t.doubleParents[parent] = true
		t.doubleGlobals[name] = true
		return
	}
	t.globals[name] = true
}

// doubleParent answers the directory that holds the directory named double path lies under.
func doubleParent(path string) (string, bool) {
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(path)), "/")
	for i, dir := range dirs {
		if dir == "double" {
			return strings.Join(dirs[:i], "/"), true
		}
	}
	return "", false
}

// seesDoubles reports whether a body in path may use what a double defines: it lies below the
// parent directory of a double.
func (t *treeModel) seesDoubles(path string) bool {
	p := filepath.ToSlash(path)
	for parent := range t.doubleParents {
		if strings.HasPrefix(p, parent+"/") {
			return true
		}
	}
	return false
}

// literalText answers the text of a string or symbol literal.
func literalText(e Expr) (string, bool) {
	lit, ok := e.(*LiteralNode)
	if !ok || lit.Kind != LitString && lit.Kind != LitSymbol {
		return "", false
	}
	return lit.Value, true
}

// namesIn answers the names in #(a b), #(#a #b), #('a'), or {#a. #b}.
func namesIn(e Expr) []string {
	var out []string
	switch n := e.(type) {
	case *LiteralNode:
		for _, el := range n.Elems {
			if el.Kind == LitString || el.Kind == LitSymbol {
				out = append(out, el.Value)
			}
		}
	case *BraceNode:
		for _, el := range n.Elems {
			if s, ok := literalText(el); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// walkSequence calls fn for every expression in seq, depth first, including inside blocks,
// cascades and brace arrays.
func walkSequence(seq *Sequence, fn func(Expr)) {
	for _, st := range seq.Stmts {
		walkExpr(st, fn)
	}
}

func walkExpr(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch n := e.(type) {
	case *AssignNode:
		walkExpr(n.Value, fn)
	case *ReturnNode:
		walkExpr(n.Value, fn)
	case *SendNode:
		walkExpr(n.Receiver, fn)
		for _, a := range n.Args {
			walkExpr(a, fn)
		}
	case *CascadeNode:
		walkExpr(n.Receiver, fn)
		for _, m := range n.Messages {
			walkExpr(m, fn)
		}
	case *BlockNode:
		walkSequence(n.Body, fn)
	case *BraceNode:
		for _, el := range n.Elems {
			walkExpr(el, fn)
		}
	}
}

package gscheck

import "strings"

// The tool-declaration check. A toolset declares each tool once, as `McpTool name: 'x'
// description: ... schema: ... handler: [:args | self x: args]`, in an instance method of
// category 'declarations' that its registerOn: sends (one method per tool), or in registerOn:
// itself (docs/smalltalk-worker.md); its handlers are its instance methods of category 'tools', and
// McpToolset class>>toolNames derives the names from registerOn:. Declarations and handlers must
// agree both ways: whatever a handler block sends to self the toolset must understand (or the
// declared tool has no handler), and every method of category 'tools' must be sent by a declared
// handler (or it handles no tool). A declaration method registerOn: never sends declares a tool
// nobody is offered. A name declared twice is refused at prepare; a class-side toolNames answering
// a literal lists the names a second time.

// toolDeclaration is one `name: ... handler: ...` send of a registerOn: or a declaration method.
type toolDeclaration struct {
	name    string
	line    int
	handler Expr // the handler: argument
}

// declarationCategory is the category of the methods that each declare a tool for registerOn:.
const declarationCategory = "declarations"

// toolsetBodies gathers, per class, what the check compares.
type toolsetBodies struct {
	declaring map[string]*parsedBody   // class -> its instance-side registerOn:
	declarers map[string][]*parsedBody // class -> its instance methods of category 'declarations'
	handlers  map[string][]*parsedBody // class -> its instance methods of category 'tools'
	listing   map[string]*parsedBody   // class -> a class-side toolNames that answers a literal
	instance  map[string]map[string]bool
}

func (c *checker) gatherToolsets() *toolsetBodies {
	t := &toolsetBodies{declaring: map[string]*parsedBody{}, declarers: map[string][]*parsedBody{},
		handlers: map[string][]*parsedBody{},
		listing:  map[string]*parsedBody{}, instance: map[string]map[string]bool{}}
	for _, b := range c.bodies {
		if b.Method == nil {
			continue
		}
		sel := b.Method.Selector
		switch {
		case b.Meta && sel == "toolNames" && answersLiteralNames(b.Method.Body):
			t.listing[b.Class] = b
		case b.Meta:
		case sel == "registerOn:":
			t.declaring[b.Class] = b
		case b.Category == declarationCategory:
			t.declarers[b.Class] = append(t.declarers[b.Class], b)
		case b.Category == "tools":
			t.handlers[b.Class] = append(t.handlers[b.Class], b)
		}
		if !b.Meta {
			if t.instance[b.Class] == nil {
				t.instance[b.Class] = map[string]bool{}
			}
			t.instance[b.Class][sel] = true
		}
	}
	return t
}

func (c *checker) checkToolDeclarations() {
	t := c.gatherToolsets()
	sent := map[string]map[string]bool{} // declaring class -> selectors its handler blocks send to self
	for cls, rb := range t.declaring {
		sent[cls] = c.checkDeclarations(t, cls, rb)
		if lb, ok := t.listing[cls]; ok {
			c.reportStyle(lb.File, lb.CmdLine, cls+" class>>toolNames lists the tool names a second time; "+
				"they are derived from "+cls+">>registerOn:, the one declaration of each tool")
		}
	}
	c.checkDeclarersAreSent(t)
	for cls, hs := range t.handlers {
		calls, declarer := c.declaredHandlers(sent, cls)
		for _, hb := range hs {
			if !calls[hb.Method.Selector] {
				c.reportStyle(hb.File, hb.CmdLine, hb.where()+" is in category 'tools' (a tool handler) but no tool declared in "+
					declarer+">>registerOn: calls it")
			}
		}
	}
}

// checkDeclarations reports the names declared twice and the handler blocks that send self a
// selector cls does not understand, and answers every selector the handler blocks send to self.
func (c *checker) checkDeclarations(t *toolsetBodies, cls string, rb *parsedBody) map[string]bool {
	sent := map[string]bool{}
	seen := map[string]bool{}
	for _, body := range append([]*parsedBody{rb}, t.declarers[cls]...) {
		for _, d := range declarationsIn(body) {
			if seen[d.name] {
				c.reportStyle(body.File, d.line, "tool '"+d.name+"' is declared twice in "+cls+">>registerOn: (the prepare refuses it)")
			}
			seen[d.name] = true
			block, ok := d.handler.(*BlockNode)
			if !ok {
				continue
			}
			for _, s := range selfSends(block) {
				sent[s.Selector] = true
				if !c.understands(t, cls, s.Selector) {
					c.reportStyle(body.File, body.lineOf(s.At), "tool '"+d.name+"' declared in "+body.where()+" has no handler: its block sends #"+
						s.Selector+" to self, which "+cls+" does not implement")
				}
			}
		}
	}
	return sent
}

// checkDeclarersAreSent reports each declaration method that no registerOn: of its class or of a
// superclass in the tree sends to self: the tool it declares is never registered.
func (c *checker) checkDeclarersAreSent(t *toolsetBodies) {
	for cls, ds := range t.declarers {
		sent := map[string]bool{}
		seen := map[string]bool{}
		for name := cls; name != "" && !seen[name]; {
			seen[name] = true
			if rb, ok := t.declaring[name]; ok {
				for _, s := range selfSends(&BlockNode{Body: rb.Method.Body}) {
					sent[s.Selector] = true
				}
			}
			def := c.tree.classes[name]
			if def == nil {
				break
			}
			name = def.Super
		}
		for _, db := range ds {
			if !sent[db.Method.Selector] {
				c.reportStyle(db.File, db.CmdLine, db.where()+" is in category '"+declarationCategory+
					"' (a tool declaration) but no registerOn: of "+cls+" sends it, so its tool is never registered")
			}
		}
	}
}

// declaredHandlers answers the selectors that the tools declared for cls send to self, along cls
// and its superclasses in the tree (a subclass may override an inherited tool's handler), and the
// nearest of them whose registerOn: declares tools, to name in a finding.
func (c *checker) declaredHandlers(sent map[string]map[string]bool, cls string) (map[string]bool, string) {
	calls := map[string]bool{}
	declarer := ""
	seen := map[string]bool{}
	for name := cls; name != "" && !seen[name]; {
		seen[name] = true
		if own, ok := sent[name]; ok {
			for sel := range own {
				calls[sel] = true
			}
			if declarer == "" {
				declarer = name
			}
		}
		def := c.tree.classes[name]
		if def == nil {
			break
		}
		name = def.Super
	}
	if declarer == "" {
		declarer = cls
	}
	return calls, declarer
}

// understands tells whether an instance of cls answers sel: a method of cls or of a superclass
// defined in the tree, or, past the tree, a selector the kernel inventory lists.
func (c *checker) understands(t *toolsetBodies, cls, sel string) bool {
	seen := map[string]bool{}
	for name := cls; !seen[name]; {
		seen[name] = true
		if t.instance[name][sel] {
			return true
		}
		def := c.tree.classes[name]
		if def == nil {
			// a kernel ancestor: the inventory lists selectors, not which class implements them
			_, kernel := c.inv.Selectors[sel]
			return kernel
		}
		name = def.Super
	}
	return false
}

// declarationsIn answers the tools a registerOn: declares, in source order: each send whose
// selector starts name: and has a handler: part, with a literal String name.
func declarationsIn(rb *parsedBody) []toolDeclaration {
	var out []toolDeclaration
	walkSequence(rb.Method.Body, func(e Expr) {
		s, ok := e.(*SendNode)
		if !ok || !strings.HasPrefix(s.Selector, "name:") || len(s.Args) == 0 {
			return
		}
		lit, ok := s.Args[0].(*LiteralNode)
		if !ok || lit.Kind != LitString {
			return
		}
		d := toolDeclaration{name: lit.Value, line: rb.lineOf(lit.At)}
		for i, kw := range strings.SplitAfter(s.Selector, ":") {
			if kw == "handler:" && i < len(s.Args) {
				d.handler = s.Args[i]
			}
		}
		if d.handler != nil {
			out = append(out, d)
		}
	})
	return out
}

// selfSends answers the messages a block sends to self, cascaded ones included.
func selfSends(block *BlockNode) []*SendNode {
	var out []*SendNode
	isSelf := func(e Expr) bool {
		v, ok := e.(*VarRef)
		return ok && v.Name == "self"
	}
	walkSequence(block.Body, func(e Expr) {
		switch n := e.(type) {
		case *SendNode:
			if isSelf(n.Receiver) {
				out = append(out, n)
			}
		case *CascadeNode:
			if isSelf(n.Receiver) {
				out = append(out, n.Messages...)
			}
		}
	})
	return out
}

// answersLiteralNames tells whether a method body holds a literal array or brace array of names.
func answersLiteralNames(seq *Sequence) bool {
	found := false
	walkSequence(seq, func(e Expr) {
		switch n := e.(type) {
		case *LiteralNode:
			found = found || n.Kind == LitArray && len(namesIn(n)) > 0
		case *BraceNode:
			found = found || len(namesIn(n)) > 0
		}
	})
	return found
}

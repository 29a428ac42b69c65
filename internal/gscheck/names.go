package gscheck

// Name and selector checks: every variable a body reads or writes must be declared (argument,
// temporary, instance/class variable) or be a global the tree or the kernel inventory defines;
// every selector it sends must be implemented in the tree or listed in the inventory.

type scope struct {
	names  map[string]string // name -> "argument" | "temporary" | "block parameter"
	parent *scope
}

func (s *scope) lookup(name string) (string, bool) {
	for ; s != nil; s = s.parent {
		if k, ok := s.names[name]; ok {
			return k, true
		}
	}
	return "", false
}

// classContext is what a method of a class can see besides its own declarations.
type classContext struct {
	broken    bool            // the class definition did not parse: its variables are unknown
	label     string          // Foo or Foo class
	ivars     map[string]bool // instance variables (class-instance variables on the class side)
	classVars map[string]bool
}

// nameChecker checks one body.
type nameChecker struct {
	c   *checker
	b   *parsedBody
	ctx *classContext
}

var pseudoVariables = map[string]bool{"self": true, "super": true, "thisContext": true}

func (c *checker) checkNames(b *parsedBody) {
	n := &nameChecker{c: c, b: b}
	if b.Kind == bodyMethod && b.Class != "" && !c.tree.globals[b.Class] {
		if _, kernel := c.inv.Globals[b.Class]; !kernel {
			c.report(b.File, b.CmdLine, quoteLine(b.Command)+" names a class defined neither in the scanned tree nor in the kernel inventory")
		}
	}
	switch {
	case b.Method != nil:
		n.ctx = c.contextFor(b.Class, b.Meta)
		top := &scope{names: map[string]string{}}
		n.declare(top, b.Method.Args, "argument")
		n.checkSequence(b.Method.Body, top)
	case b.Doit != nil:
		n.ctx = &classContext{ivars: map[string]bool{}, classVars: map[string]bool{}}
		n.checkSequence(b.Doit, &scope{names: map[string]string{}})
	}
}

// contextFor gathers the instance and class variables visible in a method of cls, along its
// superclasses defined in the tree, then the kernel ancestor's variables from the inventory.
// Class-side methods see class-instance variables and the ivars of Class itself.
func (c *checker) contextFor(cls string, meta bool) *classContext {
	ctx := &classContext{label: cls, ivars: map[string]bool{}, classVars: map[string]bool{}, broken: c.tree.broken[cls]}
	if meta {
		ctx.label += " class"
	}
	kernel := cls
	visited := map[string]bool{}
	for def := c.tree.classes[cls]; def != nil && !visited[def.Name]; def = c.tree.classes[def.Super] {
		visited[def.Name] = true
		vars := def.Ivars
		if meta {
			vars = def.ClassInstVars
		}
		for _, v := range vars {
			ctx.ivars[v] = true
		}
		for _, v := range def.ClassVars {
			ctx.classVars[v] = true
		}
		kernel = def.Super
	}
	if !meta {
		for v := range c.inv.Ivars[kernel] {
			ctx.ivars[v] = true
		}
	} else {
		for v := range c.inv.Ivars["Class"] {
			ctx.ivars[v] = true
		}
	}
	return ctx
}

func (n *nameChecker) report(pos int, msg string) {
	n.c.report(n.b.File, n.b.lineOf(pos), msg)
}

func (n *nameChecker) where() string { return n.b.where() }

// declare adds names to s, reporting a name declared twice in one list and a name that shadows
// an instance variable (GemStone refuses both: [1030] variable has already been declared,
// gemstone-smalltalk.md s3).
func (n *nameChecker) declare(s *scope, ids []Ident, kind string) {
	for _, id := range ids {
		if prev, dup := s.names[id.Name]; dup {
			n.report(id.Pos, kind+" "+id.Name+" is already declared as "+prev+" in "+n.where())
			continue
		}
		if pseudoVariables[id.Name] || id.Name == "true" || id.Name == "false" || id.Name == "nil" {
			n.report(id.Pos, "a "+kind+" cannot be named "+id.Name)
		}
		if n.ctx != nil && n.ctx.ivars[id.Name] {
			n.report(id.Pos, kind+" "+id.Name+" in "+n.where()+" has the name of an instance variable of "+
				n.ctx.label+" (GemStone refuses it: [1030] variable has already been declared)")
		}
		s.names[id.Name] = kind
	}
}

// checkSequence declares seq's temporaries in s (a method's sit beside its arguments, so a clash
// between them is a duplicate) and checks its statements.
func (n *nameChecker) checkSequence(seq *Sequence, s *scope) {
	n.declare(s, seq.Temps, "temporary")
	for _, st := range seq.Stmts {
		n.checkExpr(st, s)
	}
}

func (n *nameChecker) checkExpr(e Expr, s *scope) {
	switch x := e.(type) {
	case nil:
	case *VarRef:
		n.checkVar(x.Ident, s)
	case *AssignNode:
		n.checkAssign(x.Target, s)
		n.checkExpr(x.Value, s)
	case *ReturnNode:
		n.checkExpr(x.Value, s)
	case *SendNode:
		n.checkSend(x)
		n.checkExpr(x.Receiver, s)
		for _, a := range x.Args {
			n.checkExpr(a, s)
		}
	case *CascadeNode:
		n.checkExpr(x.Receiver, s)
		for _, m := range x.Messages {
			n.checkExpr(m, s)
		}
	case *BlockNode:
		bs := &scope{names: map[string]string{}, parent: s}
		n.declare(bs, x.Params, "block parameter")
		n.checkSequence(x.Body, &scope{names: map[string]string{}, parent: bs})
	case *BraceNode:
		for _, el := range x.Elems {
			n.checkExpr(el, s)
		}
	}
}

func (n *nameChecker) checkAssign(target Ident, s *scope) {
	if pseudoVariables[target.Name] {
		n.report(target.Pos, "cannot assign to "+target.Name)
		return
	}
	if kind, ok := s.lookup(target.Name); ok && (kind == "argument" || kind == "block parameter") {
		n.report(target.Pos, "cannot assign to "+kind+" "+target.Name+" in "+n.where())
		return
	}
	n.checkVar(target, s)
}

func (n *nameChecker) checkVar(id Ident, s *scope) {
	name := id.Name
	if pseudoVariables[name] {
		return
	}
	if _, ok := s.lookup(name); ok {
		return
	}
	if n.ctx.ivars[name] || n.ctx.classVars[name] {
		return
	}
	if n.c.tree.globals[name] || n.c.tree.doubleGlobals[name] && n.c.tree.seesDoubles(n.b.File) {
		return
	}
	if _, ok := n.c.inv.Globals[name]; ok {
		return
	}
	if name[0] >= 'A' && name[0] <= 'Z' {
		n.report(id.Pos, "undefined global "+name+" in "+n.where()+
			": not defined in the scanned tree nor in the kernel inventory")
		return
	}
	if n.ctx.broken {
		return
	}
	n.report(id.Pos, "undeclared variable "+name+" in "+n.where())
}

// checkSend reports a selector implemented nowhere: the mark of a typo in a send.
func (n *nameChecker) checkSend(s *SendNode) {
	sel := s.Selector
	if n.c.tree.selectors[sel] || n.c.tree.doubleSelectors[sel] && n.c.tree.seesDoubles(n.b.File) {
		return
	}
	if _, ok := n.c.inv.Selectors[sel]; ok {
		return
	}
	n.report(s.At, "#"+sel+" in "+n.where()+" is implemented nowhere in the scanned tree and is not in the kernel inventory")
}

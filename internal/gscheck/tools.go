package gscheck

import "strings"

// The toolNames check: a toolset class registers its tools in registerOn: with
// `McpTool name: 'x' description: ... schema: ... handler: ...`, and lists the same names in its
// class-side toolNames literal array (docs/smalltalk-api.md). The two must agree both ways.

type nameAt struct {
	name string
	line int
}

func (c *checker) checkToolNames() {
	registered := map[string][]nameAt{}
	registerBody := map[string]*parsedBody{}
	listed := map[string][]nameAt{}
	listBody := map[string]*parsedBody{}
	for _, b := range c.bodies {
		if b.Method == nil {
			continue
		}
		switch {
		case !b.Meta && b.Method.Selector == "registerOn:":
			registerBody[b.Class] = b
			walkSequence(b.Method.Body, func(e Expr) {
				s, ok := e.(*SendNode)
				if !ok || !strings.HasPrefix(s.Selector, "name:") || len(s.Args) == 0 {
					return
				}
				if lit, ok := s.Args[0].(*LiteralNode); ok && lit.Kind == LitString {
					registered[b.Class] = append(registered[b.Class], nameAt{lit.Value, b.lineOf(lit.At)})
				}
			})
		case b.Meta && b.Method.Selector == "toolNames":
			listBody[b.Class] = b
			walkSequence(b.Method.Body, func(e Expr) {
				switch n := e.(type) {
				case *LiteralNode:
					for _, el := range n.Elems {
						if el.Kind == LitString || el.Kind == LitSymbol {
							listed[b.Class] = append(listed[b.Class], nameAt{el.Value, b.lineOf(el.At)})
						}
					}
				case *BraceNode:
					for _, el := range n.Elems {
						if lit, ok := el.(*LiteralNode); ok && (lit.Kind == LitString || lit.Kind == LitSymbol) {
							listed[b.Class] = append(listed[b.Class], nameAt{lit.Value, b.lineOf(lit.At)})
						}
					}
				}
			})
		}
	}
	for cls, regs := range registered {
		lb, ok := listBody[cls]
		if !ok {
			rb := registerBody[cls]
			c.reportStyle(rb.File, rb.CmdLine, cls+">>registerOn: registers tools but "+cls+" has no class-side toolNames")
			continue
		}
		inList := map[string]bool{}
		for _, l := range listed[cls] {
			inList[l.name] = true
		}
		for _, r := range regs {
			if !inList[r.name] {
				c.reportStyle(registerBody[cls].File, r.line, "tool '"+r.name+"' is registered in "+cls+
					">>registerOn: but missing from "+cls+" class>>toolNames")
			}
		}
		inRegs := map[string]bool{}
		for _, r := range regs {
			inRegs[r.name] = true
		}
		for _, l := range listed[cls] {
			if !inRegs[l.name] {
				c.reportStyle(lb.File, l.line, "tool '"+l.name+"' is listed in "+cls+
					" class>>toolNames but not registered in "+cls+">>registerOn:")
			}
		}
	}
}

package gsmodel

// What reflection shows of the kernel where public evidence gives it: the category of a kernel
// method and the globals it refers to. A kernel method the table does not name is in category
// kernel (the model's; no evidence gives GemStone's), and a native one has no source
// (sourceCodeAt: and sourceString refuse by name rather than answer a text a stone never has).

type kernelFact struct {
	class, selector, category string
	refs                      []string // globals the method refers to
	evidence                  string
}

var kernelFacts = []kernelFact{
	{"Array", "add:", "Adding", nil, "GemTalk/mcp_server McpToolTest.gs testFindImplementors (3.7.5: Array>>add:  [Adding])"},
	{"Set", "add:", "Adding", nil, "GemTalk/mcp_server McpToolTest.gs testFindImplementors (3.7.5: Set>>add:  [Adding])"},
	{"Boolean", "&", "Logical Operations", []string{"Boolean"}, "GemTalk/mcp_server McpToolTest.gs testFindReferencesTo (3.7.5: Boolean>>&  [Logical Operations] refers to Boolean)"},
	{"Boolean", "|", "Logical Operations", []string{"Boolean"}, "GemTalk/mcp_server McpToolTest.gs testFindReferencesTo (3.7.5: Boolean>>|  [Logical Operations] refers to Boolean)"},
}

// applyKernelFacts gives the kernel methods the table names their category and references.
func (img *Image) applyKernelFacts(s *Session) {
	for _, f := range kernelFacts {
		cls := img.kernelClass(f.class)
		m := s.methodAt(cls, f.selector)
		if m == nil {
			panic("gsmodel: kernelFacts names " + f.class + ">>" + f.selector + ", which the kernel lacks")
		}
		m.category = f.category
		s.setCategory(cls, f.selector, f.category)
		for _, r := range f.refs {
			if a := s.dictAssoc(img.globals, s.symbol(r)); a != nil {
				m.globals = append(m.globals, a)
			}
		}
	}
}

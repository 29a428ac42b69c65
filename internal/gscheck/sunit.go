package gscheck

// The SUnit trap (gemstone-smalltalk.md s7): a TestCase subclass that defines a helper with the
// name of a framework method (run:, run, debug, ...) shadows it, and the suite then reports
// "0 run" with no error. setUp and tearDown are meant to be overridden and are not listed.
var sunitFrameworkSelectors = map[string]bool{
	"run": true, "run:": true, "debug": true, "runCase": true, "performTest": true,
	"selector": true, "setTestSelector:": true, "assert:": true, "assert:equals:": true,
	"assert:description:": true, "deny:": true, "deny:description:": true, "should:raise:": true,
	"shouldnt:raise:": true, "signalFailure:": true, "resources": true,
}

var sunitRoots = map[string]bool{"TestCase": true, "GsTestCase": true}

func (c *checker) checkSUnitShadowing() {
	for _, b := range c.bodies {
		if b.Kind != bodyMethod || b.Meta || !sunitFrameworkSelectors[b.Selector] || !c.isTestCase(b.Class) {
			continue
		}
		c.report(b.File, b.CmdLine, b.where()+" shadows SUnit's own #"+b.Selector+
			" (the suite would silently run nothing; rename the helper)")
	}
}

// isTestCase tells whether cls descends from TestCase along superclasses defined in the tree.
func (c *checker) isTestCase(cls string) bool {
	seen := map[string]bool{}
	for def := c.tree.classes[cls]; def != nil && !seen[def.Name]; def = c.tree.classes[def.Super] {
		seen[def.Name] = true
		if sunitRoots[def.Super] {
			return true
		}
	}
	return false
}

package gscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkFiles writes each named source into a temporary tree and checks it; findings name
// files by their base name.
func checkFiles(t *testing.T, sources map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range sources {
		// Each class gets its comment and category doits at the end (where they shift no line
		// numbers), so these tests exercise only what they name.
		for _, m := range classNameInDefinition.FindAllStringSubmatch(src, -1) {
			src += "doit\n" + m[1] + " comment: 'A test class.'\n%\ndoit\n" + m[1] + " category: 'Fx'\n%\n"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := runCheck(t, []string{dir})
	var out []string
	for _, f := range res.Findings {
		out = append(out, strings.ReplaceAll(f.String(), dir+string(filepath.Separator), ""))
	}
	return out
}

var classNameInDefinition = regexp.MustCompile(`subclass: '(\w+)'`)

func definitionDoit(super, name, ivars, classVars, classInstVars string) string {
	return "doit\n" + super + " subclass: '" + name + "'\n  instVarNames: #(" + ivars + ")\n  classVars: #(" +
		classVars + ")\n  classInstVars: #(" + classInstVars + ")\n  poolDictionaries: #()\n  inDictionary: UserGlobals\n  options: #()\n%\n"
}

func assertSame(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("findings:\n  %v\nwant:\n  %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("finding %d:\n  %s\nwant:\n  %s", i, got[i], want[i])
		}
	}
}

// Inherited variables resolve along ancestors in the tree and in the kernel inventory.
func TestInheritedVariablesResolve(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Base.gs": definitionDoit("Object", "Base", "a", "Shared", "made") +
			"method: Base\na\n  ^a\n%\n",
		"Sub.gs": definitionDoit("Base", "Sub", "b", "", "") +
			// instance side: own ivar, inherited ivar, inherited class variable
			"method: Sub\nsum\n  ^a + b + Shared size\n%\n" +
			// class side: inherited class-instance variable and the class variable
			"classmethod: Sub\nmade\n  ^made ifNil: [Shared]\n%\n",
		"SubTest.gs": definitionDoit("TestCase", "SubTest", "", "", "") +
			// a kernel ancestor's ivar, from the inventory (ivar TestCase testSelector)
			"method: SubTest\nwhich\n  ^testSelector\n%\n",
	})
	assertSame(t, got)
}

func TestClassInstanceVariableIsNotVisibleOnTheInstanceSide(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("Object", "Foo", "", "", "count") + "method: Foo\ncount\n  ^count\n%\n",
	})
	assertSame(t, got, "Foo.gs:12: undeclared variable count in Foo>>count")
}

func TestBlockParameterIsScopedToItsBlock(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("Object", "Foo", "", "", "") +
			"method: Foo\nleak\n  #(1 2) do: [:each | | t | t := each].\n  ^each\n%\n",
	})
	assertSame(t, got, "Foo.gs:13: undeclared variable each in Foo>>leak")
}

func TestGemStoneRefusalsAreReported(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("Object", "Foo", "a", "", "") +
			"method: Foo\nshadow: a\n  ^a\n%\n" + // line 10-12: argument named like an ivar
			"classmethod: Foo\nmake\n  | name |\n  name := 'x'.\n  ^name\n%\n" + // 14: class-side temp `name`
			"method: Foo\nassign: x\n  x := 3.\n  ^[:y | y := 4] value: x\n%\n" + // 21, 22
			"method: Foo\ntwice\n  | t t |\n  ^self\n%\n" + // 26
			"method: Foo\nshadow: b\n  ^b\n%\n", // 30: same selector again
	})
	assertSame(t, got,
		"Foo.gs:11: argument a in Foo>>shadow: has the name of an instance variable of Foo (GemStone refuses it: [1030] variable has already been declared)",
		"Foo.gs:16: temporary name in Foo class>>make has the name of an instance variable of Foo class (GemStone refuses it: [1030] variable has already been declared)",
		"Foo.gs:22: cannot assign to argument x in Foo>>assign:",
		"Foo.gs:23: cannot assign to block parameter y in Foo>>assign:",
		"Foo.gs:27: temporary t is already declared as temporary in Foo>>twice",
		"Foo.gs:30: Foo>>shadow: is defined twice (first at Foo.gs:10); the later one wins")
}

func TestUndefinedClassesAreReported(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("NoSuchSuper", "Foo", "", "", "") + "method: Nowhere\nx\n  ^1\n%\n",
	})
	assertSame(t, got,
		"Foo.gs:2: undefined global NoSuchSuper in `doit` at line 1: not defined in the scanned tree nor in the kernel inventory",
		"Foo.gs:10: `method: Nowhere` names a class defined neither in the scanned tree nor in the kernel inventory")
}

func TestExtensionMethodOnAKernelClassIsAccepted(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Ext.gs": "category: 'mcp extensions'\nmethod: Object\nmcpDescribe\n  ^self printString\n%\n",
	})
	assertSame(t, got)
}

func TestTestCaseHelperNamedLikeAFrameworkMethodIsReported(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"FooTest.gs": definitionDoit("GsTestCase", "FooTest", "", "", "") +
			"method: FooTest\nsetUp\n  ^self\n%\n" + // overriding setUp is the point: no finding
			"method: FooTest\nrun: aRequest\n  ^aRequest\n%\n" + // line 14
			"method: FooTest\ntestOne\n  self assert: (self run: 1) = 1\n%\n",
	})
	assertSame(t, got, "FooTest.gs:14: FooTest>>run: shadows SUnit's own #run: (the suite would silently run nothing; rename the helper)")
}

func TestLoneQuoteInACommentArgumentInsideALargerDoitIsTheTrap(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": definitionDoit("Object", "Foo", "", "", "") +
			"doit\nFoo category: 'Fx';\n  comment: 'it''s fine,\n    but it's not';\n  yourself\n%\n" +
			// a legitimate cascade after a comment is no trap
			"doit\nFoo comment: 'fine'; category: 'Fx'\n%\n",
	})
	assertSame(t, got, "Foo.gs:13: a ' inside the class comment of Foo ends the string here; double it ('') (silent file-in trap)")
}

func TestBrokenClassDefinitionIsOneFindingNotACascade(t *testing.T) {
	got := checkFiles(t, map[string]string{
		"Foo.gs": "doit\nObject subclass: 'Foo'\n  instVarNames: #( a\n  inDictionary: UserGlobals\n%\n" +
			"method: Foo\na\n  ^a\n%\n",
		"Bar.gs": definitionDoit("Object", "Bar", "", "", "") + "method: Bar\nfoo\n  ^Foo new a\n%\n",
	})
	// Foo's comment and category doits (appended by checkFiles) and Bar's use of Foo find it.
	assertSame(t, got, "Foo.gs:3: syntax error in `doit` at line 1: a literal array opened here is never closed")
}

// A tool handler is found along superclasses and in cascades.
func TestToolHandlersResolveThroughInheritance(t *testing.T) {
	declare := func(name, handler string) string {
		return "  aRegistry add: (Tool name: '" + name + "' description: 'd' schema: #() handler: " + handler + ").\n"
	}
	got := checkFiles(t, map[string]string{
		"Tool.gs": definitionDoit("Object", "Tool", "", "", "") +
			"classmethod: Tool\nname: n description: d schema: s handler: h\n  ^self new\n%\n",
		"Base.gs": definitionDoit("Object", "Base", "", "", "") +
			"method: Base\ncapped: x\n  ^x\n%\n",
		"Sub.gs": definitionDoit("Base", "Sub", "", "", "") +
			"category: 'registration'\nmethod: Sub\nregisterOn: aRegistry\n" +
			declare("one", "[:args | self capped: (self one: args)]") + // inherited and own
			declare("two", "[:args | self two: args; printString]") + // a cascade, the second kernel
			"  ^aRegistry\n%\n" +
			"category: 'tools'\nmethod: Sub\none: args\n  ^1\n%\n" +
			"category: 'tools'\nmethod: Sub\ntwo: args\n  ^2\n%\n",
		"SubSub.gs": definitionDoit("Sub", "SubSub", "", "", "") +
			"category: 'tools'\nmethod: SubSub\none: args\n  ^11\n%\n" + // overrides a declared handler
			"category: 'tools'\nmethod: SubSub\nthree: args\n  ^3\n%\n", // line 16: handles nothing
		"Leaf.gs": definitionDoit("Sub", "Leaf", "", "", "") +
			"category: 'registration'\nmethod: Leaf\nregisterOn: aRegistry\n  super registerOn: aRegistry.\n" +
			declare("four", "[:args | self four: args]") + "  ^aRegistry\n%\n" +
			"category: 'tools'\nmethod: Leaf\ntwo: args\n  ^22\n%\n" + // overrides Sub's, declared there
			"category: 'tools'\nmethod: Leaf\nfour: args\n  ^4\n%\n",
	})
	assertSame(t, got, "SubSub.gs:16: SubSub>>three: is in category 'tools' (a tool handler) but no tool declared in Sub>>registerOn: calls it")
}

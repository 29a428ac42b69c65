package gsmodel

import (
	"strings"
	"testing"
)

// kernelCase is a doit, the start of what it prints (or of its unhandled error), and the public
// evidence that a 3.7.x stone answers so.
type kernelCase struct{ src, want, evidence string }

func runKernelCases(t *testing.T, s *Session, cases []kernelCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s\n  got  %s\n  want %s\n  (evidence: %s)", c.src, got, c.want, c.evidence)
			}
		})
	}
}

// The classes and selectors public 3.7 code compiles against exist; a class the model does not
// model is refused by name when used, never missing.
func TestTheKernelHasTheClassesPublicCodeNames(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	defineAlpha := "Object subclass: 'Alpha' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals"
	runKernelCases(t, s, []kernelCase{
		{"System myUserProfile symbolList names", "anArray( #UserGlobals, #Globals, #Published)",
			"GemTalk/mcp_server docs/GemStone_Notes.md (Dictionaries: UserGlobals, Globals, Published)"},
		{"Object subclass: 'Pub' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: Published options: #(). (Published at: #Pub) name", "#Pub",
			"GemTalk/mcp_server McpToolTest.gs (inDictionary: Published)"},
		{"(Integer subclasses collect: [:c | c name]) asArray", "anArray( #LargeInteger, #SmallInteger)",
			"GemTalk/mcp_server McpToolTest.gs testGetClassHierarchy (3.7.5)"},
		{"(2 raisedTo: 100) class == LargeInteger & ((2 raisedTo: 100) negated class == LargeInteger)", "true",
			"a GCI binding's test_translating_py_int_to_gem_large_integers (self class == LargeInteger)"},
		{"(" + defineAlpha + ") name", "#Alpha",
			"GemTalk/Jasper client/src/queries/__tests__/methodSearch.integration.test.ts (no options:)"},
		{"| a | a := {}. a add: 1; add: #x. a", "anArray( 1, #x)",
			"GemTalk/Rowan copy of Class>>_subclass:...options: (ivNames := {} ... ivNames add:)"},
		{"| s | s := String new. s add: 'options: #('; add: $ ; add: #dbTransient; add: $). s", "'options: #( dbTransient)'",
			"GemTalk/Rowan Class>>_rwOptionsForDefinition"},
		{"GsSecureSocket superclass == GsSocket", "true", "GemTalk/mcp_server docs/GemStone_Notes.md (GsSecureSocket overrides acceptTimeoutMs:)"},
		{"Semaphore forMutualExclusion", "ERROR 1 the model refuses: Semaphore>>#forMutualExclusion",
			"GemTalk/mcp_server McpServer.gs (a class the model does not model is refused by name)"},
		{"GsSecureSocket new readWillNotBlockWithin: 10", "ERROR 1 the model refuses: GsSecureSocket>>#readWillNotBlockWithin:",
			"the TLS overrides are not modelled, so GsSocket's plaintext methods are refused"},
		{"GsTsExternalSession newDefaultForGemHost: 'localhost'", "ERROR 1 the model refuses: GsTsExternalSession",
			"GemTalk/mcp_server McpSession.gs"},
		{"Time millisecondsElapsedTime: [nil]", "ERROR 1 the model refuses: Time", "GemTalk/Grail benchmarks/PiTestCase.gs"},
		{"DateTime now", "ERROR 1 the model refuses: DateTime", "GemTalk/Rowan (result timeStamp: DateTime now)"},
		{"{SmallDouble. BinaryFloat. TestAsserter} size", "3", "GemTalk/Grail smalltalk; GemTalk/mcp_server GemStone_Notes.md (SUnit)"},
	})
	// A method naming each of them compiles.
	src := "names ^{Semaphore. GsSecureSocket. GsTsExternalSession. Time. DateTime. SmallDouble. BinaryFloat. LargeInteger. TestAsserter. SUnitTest. ResumableTestFailure. Published}"
	if got := run(t, s, "(Alpha compileMethod: '"+src+"' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0) selector"); got != "#names" {
		t.Errorf("a method naming the classes: %s", got)
	}
	// A user made on first login has the same symbol list.
	other, _ := img.Login("SomeoneElse")
	if got := run(t, other, "System myUserProfile symbolList names"); got != "anArray( #UserGlobals, #Globals, #Published)" {
		t.Errorf("a new user's symbol list: %s", got)
	}
}

// SUnit as a pristine 3.7 extent ships it.
func TestSUnitAsShipped(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	for _, src := range []string{
		"GsTestCase subclass: 'AbstractProbe' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
		"AbstractProbe class compileMethod: 'isAbstract ^self == AbstractProbe' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0",
		"AbstractProbe subclass: 'ProbeOne' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
		"AbstractProbe subclass: 'ProbeTwo' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
		"ProbeOne compileMethod: 'testOne self assert: true' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0",
		"ProbeTwo compileMethod: 'testTwo self assert: false' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0",
	} {
		run(t, s, src)
	}
	runKernelCases(t, s, []kernelCase{
		{"| r | r := AbstractProbe suite run. {r runCount. r passedCount. r failureCount}", "anArray( 2, 1, 1)",
			"GemTalk/Jasper querySunit.integration.test.ts (an abstract TestCase's suite cascades into its concrete subclasses)"},
		{"ProbeOne suite tests size", "1", "a concrete class's suite holds its own tests"},
		{"(ProbeTwo selector: #testTwo) printString", "'ProbeTwo debug: #testTwo'",
			"gemstone-smalltalk.md s7 (JAS: printString is 'Cls debug: #testFoo', verified via probe)"},
		{"| r | r := SUnitTest suite run. r passedCount > 0 & (r failureCount + r errorCount = 0)", "true",
			"GemTalk/mcp_server McpToolTest.gs (SUnitTest>>testAssert passes; no failing tests in SUnitTest)"},
		{"ResumableTestFailure superclass == TestFailure", "true",
			"GemTalk/mcp_server docs/GemStone_Notes.md (should:raise: signals ResumableTestFailure)"},
		{"(ClassOrganizer new allSubclassesOf: TestCase) includes: SUnitTest", "true",
			"GemTalk/mcp_server McpToolTest.gs testListTestClasses"},
	})
}

// Reflection sees the kernel: ClassOrganizer answers kernel methods, with the categories and
// references the evidence gives, and a native method says it has no source.
func TestReflectionSeesTheKernel(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	mcp := "GemTalk/mcp_server McpToolTest.gs on 3.7.5"
	runKernelCases(t, s, []kernelCase{
		{"((ClassOrganizer new implementorsOf: #add:) collect: [:m | m printString]) includes: 'Array>>add:'", "true", mcp + " testFindImplementors"},
		{"((ClassOrganizer new implementorsOf: #add:) collect: [:m | m printString]) includes: 'Set>>add:'", "true", mcp + " testFindImplementors"},
		{"{Array categoryOfSelector: #add:. Set categoryOfSelector: #add:}", "anArray( #Adding, #Adding)", mcp + " testFindImplementors"},
		{"((ClassOrganizer new referencesToObject: Boolean) collect: [:m | m printString]) includes: 'Boolean>>&'", "true", mcp + " testFindReferencesTo"},
		{"{Boolean categoryOfSelector: #&. Boolean categoryOfSelector: #|}", "anArray( #'Logical Operations', #'Logical Operations')", mcp + " testFindReferencesTo"},
		{"((ClassOrganizer new sendersOf: #=) at: 1) size > 10", "true", mcp + " testFindSendersTruncated (over 200 on a stone)"},
		{"(Array compiledMethodAt: #add:) sourceString", "ERROR 1 the model refuses: the source of the native kernel method Array>>add:", "the model has no source for a native method"},
		{"(Collection sourceCodeAt: #isEmpty) size > 0", "true", "a kernel method written in Smalltalk shows the model's source"},
	})
}

// A gem environment variable the session set reads back, and only in that session; one it did not
// set is refused by name, since a gem's inherited environment is not modelled.
func TestAGemEnvironmentVariableIsTheSessionsOwn(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	other, _ := img.Login("DataCurator")
	evidence := "GemTalk/Grail scripts/runTests.gs (sets GRAIL_DIR, then reads it back)"
	runKernelCases(t, s, []kernelCase{
		{"System gemEnvironmentVariable: 'GRAIL_DIR' put: '/opt/Grail'. System gemEnvironmentVariable: 'GRAIL_DIR'", "'/opt/Grail'", evidence},
		{"System gemEnvironmentVariable: 'HOME'", "ERROR 1 the model refuses: reading the gem environment variable \"HOME\"", evidence},
	})
	runKernelCases(t, other, []kernelCase{
		{"System gemEnvironmentVariable: 'GRAIL_DIR'", "ERROR 1 the model refuses", evidence},
	})
}

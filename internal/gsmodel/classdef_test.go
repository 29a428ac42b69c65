package gsmodel

import (
	"strings"
	"testing"
)

const defineFoo = "Object subclass: 'Foo' instVarNames: #(a) classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()"

// A class definition a stone refuses is refused before anything changes, with the stone's error
// where the evidence names it and the model's refusal where it does not.
func TestClassDefinitionsAStoneRefuses(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	run(t, s, defineFoo)
	cases := []struct{ name, src, want string }{
		// GemTalk/Grail smalltalk/ClassDefAst.gs: a name declared twice is rtErrAddDupInstvar.
		{"an instance variable declared twice",
			"Object subclass: 'Bar' instVarNames: #(x x) classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 0 rtErrAddDupInstvar"},
		// GemTalk/Grail FlaskScaffoldingTestCase>>testSubclassRedeclaresInstvar.
		{"an instance variable the superclass declares",
			"Foo subclass: 'Bar' instVarNames: #(a) classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 0 rtErrAddDupInstvar"},
		// GemTalk/Grail ClassDefAst.gs: classInstVars: rejects a name the parent metaclass has.
		{"a class-instance variable Class declares",
			"Object subclass: 'Bar' instVarNames: #() classVars: #() classInstVars: #(name) poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 0 rtErrAddDupInstvar"},
		// GemTalk/Rowan's copy of Class>>_subclass:...options: signals ImproperOperation.
		{"a class-instance variable declared twice",
			"Object subclass: 'Bar' instVarNames: #() classVars: #() classInstVars: #(k k) poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 2717 array of new class instanceVariables contains a duplicate #k"},
		{"a class name that is no identifier",
			"Object subclass: 'Bad Name' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 1 the model refuses: the class name \"Bad Name\""},
		{"self as an instance variable",
			"Object subclass: 'Bar' instVarNames: #(self) classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()",
			"ERROR 1 the model refuses: the instance variable name \"self\""},
		{"an unknown option",
			"Object subclass: 'Bar' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #(bogus)",
			"ERROR 1 the model refuses: the class option #bogus"},
	}
	for _, c := range cases {
		if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\n  got  %s\n  want %s", c.name, got, c.want)
		}
		if got := run(t, s, "(UserGlobals includesKey: #Bar) | (UserGlobals includesKey: #'Bad Name')"); got != "false" {
			t.Errorf("%s: the refused definition bound a class", c.name)
		}
	}
	// The options a stone documents are taken (GemTalk/Rowan).
	ok := "Object subclass: 'Bar' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #(#noInheritOptions #instancesInvariant #logCreation)"
	if got := run(t, s, "("+ok+") name"); got != "#Bar" {
		t.Errorf("documented options: got %s", got)
	}
}

// The definition names the dictionary the class lives in, by the dictionary's own name
// (SymbolDictionary>>name is keyAtValue: self; GemTalk/mcp_server docs/GemStone_Notes.md), as
// GemTalk/mcp_server's file-outs print inDictionary: Published and inDictionary: Mcp.
func TestADefinitionNamesTheClassDictionary(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	run(t, s, "System myUserProfile insertDictionary: (SymbolDictionary new name: #Elsewhere; yourself) at: 1")
	run(t, s, "Object subclass: 'Far' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: Elsewhere options: #()")
	if got := run(t, s, "Far definition"); !strings.Contains(got, "inDictionary: Elsewhere") {
		t.Errorf("Far definition: %s", got)
	}
	if got := run(t, s, "Array definition"); !strings.Contains(got, "inDictionary: Globals") {
		t.Errorf("Array definition: %s", got)
	}
}

// Creating a subclass does not write its superclass (a stone writes it only when the superclass
// keeps a subclasses set, the #modifiable option: GemTalk/Rowan's copy of
// Class>>_subclass:...options:), so two sessions creating unrelated classes under one superclass,
// in different dictionaries, both commit; subclasses follows the symbol list, as an unbound class
// leaves TestCase subclasses on a stone (GemTalk/mcp_server docs/GemStone_Notes.md).
func TestUnrelatedSubclassesInTwoSessionsDoNotConflict(t *testing.T) {
	img, _ := newTestImage(t)
	a, _ := img.Login("DataCurator")
	b, _ := img.Login("DataCurator")
	run(t, a, "System myUserProfile insertDictionary: (SymbolDictionary new name: #One; yourself) at: 1. System myUserProfile insertDictionary: (SymbolDictionary new name: #Two; yourself) at: 1. System commitTransaction")
	run(t, b, "System abortTransaction")
	run(t, a, "Object subclass: 'InOne' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: One options: #()")
	run(t, b, "Object subclass: 'InTwo' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: Two options: #()")
	if got := run(t, a, "System commitTransaction"); got != "true" {
		t.Fatalf("a's commit: %s", got)
	}
	if got := run(t, b, "System commitTransaction"); got != "true" {
		t.Fatalf("b's commit: %s", got)
	}
	if got := run(t, b, "(Object subclasses includes: InOne) & (Object subclasses includes: InTwo) & (Object class subclasses includes: InTwo class)"); got != "true" {
		t.Errorf("Object subclasses after both commits: %s", got)
	}
	if got := run(t, b, "Two removeKey: #InTwo. Object subclasses includes: (One at: #InOne)"); got != "true" {
		t.Errorf("InOne after unbinding InTwo: %s", got)
	}
	if got := run(t, b, "(Object subclasses collect: [:c | c name]) includes: #InTwo"); got != "false" {
		t.Errorf("an unbound class is still a subclass: %s", got)
	}
}

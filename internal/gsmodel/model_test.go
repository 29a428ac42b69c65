package gsmodel

import (
	"fmt"
	"strings"
	"testing"
)

func run(t *testing.T, s *Session, src string) string {
	t.Helper()
	v, errText, errNum, ok := s.Execute(src)
	if !ok {
		return "ERROR " + itoa(errNum) + " " + errText
	}
	return s.safePrint(v)
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// Each case is a doit and what printString of its value is, or the start of the unhandled
// error. They pin the semantics the worker's Smalltalk relies on.
func TestSemantics(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	cases := []struct{ name, src, want string }{
		{"arithmetic", "3 + 4 * 2", "14"},
		{"large integers", "(2 raisedTo: 100) printString size", "31"},
		{"floored division", "-7 // 2", "-4"},
		{"floored modulo", "-7 \\\\ 2", "1"},
		{"a Fraction is refused", "7 / 2", "ERROR 1 the model refuses"},
		{"cascade", "OrderedCollection new add: 1; add: 2; yourself", "anOrderedCollection( 1, 2)"},
		{"non-local return", "#(1 2 3) detect: [:x | x > 1]", "2"},
		{"handler runs before unwinding", "| log | log := OrderedCollection new. [[Error signal: 'x'] ensure: [log add: #ensure]] on: Error do: [:e | log add: #handler]. log", "anOrderedCollection( #handler, #ensure)"},
		{"resume answers from signal", "[(Notification signal: 'n') + 1] on: Notification do: [:e | e resume: 41]", "42"},
		{"an Error is not resumable", "[Error signal: 'x'] on: Error do: [:e | e resume: 1]", "ERROR 2717"},
		{"retry", "| n | n := 0. [n := n + 1. n < 3 ifTrue: [Error signal: 'again']. n] on: Error do: [:e | e retry]", "3"},
		{"pass reaches the outer handler", "[[Error signal: 'x'] on: Error do: [:e | e pass]] on: Error do: [:e | e return: #outer]", "#outer"},
		{"outer then resume", "[[(Warning signal: 'w') + 1] on: Warning do: [:e | e outer + 10]] on: Warning do: [:e | e resume: 5]", "15"},
		{"an unhandled Notification answers nil", "Notification signal: 'n'", "nil"},
		{"an exception set", "[1/0] on: MessageNotUnderstood, ZeroDivide do: [:e | e class name]", "#ZeroDivide"},
		{"signal inside a handler goes outward", "[[Error signal: 'a'] on: Error do: [:e | ZeroDivide new signal: 'b']] on: ZeroDivide do: [:e | e messageText]", "'b'"},
		{"ifCurtailed runs on an unwind", "| log | log := OrderedCollection new. [[Error signal] ifCurtailed: [log add: 1]] on: Error do: [:e | e return: 0]. log", "anOrderedCollection( 1)"},
		{"a return from a block whose home is active", "[:x | ^x] value: 3", "3"},
		{"MessageNotUnderstood", "3 frobnicate", "ERROR 2010 a MessageNotUnderstood occurred (error 2010), a SmallInteger does not understand  #frobnicate"},
		{"the description of a ZeroDivide", "[1/0] on: ZeroDivide do: [:e | e messageText isNil]", "true"},
		{"ByteArray asString is its printString", "#[104 105] asString", "'aByteArray( 104, 105)'"},
		{"a Unicode7 compared with a String", "'abc' decodeFromUTF8 = 'abc'", "ERROR 2718"},
		{"a String compared with a Symbol is unattested", "'abc' = #abc", "ERROR 1 the model refuses"},
		{"String class new:withAll: is missing", "String new: 2 withAll: $a", "ERROR 2010"},
		{"Array class new:withAll:", "Array new: 2 withAll: 7", "anArray( 7, 7)"},
		{"asJson keeps the low 16 bits of an astral code point", "(String with: (Character codePoint: 16r1F600)) asJson", "'\"\\uF600\"'"},
		{"a surrogate code point", "Character codePoint: 16rD800", "ERROR 2723"},
		{"JsonParser", "(JsonParser parse: '{\"a\":[1,2.5,true,null]}') printString", "'aDictionary( ''a''->anArray( 1, 2.5, true, nil))'"},
		{"includesString: ignores case", "'Hello' includesString: 'hell'", "true"},
		{"decodeFromUTF8 of a ByteArray", "#[195 169] decodeFromUTF8 class name", "#Unicode16"},
		{"a malformed UTF-8 byte", "#[195] decodeFromUTF8", "ERROR 2718"},
		{"a write stream widens", "(WriteStream on: String new) nextPut: (Character codePoint: 300); contents", "'" + string(rune(300)) + "'"},
		{"Utf8 has no at:put:", "'x' encodeAsUTF8 at: 1 put: 65", "ERROR 2010"},
		{"a shadowed temporary is a CompileWarning", "| w | w := 0. [| w | w] value. [[:x | | y | y] value: 1] value. 'ok'", "'ok'"},
		{"an undefined global is a CompileError", "NoSuchGlobal new", "ERROR 1001"},
		{"runaway block recursion ends the execution, not the model", "| b | b := nil. b := [:n | b value: n + 1]. b value: 0", "ERROR 3139"},
		{"printing a cycle ends the execution, not the model", "| a | a := Array new: 1. a at: 1 put: a. a printString size", "ERROR 3139"},
		{"AlmostOutOfStack can be handled", "[| b | b := nil. b := [:n | b value: n + 1]. b value: 0] on: AlmostOutOfStack do: [:e | e return: #caught]", "#caught"},
	}
	for _, c := range cases {
		got := run(t, s, c.src)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s\n  got  %s\n  want %s", c.name, c.src, got, c.want)
		}
	}
}

// Defining a class, compiling methods into it and redefining it: one step per subtest, in order
// on one session, each a doit and the start of its printString or error.
func TestDefiningAClass(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	steps := []struct{ src, want string }{
		{"Object subclass: 'Foo' instVarNames: #(a) classVars: #(Count) classInstVars: #(made) poolDictionaries: #() inDictionary: UserGlobals options: #()", "Foo"},
		{"Foo compileMethod: 'a ^a' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0", "Foo>>a"},
		{"Foo compileMethod: 'a: x a := x' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0", "Foo>>a:"},
		{"Foo class compileMethod: 'bump made := (made ifNil: [0]) + 1. Count := made. ^Count' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0", "Foo class>>bump"},
		{"Foo bump. Foo bump", "2"},
		{"(Foo new a: 5; yourself) a", "5"},
		{"Foo classVarNames", "anArray( #Count)"},
		{"(('abc' copyFrom: 1 to: 0) , 'x') size", "1"},
		{"Transcript show: 'hi'. (SessionTemps current at: #TranscriptStream_SessionStream) contents", "'hi'"},
		{"[Foo compileMethod: 'b ^zork' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0] on: CompileError do: [:e | (e errorDetails first) first]", "1031"},
		{"Foo compileMethod: 'b ^zork' dictionaries: System myUserProfile symbolList category: 'x'", "anArray( anArray( 1031"},
		{"(ClassOrganizer new implementorsOf: #a) size", "1"},
		{"Foo compileMethod: 'blk ^[:x | ^x]' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0. #done", "#done"},
		{"(Foo new blk) value: 3", "ERROR 2006"},
		{"Object subclass: 'Foo' instVarNames: #(a) classVars: #(Count) classInstVars: #(made) poolDictionaries: #() inDictionary: UserGlobals options: #()", "Foo"},
		{"Foo classHistory size", "1"},
		{"Object subclass: 'Foo' instVarNames: #(a b) classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()", "Foo"},
		{"Foo classHistory size", "2"},
		{"Foo selectors size", "0"},
		{"(ClassOrganizer new implementorsOf: #a) size", "0"},
	}
	for i, st := range steps {
		t.Run(fmt.Sprintf("step %02d", i+1), func(t *testing.T) {
			if got := run(t, s, st.src); !strings.HasPrefix(got, st.want) {
				t.Errorf("%s\n  got  %s\n  want %s", st.src, got, st.want)
			}
		})
	}
}

// A commit that changes an object in another session's notify set signals it there, and in the
// committing session's own (the Programmer's Guide: all changes, including one's own); the
// signal is read once, does not move the view, and a transient object is refused. A compile
// changes the method dictionary, not the class, so only the dictionary is signaled.
func TestNotifySetsAreSignaledByCommits(t *testing.T) {
	img, _ := newTestImage(t)
	a, _ := img.Login("DataCurator")
	b, _ := img.Login("DataCurator")
	runSessionSteps(t, a, []sessionStep{
		{a, "Object subclass: 'Watched' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #(). System commitTransaction", "true"},
		{b, "System abortTransaction", "nil"},
		{b, "System addAllToNotifySet: (Array with: Watched with: (Watched persistentMethodDictForEnv: 0)). System signaledObjects size", "0"},
		{a, "System addAllToNotifySet: (Array with: (Watched persistentMethodDictForEnv: 0)). Watched compileMethod: 'x ^1' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0. System commitTransaction", "true"},
		{b, "(System signaledObjects collect: [:each | each == (Watched persistentMethodDictForEnv: 0)]) asArray", "anArray( true)"},
		{b, "System signaledObjects size", "0"},
		{b, "Watched includesSelector: #x", "false"},
		{a, "System signaledObjects size", "1"},
		{b, "System addAllToNotifySet: (Array with: Object new)", "ERROR 1 the model refuses"},
	})
}

// Sessions see each other's work only through commits, and a write-write conflict refuses
// the later commit.
func TestTransactionsBetweenSessions(t *testing.T) {
	img, _ := newTestImage(t)
	a, _ := img.Login("DataCurator")
	b, _ := img.Login("DataCurator")
	runSessionSteps(t, a, []sessionStep{
		{a, "UserGlobals at: #Shared put: 1. System needsCommit", "true"},
		{b, "UserGlobals at: #Shared ifAbsent: [#absent]", "#absent"},
		{a, "System commitTransaction", "true"},
		{b, "UserGlobals at: #Shared ifAbsent: [#absent]", "#absent"},
		{b, "(System descriptionOfSession: System session) at: 16", "1"},
		{b, "System abortTransaction. UserGlobals at: #Shared", "1"},
		{b, "(System descriptionOfSession: System session) at: 16", "0"},
		{a, "UserGlobals at: #Shared put: 2. System needsCommit", "true"},
		{b, "UserGlobals at: #Shared put: 3. System needsCommit", "true"},
		{a, "System commitTransaction", "true"},
		{b, "System commitTransaction", "false"},
		{b, "(System transactionConflicts at: #commitResult)", "#retryFailure"},
		{b, "System continueTransaction", "ERROR 2409"},
		{b, "System abortTransaction. UserGlobals at: #Shared", "2"},
		{a, "Object subclass: 'Bar' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()", "Bar"},
		{a, "Bar compileMethod: 'x ^1' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0. System commitTransaction", "true"},
		{b, "System abortTransaction", "nil"},
		{b, "Bar new x", "1"},
		{a, "Bar compileMethod: 'x ^2' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0. Bar new x", "2"},
		{b, "Bar new x", "1"},
		{a, "System abortTransaction. Bar new x", "1"},
	})
}

// Two sessions compiling different selectors of one class conflict on the class's method
// dictionary and selector set, not on the class; compiles into different classes never conflict
// (GemTalk/mcp_server docs/blind-write-guardrail.md, measurements E, I and J). The method
// dictionary keeps its identity across compiles and commits, which is how the worker names it.
func TestAMethodCompiledInTwoSessionsConflictsOnItsMethodDictionary(t *testing.T) {
	img, _ := newTestImage(t)
	a, _ := img.Login("DataCurator")
	b, _ := img.Login("DataCurator")
	define := "#(#Pair #Other) do: [:n | Object subclass: n instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()]. System commitTransaction"
	compile := func(class, src string) string {
		return class + " compileMethod: '" + src + "' dictionaries: System myUserProfile symbolList category: 'x' environmentId: 0. "
	}
	conflicts := "(System transactionConflicts at: #'Write-Write' ifAbsent: [#()])"
	runSessionSteps(t, a, []sessionStep{
		{a, define, "true"},
		{a, "UserGlobals at: #PairDict put: (Pair persistentMethodDictForEnv: 0). System commitTransaction", "true"},
		{b, "System abortTransaction", "nil"},
		{b, "(Pair persistentMethodDictForEnv: 0) == PairDict", "true"},
		{a, compile("Pair", "x ^1") + "(Pair persistentMethodDictForEnv: 0) == PairDict", "true"},
		{a, "(PairDict at: #x) selector", "#x"},
		{a, "PairDict class name", "#GsMethodDictionary"},
		{b, compile("Pair", "y ^2") + compile("Other", "z ^3") + "Pair includesSelector: #x", "false"},
		{a, "System commitTransaction", "true"},
		{b, "System commitTransaction", "false"},
		{b, conflicts + " size", "2"},
		{b, "(" + conflicts + " detect: [:each | each == PairDict] ifNone: [nil]) notNil", "true"},
		{b, "(" + conflicts + " detect: [:each | each class name = #SymbolSet] ifNone: [nil]) asArray", "anArray( #y)"},
		{b, "(" + conflicts + " detect: [:each | each == Pair or: [each == Other]] ifNone: [nil]) isNil", "true"},
		{b, "System abortTransaction", "nil"},
		{b, compile("Other", "z ^3") + "System commitTransaction", "true"},
		{a, compile("Pair", "w ^4") + "System commitTransaction", "true"},
		{b, "Pair persistentMethodDictForEnv: 1", "ERROR 1 the model refuses"},
	})
}

// sessionStep is one expression run in one of two sessions, and the start of its answer.
type sessionStep struct {
	s         *Session
	src, want string
}

// runSessionSteps runs the steps in order; a step's session is named a when it is a, else b.
func runSessionSteps(t *testing.T, a *Session, steps []sessionStep) {
	t.Helper()
	for i, st := range steps {
		who := "b"
		if st.s == a {
			who = "a"
		}
		if got := run(t, st.s, st.src); !strings.HasPrefix(got, st.want) {
			t.Errorf("step %d (%s) %s\n  got  %s\n  want %s", i, who, st.src, got, st.want)
		}
	}
}

func TestTopazOutput(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	var out strings.Builder
	tz := NewTopaz(s, &out)
	tz.Run("in", "printit\n3 + 4\n%\nrun\n3 zork\n%\nexpectvalue /Class\ndoit\nObject subclass: 'Baz' instVarNames: #() classVars: #() classInstVars: #() poolDictionaries: #() inDictionary: UserGlobals options: #()\n%\ncategory: 'x'\nmethod: Baz\nfoo\n  ^#foo\n%\nprintit\nBaz new foo\n%\nmethod: Baz\nbar\n  ^zork\n%\ncommit\n")
	want := []string{"7", "ERROR 2010 , a MessageNotUnderstood occurred (error 2010), a SmallInteger does not understand  #zork (in:5)",
		"#foo", "ERROR 1031 , compiling Baz: undefined symbol zork (in:21)", "Successful commit"}
	t.Run("prints each result or error", func(t *testing.T) {
		got := strings.Split(strings.TrimSpace(out.String()), "\n")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("topaz output:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
		}
	})
	t.Run("counts the errors", func(t *testing.T) {
		if tz.Errors != 2 {
			t.Errorf("errors = %d, want 2", tz.Errors)
		}
	})
}

func TestGsFileStdoutWritesToTheTopazOutput(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	var out strings.Builder
	NewTopaz(s, &out).Run("in", "run\nGsFile stdout nextPutAll: 'KEY=1'; lf; flush. true\n%\n")
	if out.String() != "KEY=1\n" {
		t.Errorf("output %q", out.String())
	}
}

package gsmodel

import (
	"os"
	"strings"
	"testing"
)

// An empty String is a String like any other, however it was made. Public code that ran on a
// stone relies on it: GemTalk/mcp_server McpRouter.gs hostOfOrigin: answers
// `rest copyFrom: 1 to: cut - 1` with cut = 1 for an origin with no host, and compares it.
func TestEmptyStringsAreWholeStrings(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	empty := map[string]string{
		"copyFrom:to: past the end":  "('abc' copyFrom: 4 to: 3)",
		"copyFrom: 1 to: 0":          "('abc' copyFrom: 1 to: 0)",
		"an empty stream's contents": "(WriteStream on: String new) contents",
		"upToEnd at the end":         "((ReadStream on: 'abc') upToEnd; upToEnd)",
		"upTo: the first element":    "(ReadStream on: 'abc') upTo: $a",
		"upToEnd of an empty stream": "(ReadStream on: '') upToEnd",
		"an empty concatenation":     "'' , ''",
	}
	for name, src := range empty {
		checks := []struct{ expr, want string }{
			{"(" + src + ") , 'xyz'", "'xyz'"},
			{"'xyz' , (" + src + ")", "'xyz'"},
			{"(Dictionary new at: '' put: #found; yourself) at: (" + src + ") ifAbsent: [#missing]", "#found"},
			{"(WriteStream on: (" + src + ")) nextPutAll: 'q'; contents", "'q'"},
			{"(" + src + ") size", "0"},
			{"(" + src + ") isEmpty", "true"},
			{"(" + src + ") = ''", "true"},
		}
		for _, c := range checks {
			if got := run(t, s, c.expr); got != c.want {
				t.Errorf("%s: %s\n  got  %s\n  want %s", name, c.expr, got, c.want)
			}
		}
	}
}

// A runaway resource in one execution ends that execution with an error naming the model's
// limit; the process, the session and the next execution go on.
func TestARunawayResourceEndsTheExecutionNotTheModel(t *testing.T) {
	img, _ := newTestImage(t)
	img.SetMemoryLimit(256 << 20)
	s, _ := img.Login("DataCurator")
	cases := []struct{ name, src, want string }{
		{"an endless device read whole", "(GsFile openReadOnServer: '/dev/zero') contents size", "ERROR 1 " + resourceLimitPrefix + "the contents of a GsFile"},
		{"a huge read", "(GsFile openReadOnServer: '/dev/zero') next: 1000000000000", "ERROR 1 " + resourceLimitPrefix + "a GsFile read"},
		{"a huge new:", "(Array new: 3000000000000) size", "ERROR 1 " + resourceLimitPrefix + "an object of"},
		{"a negative new:", "(String new: -1) size", "ERROR 1 the model refuses: new: -1"},
		{"a String that doubles forever", "| s | s := 'ab'. 1 to: 40 do: [:i | s := s , s]. s size", "ERROR 1 " + resourceLimitPrefix + "an object of"},
		{"a collection that grows forever", "| oc | oc := OrderedCollection new. [true] whileTrue: [oc add: (Array new: 1000)]", "ERROR 1 " + resourceLimitPrefix},
		{"a Set that grows forever", "| set n | set := Set new. n := 0. [true] whileTrue: [set add: (n := n + 1)]", "ERROR 1 " + resourceLimitPrefix},
		{"the limit can be handled", "[(Array new: 3000000000000) size] on: Error do: [:e | e return: #caught]", "#caught"},
	}
	for _, c := range cases {
		if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s\n  got  %s\n  want %s", c.name, c.src, got, c.want)
		}
		if got := run(t, s, "3 + 4"); got != "7" {
			t.Fatalf("after %s the session answers %s to 3 + 4", c.name, got)
		}
	}
}

// Public code reads a few bytes from a device that never ends: GemTalk/mcp_server McpRouter.gs
// randomSessionToken opens /dev/urandom with openReadOnServer:, takes next: 16 inside an
// ensure: that closes the file.
func TestGsFileReadsAFewBytesFromAnEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/urandom"); err != nil {
		t.Skipf("this machine has no /dev/urandom (%v)", err)
	}
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	src := "| f bytes | f := GsFile openReadOnServer: '/dev/urandom'. bytes := [f next: 16] ensure: [f close]. bytes size"
	if got := run(t, s, src); got != "16" {
		t.Errorf("%s\n  got  %s\n  want 16", src, got)
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/three", []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []struct{ src, want string }{
		{"| f | f := GsFile openReadOnServer: '" + dir + "/three'. [(f next: 2) , '|' , (f next: 5) , '|' , f atEnd printString] ensure: [f close]", "'ab|c|true'"},
		{"| f | f := GsFile openReadOnServer: '" + dir + "/three'. [f contents] ensure: [f close]", "'abc'"},
		{"GsFile openReadOnServer: '" + dir + "/absent'", "nil"},
		{"| f | f := GsFile openReadOnServer: '" + dir + "/three'. f close. f next: 1", "ERROR 2717"},
	}
	for _, c := range steps {
		if got := run(t, s, c.src); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s\n  got  %s\n  want %s", c.src, got, c.want)
		}
	}
}

package gsmodel

import "testing"

// A non-ASCII character literal compiles and prints back as it was written; a compile error's
// offset counts characters, as GemStone's errorDetails do, not UTF-8 bytes.
func TestCharactersAreCountedAsCharacters(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	cases := map[string]string{
		"$é printString":     "'$é'",
		"$€ codePoint":       "8364",
		"'é' first = $é":     "true",
		"('é€' indexOf: $€)": "2",
		"(Object compileMethod: 'm ^''é€'' zork: nosuch' dictionaries: System myUserProfile symbolList category: 'x') first at: 2": "15",
	}
	for src, want := range cases {
		if got := run(t, s, src); got != want {
			t.Errorf("%s\n  got  %s\n  want %s", src, got, want)
		}
	}
}

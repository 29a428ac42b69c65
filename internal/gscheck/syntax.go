package gscheck

// The exported face of the parser, for the executable model (internal/gsmodel), which must run the
// very syntax tree the checker reads so that the project has one Smalltalk grammar, not two.

// ParseMethod parses a method's source: its pattern, temporaries, pragmas and statements.
func ParseMethod(src string) (*MethodNode, error) {
	m, _, err := parseMethod(src)
	return m, err
}

// ParseDoit parses the source of a doit, run or printit: optional temporaries, then statements.
func ParseDoit(src string) (*Sequence, error) {
	seq, _, err := parseDoit(src)
	return seq, err
}

// Offset answers the byte offset in its source at which an expression starts.
func Offset(e Expr) int { return e.pos() }

// SyntaxErrorOffset answers where in the source a parse error was found, and false for any
// other error.
func SyntaxErrorOffset(err error) (int, bool) {
	if se, ok := err.(*syntaxError); ok {
		return se.Pos, true
	}
	return 0, false
}

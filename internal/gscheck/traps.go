package gscheck

import (
	"regexp"
	"strings"
)

// The silent file-in traps (gemstone-smalltalk.md s1, "File-in traps"): source that topaz files in
// without the error pointing at the real line, or without any error at all.

// classCommentDoit matches the canonical class-comment doit of a fileOutClass:
//
//	Foo comment:
//	'text, with embedded quotes doubled '''
var classCommentDoit = regexp.MustCompile(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s+comment:\s*'`)

// classCommentTrap reports a lone ' inside a class comment string: the string ends there and the
// rest of the comment is compiled as Smalltalk, which fails far from the real line. It answers
// true when it reported, so the doit is not also reported as a generic syntax error.
func (c *checker) classCommentTrap(b *parsedBody) (trapped bool) {
	m := classCommentDoit.FindStringSubmatchIndex(b.Src)
	if m == nil {
		return false
	}
	className := b.Src[m[2]:m[3]]
	defer func() {
		if trapped {
			c.trappedComments[className] = true
		}
	}()
	i := m[1] // just after the opening quote
	for i < len(b.Src) {
		if b.Src[i] != '\'' {
			i++
			continue
		}
		if i+1 < len(b.Src) && b.Src[i+1] == '\'' {
			i += 2
			continue
		}
		break // the quote that ends the string
	}
	if i >= len(b.Src) {
		c.report(b.File, b.lineOf(m[1]-1), "the class comment of "+className+" is never closed by a '")
		return true
	}
	rest := strings.TrimSpace(b.Src[i+1:])
	if rest == "" || rest == "." {
		return false
	}
	c.report(b.File, b.lineOf(i), "a ' inside the class comment of "+className+
		" ends the string here; double it ('') (silent file-in trap)")
	return true
}

// checkCommentQuotes reports a comment whose closing " is glued to what follows: the mark of a "
// written inside a comment, which ends the comment early and compiles the next words as code
// (`"the "name" of it"`), or two comments on one line with only words between them
// (`"the " name " of it"`). An unclosed comment is reported by the lexer.
// It answers whether it reported.
func (c *checker) checkCommentQuotes(b *parsedBody, comments []comment) bool {
	found := false
	for i, cm := range comments {
		if cm.End >= len(b.Src) {
			continue
		}
		next := b.Src[cm.End]
		if isIdentChar(next) || isBinaryChar(next) || next == '#' || next == '$' || next == ':' ||
			i+1 < len(comments) && onlyWordsBetween(b.Src[cm.End:comments[i+1].Start]) {
			c.report(b.File, b.lineOf(cm.End-1), `a " inside a comment ends it early; the text after it is compiled as code (silent file-in trap)`)
			found = true
		}
	}
	return found
}

// onlyWordsBetween tells whether the text between two comments is words on one line: what is
// left of a comment that a stray " split in two.
func onlyWordsBetween(s string) bool {
	words := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			return false
		case isIdentChar(c) || c == ':':
			words = true
		case c != ' ' && c != '\t':
			return false
		}
	}
	return words
}

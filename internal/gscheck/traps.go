package gscheck

import "strings"

// The silent file-in traps (gemstone-smalltalk.md s1, "File-in traps"): source that topaz files in
// without the error pointing at the real line, or without any error at all.

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

// commentStringTrap reports a lone ' inside a comment string of a doit: the canonical
// `Foo comment: '...'` doit of a fileOutClass, a comment: argument inside a larger doit, or the
// description: of an older class-definition form. The string ends at the lone quote and the rest
// of the comment is compiled as Smalltalk, failing far from the real line. The mark is a bare word
// (not a keyword) right after the string, or a string that never closes. It answers whether it
// reported, so the doit is not also reported as a generic syntax error.
func (c *checker) commentStringTrap(b *parsedBody) bool {
	src := b.Src
	receiver := "" // the last capitalised identifier, the receiver of a following comment:
	for i := 0; i < len(src); i++ {
		switch ch := src[i]; {
		case ch == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				return false
			}
			i += end + 1
		case ch == '\'':
			i = stringEnd(src, i)
		case isLetter(ch):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			word := src[i:j]
			i = j - 1
			if j >= len(src) || src[j] != ':' {
				if ch >= 'A' && ch <= 'Z' {
					receiver = word
				}
				continue
			}
			if word != "comment" && word != "description" {
				continue
			}
			k := j + 1
			for k < len(src) && isSpace(src[k]) {
				k++
			}
			if k >= len(src) || src[k] != '\'' {
				continue
			}
			end := stringEnd(src, k)
			n := end + 1
			for n < len(src) && isSpace(src[n]) {
				n++
			}
			if end < len(src) && (n >= len(src) || !isLetter(src[n]) || followedByColon(src, n)) {
				i = end
				continue
			}
			what := "the " + word + ": string"
			if word == "comment" && receiver != "" {
				what = "the class comment of " + receiver
				c.trappedComments[receiver] = true
			}
			if end >= len(src) {
				c.report(b.File, b.lineOf(k), what+" is never closed by a '")
			} else {
				c.report(b.File, b.lineOf(end), "a ' inside "+what+
					" ends the string here; double it ('') (silent file-in trap)")
			}
			return true
		}
	}
	return false
}

// stringEnd answers the offset of the quote that closes the string opened at i (doubled quotes
// are content), or len(src) when it never closes.
func stringEnd(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		if src[j] != '\'' {
			continue
		}
		if j+1 < len(src) && src[j+1] == '\'' {
			j++
			continue
		}
		return j
	}
	return len(src)
}

func followedByColon(src string, i int) bool {
	for i < len(src) && isIdentChar(src[i]) {
		i++
	}
	return i < len(src) && src[i] == ':'
}

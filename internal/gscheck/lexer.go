package gscheck

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokenKind classifies a Smalltalk token.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokIdent
	tokKeyword // foo:
	tokBinary  // + - , -> ~= ==> etc. ('|' is tokBar, '^' is tokCaret)
	tokBar
	tokCaret
	tokAssign // :=
	tokColon  // the ':' before a block parameter
	tokDot
	tokSemicolon
	tokLParen
	tokRParen
	tokLBracket
	tokRBracket
	tokLBrace
	tokRBrace
	tokNumber
	tokString
	tokChar
	tokSymbol
	tokLitArrayOpen  // #(
	tokByteArrayOpen // #[
)

var tokenNames = map[tokenKind]string{
	tokEOF: "end of source", tokIdent: "identifier", tokKeyword: "keyword", tokBinary: "binary selector",
	tokBar: "'|'", tokCaret: "'^'", tokAssign: "':='", tokColon: "':'", tokDot: "'.'",
	tokSemicolon: "';'", tokLParen: "'('", tokRParen: "')'", tokLBracket: "'['", tokRBracket: "']'",
	tokLBrace: "'{'", tokRBrace: "'}'", tokNumber: "number", tokString: "string", tokChar: "character",
	tokSymbol: "symbol", tokLitArrayOpen: "'#('", tokByteArrayOpen: "'#['",
}

func (k tokenKind) String() string { return tokenNames[k] }

// token is one lexeme; Start and End are byte offsets into the source, Text its exact spelling
// (for strings and symbols Value holds the decoded content).
type token struct {
	Kind       tokenKind
	Start, End int
	Text       string
	Value      string
}

// comment records where a "..." comment sat, for the quote-trap checks.
type comment struct {
	Start, End int // End is one past the closing quote
}

// syntaxError is a parse failure at a byte offset of the source being parsed.
type syntaxError struct {
	Pos int
	Msg string
}

func (e *syntaxError) Error() string { return e.Msg }

// trapError marks a syntax failure that is one of the silent file-in traps, so the report can
// say so instead of a generic parse message.
type trapError struct{ syntaxError }

const binaryChars = `~!@%&*-+=\?/<>,`

func isBinaryChar(c byte) bool { return strings.IndexByte(binaryChars, c) >= 0 }
func isLetter(c byte) bool     { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool  { return isLetter(c) || isDigit(c) }
func isSpace(c byte) bool      { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// lex splits Smalltalk source into tokens and comments. It fails on the first malformed lexeme.
func lex(src string) ([]token, []comment, error) {
	l := &lexer{src: src}
	for {
		t, err := l.next()
		if err != nil {
			return nil, l.comments, err
		}
		l.toks = append(l.toks, t)
		if t.Kind == tokEOF {
			return l.toks, l.comments, nil
		}
	}
}

type lexer struct {
	src      string
	pos      int
	toks     []token
	comments []comment
}

func (l *lexer) peekAt(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

func (l *lexer) skipSpaceAndComments() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '"':
			start := l.pos
			end := strings.IndexByte(l.src[start+1:], '"')
			if end < 0 {
				return &trapError{syntaxError{start, `a " opens a comment that is never closed before %: ` +
					`it swallows the rest of the source (silent file-in trap)`}}
			}
			l.pos = start + 1 + end + 1
			l.comments = append(l.comments, comment{start, l.pos})
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) tok(kind tokenKind, start int) token {
	return token{Kind: kind, Start: start, End: l.pos, Text: l.src[start:l.pos]}
}

func (l *lexer) next() (token, error) {
	if err := l.skipSpaceAndComments(); err != nil {
		return token{}, err
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{Kind: tokEOF, Start: start, End: start}, nil
	}
	c := l.src[l.pos]
	switch {
	case isLetter(c):
		for l.pos < len(l.src) && isIdentChar(l.src[l.pos]) {
			l.pos++
		}
		if l.peekAt(l.pos) == ':' && l.peekAt(l.pos+1) != '=' {
			l.pos++
			return l.tok(tokKeyword, start), nil
		}
		return l.tok(tokIdent, start), nil
	case isDigit(c):
		return l.number()
	case c == '\'':
		return l.quoted(tokString, start)
	case c == '$':
		if l.pos+1 >= len(l.src) {
			return token{}, &syntaxError{start, "a $ at the end of the source has no character"}
		}
		// The character is one code point, however many bytes its UTF-8 takes ($é, $€).
		_, size := utf8.DecodeRuneInString(l.src[l.pos+1:])
		l.pos += 1 + size
		t := l.tok(tokChar, start)
		t.Value = l.src[start+1 : l.pos]
		return t, nil
	case c == '#':
		return l.hash()
	case c == ':':
		l.pos++
		if l.peekAt(l.pos) == '=' {
			l.pos++
			return l.tok(tokAssign, start), nil
		}
		return l.tok(tokColon, start), nil
	case isBinaryChar(c):
		l.binaryRun()
		return l.tok(tokBinary, start), nil
	}
	single := map[byte]tokenKind{'.': tokDot, ';': tokSemicolon, '(': tokLParen, ')': tokRParen,
		'[': tokLBracket, ']': tokRBracket, '{': tokLBrace, '}': tokRBrace, '|': tokBar, '^': tokCaret}
	if k, ok := single[c]; ok {
		l.pos++
		return l.tok(k, start), nil
	}
	return token{}, &syntaxError{start, fmt.Sprintf("unexpected character %q", c)}
}

// binaryRun consumes a binary selector, stopping before a '-' that starts a negative number so that
// `3--2` and `x - -2` read as a subtraction of a negative literal.
func (l *lexer) binaryRun() {
	l.pos++
	for l.pos < len(l.src) && isBinaryChar(l.src[l.pos]) {
		if l.src[l.pos] == '-' && isDigit(l.peekAt(l.pos+1)) {
			return
		}
		l.pos++
	}
}

// stringBody reads a quoted literal starting at l.pos (on the opening quote) and answers its
// content with doubled quotes undone.
func (l *lexer) stringBody() (string, error) {
	start := l.pos
	var b strings.Builder
	l.pos++
	for {
		if l.pos >= len(l.src) {
			return "", &syntaxError{start, "a ' opens a string that is never closed"}
		}
		c := l.src[l.pos]
		if c == '\'' {
			if l.peekAt(l.pos+1) == '\'' {
				b.WriteByte('\'')
				l.pos += 2
				continue
			}
			l.pos++
			return b.String(), nil
		}
		b.WriteByte(c)
		l.pos++
	}
}

// quoted reads a quoted literal at l.pos into a token of kind k that began at start.
func (l *lexer) quoted(k tokenKind, start int) (token, error) {
	s, err := l.stringBody()
	if err != nil {
		return token{}, err
	}
	t := l.tok(k, start)
	t.Value = s
	return t, nil
}

func (l *lexer) hash() (token, error) {
	start := l.pos
	l.pos++
	c := l.peekAt(l.pos)
	switch {
	case c == '(':
		l.pos++
		return l.tok(tokLitArrayOpen, start), nil
	case c == '[':
		l.pos++
		return l.tok(tokByteArrayOpen, start), nil
	case c == '\'':
		return l.quoted(tokSymbol, start)
	case isLetter(c):
		// #foo, #Foo, #foo:, #at:put:, #foo:bar (GemStone accepts a trailing unary part).
		for l.pos < len(l.src) && (isIdentChar(l.src[l.pos]) || l.src[l.pos] == ':' && l.peekAt(l.pos+1) != '=') {
			l.pos++
		}
		t := l.tok(tokSymbol, start)
		t.Value = l.src[start+1 : l.pos]
		return t, nil
	case isBinaryChar(c) || c == '|':
		for l.pos < len(l.src) && (isBinaryChar(l.src[l.pos]) || l.src[l.pos] == '|') {
			l.pos++
		}
		t := l.tok(tokSymbol, start)
		t.Value = l.src[start+1 : l.pos]
		return t, nil
	}
	return token{}, &syntaxError{start, "a # that starts no literal"}
}

// number reads integers, radix integers (16r1F), floats (1.5, 2e10, 1.0e-3, 1.0d0), and scaled
// decimals (1.5s2, 3s). A sign is not part of the token: the parser joins an adjacent '-'.
func (l *lexer) number() (token, error) {
	start := l.pos
	l.digits()
	if l.peekAt(l.pos) == 'r' {
		// radix: digits and upper-case letters, optionally negative after the r
		p := l.pos + 1
		if l.peekAt(p) == '-' {
			p++
		}
		q := p
		for q < len(l.src) && (isDigit(l.src[q]) || l.src[q] >= 'A' && l.src[q] <= 'Z') {
			q++
		}
		if c := l.peekAt(q); c >= 'a' && c <= 'z' {
			// Public GemStone code writes radix digits in upper case (16rFFFFFFFF); whether a
			// stone reads 16rff as 255 or as 16rF sent #f is not attested, so it is refused.
			return token{}, &syntaxError{start, "a radix number with lower-case digits (write 16rFF, not 16rff)"}
		}
		if q == p {
			return token{}, &syntaxError{start, "a radix number has no digits after r"}
		}
		l.pos = q
		return l.tok(tokNumber, start), nil
	}
	if l.peekAt(l.pos) == '#' && (isDigit(l.peekAt(l.pos+1)) || l.peekAt(l.pos+1) >= 'A' && l.peekAt(l.pos+1) <= 'Z') {
		// No public evidence shows a GemStone 3.x parser reading 16#11 as a number.
		return token{}, &syntaxError{start, "a radix number written with # (16#11): write 16r11"}
	}
	if l.peekAt(l.pos) == '.' && isDigit(l.peekAt(l.pos+1)) {
		l.pos++
		l.digits()
	}
	if e := l.peekAt(l.pos); e == 'e' || e == 'd' || e == 'q' {
		p := l.pos + 1
		if l.peekAt(p) == '-' {
			p++
		}
		if isDigit(l.peekAt(p)) {
			l.pos = p
			l.digits()
		}
	}
	if l.peekAt(l.pos) == 's' {
		p := l.pos + 1
		for p < len(l.src) && isDigit(l.src[p]) {
			p++
		}
		if !isLetter(l.peekAt(p)) {
			l.pos = p
		}
	}
	return l.tok(tokNumber, start), nil
}

func (l *lexer) digits() {
	for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
		l.pos++
	}
}

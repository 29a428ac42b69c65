package gscheck

import (
	"fmt"
	"strconv"
	"strings"
)

// parser is a recursive-descent parser for Smalltalk-80 method and doit source, with GemStone's
// literal forms (byte arrays, brace arrays, scaled decimals, radix integers) and pragmas.
type parser struct {
	toks  []token
	i     int
	depth int // nesting of parentheses, blocks, braces and literal arrays
}

// maxNesting bounds recursion: no real method nests this deep, and a file that does (or a run of
// unbalanced brackets) gets a finding instead of a deep stack.
const maxNesting = 256

// enter counts one level of nesting at t; leave undoes it.
func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > maxNesting {
		return p.errorf(t, "nesting deeper than %d levels", maxNesting)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// parseMethod parses a method: its pattern, then temporaries/pragmas, then statements.
func parseMethod(src string) (*MethodNode, []comment, error) {
	toks, comments, err := lex(src)
	if err != nil {
		return nil, comments, err
	}
	p := &parser{toks: toks}
	m, err := p.method()
	return m, comments, err
}

// parseDoit parses doit/run/printit source: optional temporaries, then statements.
func parseDoit(src string) (*Sequence, []comment, error) {
	toks, comments, err := lex(src)
	if err != nil {
		return nil, comments, err
	}
	p := &parser{toks: toks}
	seq, err := p.sequence(tokEOF)
	if err != nil {
		return nil, comments, err
	}
	return seq, comments, p.expect(tokEOF)
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) peekN(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.Kind != tokEOF {
		p.i++
	}
	return t
}

func describe(t token) string {
	if t.Kind == tokEOF {
		return "the end of the source"
	}
	// A punctuation kind is named by its own spelling ("']'"), so the text would only repeat it.
	if name := t.Kind.String(); strings.HasPrefix(name, "'") {
		return name
	}
	return fmt.Sprintf("%s %s", t.Kind, t.Text)
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return &syntaxError{t.Start, fmt.Sprintf(format, args...)}
}

func (p *parser) expect(k tokenKind) error {
	t := p.peek()
	if t.Kind != k {
		return p.errorf(t, "expected %s, found %s", k, describe(t))
	}
	p.advance()
	return nil
}

func isBinaryOp(t token) bool { return t.Kind == tokBinary || t.Kind == tokBar }

func (p *parser) method() (*MethodNode, error) {
	m := &MethodNode{}
	t := p.peek()
	m.SelectorPos = t.Start
	switch {
	case t.Kind == tokIdent:
		p.advance()
		m.Selector = t.Text
	case isBinaryOp(t):
		p.advance()
		arg := p.peek()
		if arg.Kind != tokIdent {
			return nil, p.errorf(arg, "expected an argument name after binary selector %s, found %s", t.Text, describe(arg))
		}
		p.advance()
		m.Selector = t.Text
		m.Args = append(m.Args, Ident{arg.Text, arg.Start})
	case t.Kind == tokKeyword:
		var sel strings.Builder
		for p.peek().Kind == tokKeyword {
			kw := p.advance()
			arg := p.peek()
			if arg.Kind != tokIdent {
				return nil, p.errorf(arg, "expected an argument name after %s, found %s", kw.Text, describe(arg))
			}
			p.advance()
			sel.WriteString(kw.Text)
			m.Args = append(m.Args, Ident{arg.Text, arg.Start})
		}
		m.Selector = sel.String()
	default:
		return nil, p.errorf(t, "expected a message pattern, found %s", describe(t))
	}
	var temps []Ident
	for {
		if t := p.peek(); t.Kind == tokBinary && t.Text == "<" {
			prag, err := p.pragma()
			if err != nil {
				return m, err
			}
			m.Pragmas = append(m.Pragmas, prag)
			continue
		}
		if p.peek().Kind == tokBar {
			ts, err := p.temporaries()
			if err != nil {
				return m, err
			}
			temps = append(temps, ts...)
			continue
		}
		break
	}
	seq, err := p.sequence(tokEOF)
	if err != nil {
		return m, err
	}
	seq.Temps = append(temps, seq.Temps...)
	m.Body = seq
	return m, p.expect(tokEOF)
}

// pragma parses <primitive: 1>, <protected>, <protected primitive: 12>, <foo: 'x' bar: 3>.
func (p *parser) pragma() (*SendNode, error) {
	open := p.advance()
	s := &SendNode{At: open.Start}
	var sel strings.Builder
	for {
		t := p.peek()
		switch {
		case t.Kind == tokBinary && t.Text == ">":
			p.advance()
			if sel.Len() == 0 {
				return nil, p.errorf(t, "empty pragma <>")
			}
			s.Selector = sel.String()
			return s, nil
		case t.Kind == tokIdent:
			p.advance()
			sel.WriteString(t.Text)
		case t.Kind == tokKeyword:
			p.advance()
			sel.WriteString(t.Text)
			lit, err := p.literal(false)
			if err != nil {
				return nil, err
			}
			s.Args = append(s.Args, lit)
		default:
			return nil, p.errorf(t, "expected a pragma keyword or '>', found %s", describe(t))
		}
	}
}

func (p *parser) temporaries() ([]Ident, error) {
	p.advance() // opening bar
	var out []Ident
	for {
		t := p.peek()
		switch t.Kind {
		case tokIdent:
			p.advance()
			out = append(out, Ident{t.Text, t.Start})
		case tokBar:
			p.advance()
			return out, nil
		default:
			return nil, p.errorf(t, "expected a temporary name or '|', found %s", describe(t))
		}
	}
}

// sequence parses `[| temps |] statement (. statement)* [.]` up to (not including) the closing
// token.
func (p *parser) sequence(closer tokenKind) (*Sequence, error) {
	seq := &Sequence{}
	if p.peek().Kind == tokBar {
		ts, err := p.temporaries()
		if err != nil {
			return nil, err
		}
		seq.Temps = ts
	}
	for {
		for p.peek().Kind == tokDot {
			p.advance()
		}
		t := p.peek()
		if t.Kind == closer || t.Kind == tokEOF {
			return seq, nil
		}
		st, err := p.statement()
		if err != nil {
			return nil, err
		}
		seq.Stmts = append(seq.Stmts, st)
		t = p.peek()
		if t.Kind == tokDot {
			continue
		}
		if t.Kind == closer || t.Kind == tokEOF {
			return seq, nil
		}
		return nil, p.errorf(t, "expected '.' or the end of the statements, found %s", describe(t))
	}
}

func (p *parser) statement() (Expr, error) {
	if t := p.peek(); t.Kind == tokCaret {
		p.advance()
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		return &ReturnNode{At: t.Start, Value: v}, nil
	}
	return p.expression()
}

func (p *parser) expression() (Expr, error) {
	if t := p.peek(); t.Kind == tokIdent && p.peekN(1).Kind == tokAssign {
		p.advance()
		p.advance()
		v, err := p.expression()
		if err != nil {
			return nil, err
		}
		return &AssignNode{Target: Ident{t.Text, t.Start}, Value: v}, nil
	}
	first, err := p.keywordExpr()
	if err != nil {
		return nil, err
	}
	if p.peek().Kind != tokSemicolon {
		return first, nil
	}
	send, ok := first.(*SendNode)
	if !ok {
		return nil, p.errorf(p.peek(), "a cascade ';' must follow a message send")
	}
	c := &CascadeNode{Receiver: send.Receiver}
	send.Receiver = nil
	c.Messages = append(c.Messages, send)
	for p.peek().Kind == tokSemicolon {
		p.advance()
		msgs, err := p.cascadePart()
		if err != nil {
			return nil, err
		}
		c.Messages = append(c.Messages, msgs)
	}
	return c, nil
}

// cascadePart parses the messages after a ';': the first goes to the cascade receiver (a nil
// Receiver here), any further ones to the result of the previous.
func (p *parser) cascadePart() (*SendNode, error) {
	t := p.peek()
	if t.Kind != tokIdent && t.Kind != tokKeyword && !isBinaryOp(t) {
		return nil, p.errorf(t, "expected a message after ';', found %s", describe(t))
	}
	e, err := p.binaryTail(p.unaryTail(nil))
	if err != nil {
		return nil, err
	}
	if e, err = p.keywordTail(e); err != nil {
		return nil, err
	}
	return e.(*SendNode), nil
}

// Each level of message precedence is an operand of the level below followed by its own sends.
func (p *parser) keywordExpr() (Expr, error) { return withTail(p.binaryExpr, p.keywordTail) }
func (p *parser) binaryExpr() (Expr, error)  { return withTail(p.unaryExpr, p.binaryTail) }
func (p *parser) unaryExpr() (Expr, error) {
	return withTail(p.primary, func(r Expr) (Expr, error) { return p.unaryTail(r), nil })
}

// withTail parses an operand, then the sends that follow it.
func withTail(operand func() (Expr, error), tail func(Expr) (Expr, error)) (Expr, error) {
	r, err := operand()
	if err != nil {
		return nil, err
	}
	return tail(r)
}

func (p *parser) keywordTail(recv Expr) (Expr, error) {
	if p.peek().Kind != tokKeyword {
		return recv, nil
	}
	s := &SendNode{Receiver: recv, At: p.peek().Start}
	var sel strings.Builder
	for p.peek().Kind == tokKeyword {
		kw := p.advance()
		sel.WriteString(kw.Text)
		arg, err := p.binaryExpr()
		if err != nil {
			return nil, err
		}
		s.Args = append(s.Args, arg)
	}
	s.Selector = sel.String()
	return s, nil
}

func (p *parser) binaryTail(recv Expr) (Expr, error) {
	for isBinaryOp(p.peek()) {
		op := p.advance()
		arg, err := p.unaryExpr()
		if err != nil {
			return nil, err
		}
		recv = &SendNode{Receiver: recv, Selector: op.Text, At: op.Start, Args: []Expr{arg}}
	}
	return recv, nil
}

// unaryTail appends unary sends to recv (nil for the first message of a cascade part).
func (p *parser) unaryTail(recv Expr) Expr {
	for p.peek().Kind == tokIdent {
		t := p.advance()
		recv = &SendNode{Receiver: recv, Selector: t.Text, At: t.Start}
	}
	return recv
}

func (p *parser) primary() (Expr, error) {
	t := p.peek()
	switch t.Kind {
	case tokIdent:
		p.advance()
		if l := pseudoLiteral(t); l != nil {
			return l, nil
		}
		return &VarRef{Ident{t.Text, t.Start}}, nil
	case tokLParen:
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer p.leave()
		p.advance()
		e, err := p.expression()
		if err != nil {
			return nil, err
		}
		return e, p.expect(tokRParen)
	case tokLBracket, tokLBrace:
		if err := p.enter(t); err != nil {
			return nil, err
		}
		defer p.leave()
		if t.Kind == tokLBracket {
			return p.block()
		}
		return p.brace()
	case tokBinary:
		if t.Text == "-" && p.peekN(1).Kind == tokNumber && p.peekN(1).Start == t.End {
			return p.literal(false)
		}
	case tokNumber, tokString, tokChar, tokSymbol, tokLitArrayOpen, tokByteArrayOpen:
		return p.literal(false)
	}
	return nil, p.errorf(t, "expected an expression, found %s", describe(t))
}

func (p *parser) block() (Expr, error) {
	open := p.advance()
	b := &BlockNode{At: open.Start}
	for p.peek().Kind == tokColon {
		p.advance()
		n := p.peek()
		if n.Kind != tokIdent {
			return nil, p.errorf(n, "expected a block parameter name after ':', found %s", describe(n))
		}
		p.advance()
		b.Params = append(b.Params, Ident{n.Text, n.Start})
	}
	if len(b.Params) > 0 {
		switch t := p.peek(); {
		case t.Kind == tokBar:
			p.advance()
		case t.Kind == tokRBracket:
		default:
			return nil, p.errorf(t, "expected '|' after the block parameters, found %s", describe(t))
		}
	}
	seq, err := p.sequence(tokRBracket)
	if err != nil {
		return nil, err
	}
	b.Body = seq
	return b, p.expect(tokRBracket)
}

func (p *parser) brace() (Expr, error) {
	open := p.advance()
	b := &BraceNode{At: open.Start}
	for {
		for p.peek().Kind == tokDot {
			p.advance()
		}
		if p.peek().Kind == tokRBrace {
			p.advance()
			return b, nil
		}
		e, err := p.expression()
		if err != nil {
			return nil, err
		}
		b.Elems = append(b.Elems, e)
		if t := p.peek(); t.Kind != tokDot && t.Kind != tokRBrace {
			return nil, p.errorf(t, "expected '.' or '}' in a brace array, found %s", describe(t))
		}
	}
}

// literal parses one literal. inArray selects the literal-array element rules, where bare words
// are symbols and nested parentheses are arrays.
func (p *parser) literal(inArray bool) (*LiteralNode, error) {
	t := p.peek()
	switch t.Kind {
	case tokNumber:
		p.advance()
		return &LiteralNode{Kind: LitNumber, At: t.Start, Value: t.Text}, nil
	case tokBinary, tokBar:
		if t.Text == "-" && p.peekN(1).Kind == tokNumber && p.peekN(1).Start == t.End {
			p.advance()
			n := p.advance()
			return &LiteralNode{Kind: LitNumber, At: t.Start, Value: "-" + n.Text}, nil
		}
		if inArray { // a binary selector or a bar is a symbol there
			p.advance()
			return &LiteralNode{Kind: LitSymbol, At: t.Start, Value: t.Text}, nil
		}
	case tokString:
		p.advance()
		return &LiteralNode{Kind: LitString, At: t.Start, Value: t.Value}, nil
	case tokChar:
		p.advance()
		return &LiteralNode{Kind: LitChar, At: t.Start, Value: t.Value}, nil
	case tokSymbol:
		p.advance()
		return &LiteralNode{Kind: LitSymbol, At: t.Start, Value: t.Value}, nil
	case tokLitArrayOpen:
		return p.literalArray()
	case tokByteArrayOpen:
		return p.byteArray()
	case tokLParen, tokLBracket:
		if inArray {
			if t.Kind == tokLParen {
				return p.literalArray()
			}
			return p.byteArray()
		}
	case tokIdent, tokKeyword:
		if inArray {
			return p.arrayWord()
		}
		if l := pseudoLiteral(t); t.Kind == tokIdent && l != nil {
			p.advance()
			return l, nil
		}
	}
	return nil, p.errorf(t, "expected a literal, found %s", describe(t))
}

// pseudoLiteral answers the literal that the word t spells when it is true, false or nil, else nil.
func pseudoLiteral(t token) *LiteralNode {
	var kind LiteralKind
	switch t.Text {
	case "true":
		kind = LitTrue
	case "false":
		kind = LitFalse
	case "nil":
		kind = LitNil
	default:
		return nil
	}
	return &LiteralNode{Kind: kind, At: t.Start, Value: t.Text}
}

// arrayWord reads a bare word inside a literal array: true/false/nil, or a symbol such as foo,
// foo:, or at:put: (adjacent keyword parts).
func (p *parser) arrayWord() (*LiteralNode, error) {
	t := p.advance()
	if t.Kind == tokIdent {
		if l := pseudoLiteral(t); l != nil {
			return l, nil
		}
		return &LiteralNode{Kind: LitSymbol, At: t.Start, Value: t.Text}, nil
	}
	val := t.Text
	end := t.End
	for n := p.peek(); n.Kind == tokKeyword && n.Start == end; n = p.peek() {
		p.advance()
		val += n.Text
		end = n.End
	}
	return &LiteralNode{Kind: LitSymbol, At: t.Start, Value: val}, nil
}

func (p *parser) literalArray() (*LiteralNode, error) {
	if err := p.enter(p.peek()); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.literalElements(LitArray, tokRParen, "literal array", func() (*LiteralNode, error) { return p.literal(true) })
}

func (p *parser) byteArray() (*LiteralNode, error) {
	return p.literalElements(LitByteArray, tokRBracket, "byte array", p.byteValue)
}

// literalElements reads a literal or byte array from its opening token to closing, each element
// with element; what names the array when it is never closed.
func (p *parser) literalElements(kind LiteralKind, closing tokenKind, what string, element func() (*LiteralNode, error)) (*LiteralNode, error) {
	open := p.advance()
	arr := &LiteralNode{Kind: kind, At: open.Start}
	for {
		switch p.peek().Kind {
		case closing:
			p.advance()
			return arr, nil
		case tokEOF:
			return nil, p.errorf(open, "a %s opened here is never closed", what)
		}
		el, err := element()
		if err != nil {
			return nil, err
		}
		arr.Elems = append(arr.Elems, el)
	}
}

// byteValue reads one element of a byte array: an integer 0-255.
func (p *parser) byteValue() (*LiteralNode, error) {
	t := p.peek()
	if t.Kind != tokNumber {
		return nil, p.errorf(t, "expected an integer 0-255 or ']' in a byte array, found %s", describe(t))
	}
	p.advance()
	if !isByteValue(t.Text) {
		return nil, p.errorf(t, "byte array element %s is not an integer 0-255", t.Text)
	}
	return &LiteralNode{Kind: LitNumber, At: t.Start, Value: t.Text}, nil
}

// isByteValue tells whether a number literal is an integer 0-255, in decimal or radix form.
func isByteValue(s string) bool {
	base, digits := 10, s
	if r := strings.IndexByte(s, 'r'); r > 0 {
		b, err := strconv.Atoi(s[:r])
		if err != nil || b < 2 || b > 36 {
			return false
		}
		base, digits = b, s[r+1:]
	}
	n, err := strconv.ParseInt(digits, base, 64)
	return err == nil && n >= 0 && n <= 255
}

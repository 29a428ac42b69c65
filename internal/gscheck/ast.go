package gscheck

// The AST keeps only what the checks read: names with their offsets, sends with their selectors,
// literals with their values, and the scopes (method, block) that declare names.

type expr interface{ pos() int }

// ident is a declared or referenced name at a byte offset.
type ident struct {
	Name string
	Pos  int
}

// methodNode is a parsed method: its pattern, temporaries, pragmas and statements.
type methodNode struct {
	Selector    string
	SelectorPos int
	Args        []ident
	Body        *sequence
	Pragmas     []*sendNode // each pragma as a receiver-less keyword or unary message
}

// sequence is a statement list with its own temporaries (a method, doit or block body).
type sequence struct {
	Temps []ident
	Stmts []expr
}

type varRef struct{ ident }

func (v *varRef) pos() int { return v.Pos }

type assignNode struct {
	Target ident
	Value  expr
}

func (a *assignNode) pos() int { return a.Target.Pos }

type returnNode struct {
	At    int
	Value expr
}

func (r *returnNode) pos() int { return r.At }

// sendNode is one message. In a cascade the messages after the first have a nil Receiver.
type sendNode struct {
	Receiver expr
	Selector string
	At       int // offset of the first selector part
	Args     []expr
}

func (s *sendNode) pos() int { return s.At }

type cascadeNode struct {
	Receiver expr
	Messages []*sendNode
}

func (c *cascadeNode) pos() int { return c.Receiver.pos() }

type literalKind int

const (
	litNumber literalKind = iota
	litString
	litSymbol
	litChar
	litTrue
	litFalse
	litNil
	litArray
	litByteArray
)

type literalNode struct {
	Kind  literalKind
	At    int
	Value string         // decoded text for strings, symbols, characters; spelling for numbers
	Elems []*literalNode // for literal and byte arrays
}

func (l *literalNode) pos() int { return l.At }

type blockNode struct {
	At     int
	Params []ident
	Body   *sequence
}

func (b *blockNode) pos() int { return b.At }

type braceNode struct {
	At    int
	Elems []expr
}

func (b *braceNode) pos() int { return b.At }

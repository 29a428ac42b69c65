package gscheck

// The AST keeps only what the checks read: names with their offsets, sends with their selectors,
// literals with their values, and the scopes (method, block) that declare names.

type Expr interface{ pos() int }

// Ident is a declared or referenced name at a byte offset.
type Ident struct {
	Name string
	Pos  int
}

// MethodNode is a parsed method: its pattern, temporaries, pragmas and statements.
type MethodNode struct {
	Selector    string
	SelectorPos int
	Args        []Ident
	Body        *Sequence
	Pragmas     []*SendNode // each pragma as a receiver-less keyword or unary message
}

// Sequence is a statement list with its own temporaries (a method, doit or block body).
type Sequence struct {
	Temps []Ident
	Stmts []Expr
}

type VarRef struct{ Ident }

func (v *VarRef) pos() int { return v.Pos }

type AssignNode struct {
	Target Ident
	Value  Expr
}

func (a *AssignNode) pos() int { return a.Target.Pos }

type ReturnNode struct {
	At    int
	Value Expr
}

func (r *ReturnNode) pos() int { return r.At }

// SendNode is one message. In a cascade the messages after the first have a nil Receiver.
type SendNode struct {
	Receiver Expr
	Selector string
	At       int // offset of the first selector part
	Args     []Expr
}

func (s *SendNode) pos() int { return s.At }

type CascadeNode struct {
	Receiver Expr
	Messages []*SendNode
}

func (c *CascadeNode) pos() int { return c.Receiver.pos() }

type LiteralKind int

const (
	LitNumber LiteralKind = iota
	LitString
	LitSymbol
	LitChar
	LitTrue
	LitFalse
	LitNil
	LitArray
	LitByteArray
)

type LiteralNode struct {
	Kind  LiteralKind
	At    int
	Value string         // decoded text for strings, symbols, characters; spelling for numbers
	Elems []*LiteralNode // for literal and byte arrays
}

func (l *LiteralNode) pos() int { return l.At }

type BlockNode struct {
	At     int
	Params []Ident
	Body   *Sequence
}

func (b *BlockNode) pos() int { return b.At }

type BraceNode struct {
	At    int
	Elems []Expr
}

func (b *BraceNode) pos() int { return b.At }

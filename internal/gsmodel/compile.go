package gsmodel

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

// The compiler turns the checker's syntax tree into Go closures. Names are resolved once, at
// compile time, as GemStone's compiler resolves them: temporaries and arguments, instance
// variables, class variables (up the superclass chain), pool dictionaries, then the symbol list
// the compile was given. A name found nowhere is CompileError 1031 (undefined symbol).

// Method is a compiled method (GsNMethod) or a native kernel method.
type Method struct {
	selector    string
	class       *Object // the class it is defined in
	source      string
	category    string
	envID       int
	nargs       int
	nvars       int
	body        func(f *frame) Value
	prim        primFn
	nlr         bool     // some block of it returns from the method (^ inside a block)
	makesBlocks bool     // its body makes a block, which may keep its frame (frame reuse, interp.go)
	sends       []string // selectors it sends, for sendersOf:
	globals     []*Object
	literals    []Value
	ivRead      []string
	ivWrite     []string
	names       []string // argument and temporary names, in slot order (frames.go)
	home        *Method  // for a block's method: the method it is in (frames.go)
	steps       []int    // its step points' source offsets, its blocks' included, in compile order (steps.go)
	doit        bool     // compiled from a doit: no class or selector of its own (frames.go)
	kernel      bool     // part of the model's kernel, not the user's code
	obj         *Object
}

type primFn func(s *Session, self Value, args []Value) Value

type blockCode struct {
	nargs       int
	nvars       int
	body        func(f *frame) Value
	home        *Method
	meth        *Method // the block's own GsNMethod: its names, and homeMethod (frames.go)
	makesBlocks bool    // as Method.makesBlocks
	inlined     bool    // a block GemStone's compiler inlines into its enclosing code (steps.go)
}

type frame struct {
	self   Value
	method *Method
	vars   []Value
	outer  *frame // the lexically enclosing frame (blocks only)
	home   *frame // the method's frame
	dead   bool
	s      *Session
	block  *Block            // the block this frame runs, nil for a method
	pos    int               // 1-based source offset of the send running in this frame (its ip, frames.go)
	seq    uint64            // this activation's number (Session.frameSeq), for stepping (steps.go)
	slots  [frameSlots]Value // vars when they fit: one allocation per activation, not two
}

// frameSlots is how many temporaries a frame holds without a second allocation.
const frameSlots = 4

// newFrame answers a frame with n temporaries, all nil: one the session released, else a new one.
func (s *Session) newFrame(n int) *frame {
	var f *frame
	if k := len(s.freeFrames); k > 0 {
		f = s.freeFrames[k-1]
		s.freeFrames = s.freeFrames[:k-1]
		f.outer, f.dead, f.block, f.pos = nil, false, nil, 0
	} else {
		f = &frame{}
	}
	if n <= frameSlots {
		f.vars = f.slots[:n:n]
		clear(f.vars)
	} else {
		f.vars = make([]Value, n)
	}
	return f
}

// releaseFrame takes back the frame of an activation that returned, when nothing can still
// reach it: code that makes no block hands its frame to no one (only a block keeps its outer
// and home frames). An activation ended by an unwind is not released; the collector takes it.
// newFrame clears what the next activation must not see.
func (s *Session) releaseFrame(f *frame) {
	if len(s.freeFrames) < maxFreeFrames {
		s.freeFrames = append(s.freeFrames, f)
	}
}

// maxFreeFrames bounds the frames a session keeps for reuse.
const maxFreeFrames = 64

// compileErr is one compile error in GemStone's errorDetails shape: {number. offset. text}.
type compileErr struct {
	number int
	offset int // in bytes of the source, from 0
	chars  int // the same place in characters, from 0: errorDetails reports it, as GemStone does
	text   string
	name   string
}

// scope is one lexical level: a method or doit, or a block.
type scope struct {
	names []string
	outer *scope
}

func (sc *scope) find(name string) (depth, idx int, ok bool) {
	for d, s := 0, sc; s != nil; d, s = d+1, s.outer {
		for i := len(s.names) - 1; i >= 0; i-- {
			if s.names[i] == name {
				return d, i, true
			}
		}
	}
	return 0, 0, false
}

type compiler struct {
	s        *Session
	cls      *Object // the class the code compiles in (nil class for a doit: UndefinedObject)
	dicts    []*Object
	m        *Method
	errs     []compileErr
	warnings []compileErr
	ivars    []string
	// makesBlocks is the flag of the code being compiled (the method, or the innermost block)
	// that a block literal in it sets.
	makesBlocks *bool
	inlined     map[*gscheck.BlockNode]bool // block literals GemStone inlines (markInlined, steps.go)
}

// compileMethod compiles method source for cls. It answers the method or the compile errors.
func (s *Session) compileMethod(cls *Object, src string, dicts []*Object) (method *Method, errs, warns []compileErr) {
	defer func() { countCharacters(src, errs, warns) }()
	node, err := gscheck.ParseMethod(src)
	if err != nil {
		return nil, []compileErr{syntaxErr(err)}, nil
	}
	c := &compiler{s: s, cls: cls, dicts: dicts}
	c.ivars = s.allInstVarNames(cls)
	m := &Method{selector: node.Selector, class: cls, source: src, nargs: len(node.Args)}
	c.m = m
	c.makesBlocks = &m.makesBlocks
	sc := &scope{}
	for _, a := range node.Args {
		c.declare(sc, a)
	}
	for _, t := range node.Body.Temps {
		c.declare(sc, t)
	}
	for _, p := range node.Pragmas {
		if strings.HasPrefix(p.Selector, "primitive") {
			c.errs = append(c.errs, compileErr{number: 1001, offset: p.At,
				text: "the model compiles no primitives (" + p.Selector + ")"})
		}
	}
	stmts := c.statements(node.Body.Stmts, sc)
	m.nvars = len(sc.names)
	m.names = sc.names
	if len(c.errs) > 0 {
		return nil, c.errs, c.warnings
	}
	m.body = func(f *frame) Value {
		for _, st := range stmts {
			v, ret := st(f)
			if ret {
				return v
			}
		}
		return f.self
	}
	return m, nil, c.warnings
}

// compileDoit compiles doit source as a method of no arguments whose last statement's value is
// its answer.
func (s *Session) compileDoit(src string, self Value, dicts []*Object) (method *Method, errs, warns []compileErr) {
	defer func() { countCharacters(src, errs, warns) }()
	seq, err := gscheck.ParseDoit(src)
	if err != nil {
		return nil, []compileErr{syntaxErr(err)}, nil
	}
	cls := s.classOf(self)
	c := &compiler{s: s, cls: cls, dicts: dicts}
	c.ivars = s.allInstVarNames(cls)
	m := &Method{selector: "executedCode", class: cls, source: src, doit: true}
	c.m = m
	c.makesBlocks = &m.makesBlocks
	sc := &scope{}
	for _, t := range seq.Temps {
		c.declare(sc, t)
	}
	stmts := c.statements(seq.Stmts, sc)
	m.nvars = len(sc.names)
	m.names = sc.names
	if len(c.errs) > 0 {
		return nil, c.errs, c.warnings
	}
	m.body = func(f *frame) Value {
		var last Value
		for _, st := range stmts {
			v, ret := st(f)
			if ret {
				return v
			}
			last = v
		}
		return last
	}
	return m, nil, c.warnings
}

// countCharacters sets each error's offset in characters from its offset in bytes: the parser
// counts bytes, GemStone's errorDetails count characters, which differ past a non-ASCII one.
func countCharacters(src string, lists ...[]compileErr) {
	for _, l := range lists {
		for i := range l {
			off := min(max(l[i].offset, 0), len(src))
			l[i].chars = utf8.RuneCountInString(src[:off]) + l[i].offset - off
		}
	}
}

func syntaxErr(err error) compileErr {
	off, _ := gscheck.SyntaxErrorOffset(err)
	return compileErr{number: 1001, offset: off, text: err.Error()}
}

func (c *compiler) declare(sc *scope, id gscheck.Ident) {
	for _, n := range sc.names {
		if n == id.Name {
			c.errs = append(c.errs, compileErr{number: 1030, offset: id.Pos, text: "variable has already been declared", name: id.Name})
			return
		}
	}
	for _, iv := range c.ivars {
		if iv == id.Name {
			c.errs = append(c.errs, compileErr{number: 1030, offset: id.Pos, text: "variable has already been declared", name: id.Name})
			return
		}
	}
	if sc.outer != nil {
		if _, _, ok := sc.outer.find(id.Name); ok {
			// GemStone compiles a temporary that hides an outer one, with a CompileWarning
			// (Rowan and Jasper resume warnings of this kind).
			c.warnings = append(c.warnings, compileErr{number: 2, offset: id.Pos, text: "temporary " + id.Name + " hides an outer one", name: id.Name})
		}
	}
	sc.names = append(sc.names, id.Name)
}

type stmtFn func(f *frame) (Value, bool)

func (c *compiler) statements(stmts []gscheck.Expr, sc *scope) []stmtFn {
	out := make([]stmtFn, 0, len(stmts))
	for _, st := range stmts {
		if r, ok := st.(*gscheck.ReturnNode); ok {
			val := c.expr(r.Value, sc)
			out = append(out, func(f *frame) (Value, bool) { return val(f), true })
			continue
		}
		e := c.expr(st, sc)
		out = append(out, func(f *frame) (Value, bool) { return e(f), false })
	}
	return out
}

type exprFn = func(f *frame) Value

func (c *compiler) expr(e gscheck.Expr, sc *scope) exprFn {
	switch n := e.(type) {
	case *gscheck.LiteralNode:
		v := c.literal(n)
		c.m.literals = append(c.m.literals, v)
		return func(*frame) Value { return v }
	case *gscheck.VarRef:
		return c.varRef(n.Ident, sc)
	case *gscheck.AssignNode:
		return c.assign(n, sc)
	case *gscheck.SendNode:
		return c.send(n, sc)
	case *gscheck.CascadeNode:
		return c.cascade(n, sc)
	case *gscheck.BlockNode:
		return c.block(n, sc)
	case *gscheck.BraceNode:
		elems := make([]exprFn, len(n.Elems))
		for i, x := range n.Elems {
			elems[i] = c.expr(x, sc)
		}
		return func(f *frame) Value {
			vals := make([]Value, len(elems))
			for i, x := range elems {
				vals[i] = x(f)
			}
			return f.s.newArray(vals)
		}
	case *gscheck.ReturnNode:
		// only inside a block: a return from the home method
		val := c.expr(n.Value, sc)
		c.m.nlr = true
		return func(f *frame) Value {
			v := val(f)
			panic(&nonLocalReturn{home: f.home, value: v})
		}
	}
	c.errs = append(c.errs, compileErr{number: 1001, offset: gscheck.Offset(e), text: fmt.Sprintf("unexpected node %T", e)})
	return func(*frame) Value { return nil }
}

type nonLocalReturn struct {
	home  *frame
	value Value
}

func (c *compiler) varRef(id gscheck.Ident, sc *scope) exprFn {
	switch id.Name {
	case "self":
		return func(f *frame) Value { return f.self }
	case "super":
		return func(f *frame) Value { return f.self }
	case "nil":
		return func(*frame) Value { return nil }
	case "true":
		return func(*frame) Value { return true }
	case "false":
		return func(*frame) Value { return false }
	case "thisContext":
		c.errs = append(c.errs, compileErr{number: 1001, offset: id.Pos, text: "thisContext is not modelled"})
		return func(*frame) Value { return nil }
	}
	if d, i, ok := sc.find(id.Name); ok {
		return func(f *frame) Value {
			for k := 0; k < d; k++ {
				f = f.outer
			}
			return f.vars[i]
		}
	}
	for i, iv := range c.ivars {
		if iv == id.Name {
			c.m.ivRead = appendOnce(c.m.ivRead, iv)
			return func(f *frame) Value { return f.s.ivarGet(f.self, i) }
		}
	}
	if assoc := c.global(id); assoc != nil {
		c.m.globals = append(c.m.globals, assoc)
		return func(f *frame) Value { return f.s.assocValue(assoc) }
	}
	return func(*frame) Value { return nil }
}

func appendOnce(l []string, s string) []string {
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}

// global resolves a name to its association: class variables, pools, then the dictionaries.
func (c *compiler) global(id gscheck.Ident) *Object {
	s := c.s
	cls := c.cls
	if cls != nil && s.rd(cls).class.isMeta {
		cls = s.rd(cls).class.thisClass
	}
	for k := cls; k != nil; k = s.rd(k).class.superclass {
		cd := s.rd(k).class
		if a, ok := cd.classVars[id.Name]; ok {
			return a
		}
		for _, p := range cd.pools {
			if a := s.dictAssoc(p, s.symbol(id.Name)); a != nil {
				return a
			}
		}
	}
	sym := s.symbol(id.Name)
	for _, d := range c.dicts {
		if a := s.dictAssoc(d, sym); a != nil {
			return a
		}
	}
	c.errs = append(c.errs, compileErr{number: 1031, offset: id.Pos, text: "undefined symbol " + id.Name, name: id.Name})
	return nil
}

func (c *compiler) assign(n *gscheck.AssignNode, sc *scope) exprFn {
	val := c.expr(n.Value, sc)
	name := n.Target.Name
	if d, i, ok := sc.find(name); ok {
		return func(f *frame) Value {
			v := val(f)
			g := f
			for k := 0; k < d; k++ {
				g = g.outer
			}
			g.vars[i] = v
			return v
		}
	}
	for i, iv := range c.ivars {
		if iv == name {
			c.m.ivWrite = appendOnce(c.m.ivWrite, iv)
			return func(f *frame) Value {
				v := val(f)
				f.s.ivarPut(f.self, i, v)
				return v
			}
		}
	}
	if assoc := c.global(n.Target); assoc != nil {
		return func(f *frame) Value {
			v := val(f)
			f.s.assocPut(assoc, v)
			return v
		}
	}
	return val
}

func (c *compiler) args(nodes []gscheck.Expr, sc *scope) []exprFn {
	out := make([]exprFn, len(nodes))
	for i, a := range nodes {
		out[i] = c.expr(a, sc)
	}
	return out
}

func isSuper(e gscheck.Expr) bool {
	v, ok := e.(*gscheck.VarRef)
	return ok && v.Name == "super"
}

func (c *compiler) send(n *gscheck.SendNode, sc *scope) exprFn {
	c.markInlined(n)
	recv := c.expr(n.Receiver, sc)
	return c.message(n, recv, isSuper(n.Receiver), sc)
}

// message compiles one message to an already-compiled receiver.
func (c *compiler) message(n *gscheck.SendNode, recv exprFn, super bool, sc *scope) exprFn {
	c.m.sends = appendOnce(c.m.sends, n.Selector)
	args := c.args(n.Args, sc)
	sel := n.Selector
	at := n.At + 1 // the send's ip: where its selector starts, 1-based as GemStone's offsets
	c.m.steps = append(c.m.steps, at)
	if super {
		defining := c.cls
		return func(f *frame) Value {
			r := recv(f)
			vals := evalArgs(f, args)
			f.s.atStepPoint(f, at)
			f.pos = at
			return f.s.superSend(defining, r, sel, vals)
		}
	}
	site := &sendSite{sel: sel}
	switch len(args) {
	case 0:
		return func(f *frame) Value {
			r := recv(f)
			f.s.atStepPoint(f, at)
			f.pos = at
			return f.s.sendAt(site, r, nil)
		}
	case 1:
		a0 := args[0]
		if op := smallIntegerOps[sel]; op != nil {
			return func(f *frame) Value {
				r, a := recv(f), a0(f)
				f.s.atStepPoint(f, at)
				if x, ok := r.(int64); ok {
					if y, ok := a.(int64); ok {
						if v, ok := op(x, y); ok {
							return v
						}
					}
				}
				f.pos = at
				return f.s.sendAt1(site, r, a)
			}
		}
		return func(f *frame) Value {
			r := recv(f)
			a := a0(f)
			f.s.atStepPoint(f, at)
			f.pos = at
			return f.s.sendAt1(site, r, a)
		}
	}
	return func(f *frame) Value {
		r := recv(f)
		vals := evalArgs(f, args)
		f.s.atStepPoint(f, at)
		f.pos = at
		return f.s.sendAt(site, r, vals)
	}
}

// smallIntegerOps are the arithmetic and comparisons a send of two SmallIntegers answers without
// a lookup: a cost the interpreter saves, not a behaviour. Each answers exactly what the Number
// primitive of the same selector (or Object>>~=) answers for two SmallIntegers; ok is false when
// the result is no SmallInteger, and the send goes the usual way.
var smallIntegerOps = map[string]func(x, y int64) (Value, bool){
	"+":  func(x, y int64) (Value, bool) { return smallResult(x + y) },
	"-":  func(x, y int64) (Value, bool) { return smallResult(x - y) },
	"<":  func(x, y int64) (Value, bool) { return x < y, true },
	">":  func(x, y int64) (Value, bool) { return x > y, true },
	"<=": func(x, y int64) (Value, bool) { return x <= y, true },
	">=": func(x, y int64) (Value, bool) { return x >= y, true },
	"=":  func(x, y int64) (Value, bool) { return x == y, true },
	"~=": func(x, y int64) (Value, bool) { return x != y, true },
}

// smallResult answers r when it is a SmallInteger. The operands are SmallIntegers (61 bits), so
// their int64 sum or difference is exact.
func smallResult(r int64) (Value, bool) {
	if r < smallMin || r > smallMax {
		return nil, false
	}
	return r, true
}

func evalArgs(f *frame, args []exprFn) []Value {
	vals := make([]Value, len(args))
	for i, a := range args {
		vals[i] = a(f)
	}
	return vals
}

func (c *compiler) cascade(n *gscheck.CascadeNode, sc *scope) exprFn {
	// Each part's innermost message has a nil Receiver: it goes to the cascade's receiver, held
	// in a hidden temporary of the current frame; further messages of a part go to the result
	// of the previous one.
	inner := c.expr(n.Receiver, sc)
	slot := len(sc.names)
	sc.names = append(sc.names, fmt.Sprintf(" cascade%d", slot))
	holder := func(f *frame) Value { return f.vars[slot] }
	super := isSuper(n.Receiver)
	msgs := make([]exprFn, len(n.Messages))
	for i, m := range n.Messages {
		msgs[i] = c.cascadePart(m, holder, super, sc)
	}
	return func(f *frame) Value {
		f.vars[slot] = inner(f)
		var v Value
		for _, m := range msgs {
			v = m(f)
		}
		return v
	}
}

func (c *compiler) cascadePart(m *gscheck.SendNode, holder exprFn, super bool, sc *scope) exprFn {
	if m.Receiver == nil {
		return c.message(m, holder, super, sc)
	}
	prev, ok := m.Receiver.(*gscheck.SendNode)
	if !ok {
		return c.message(m, c.expr(m.Receiver, sc), false, sc)
	}
	return c.message(m, c.cascadePart(prev, holder, super, sc), false, sc)
}

func (c *compiler) block(n *gscheck.BlockNode, sc *scope) exprFn {
	bs := &scope{outer: sc}
	for _, p := range n.Params {
		c.declare(bs, p)
	}
	for _, t := range n.Body.Temps {
		c.declare(bs, t)
	}
	*c.makesBlocks = true
	code := &blockCode{nargs: len(n.Params), home: c.m, inlined: c.inlined[n]}
	outer := c.makesBlocks
	c.makesBlocks = &code.makesBlocks
	stmts := c.blockStatements(n.Body.Stmts, bs)
	c.makesBlocks = outer
	code.body = func(f *frame) Value {
		var last Value
		for _, st := range stmts {
			last = st(f)
		}
		return last
	}
	code.nvars = len(bs.names)
	code.meth = &Method{selector: c.m.selector, class: c.cls, source: c.m.source, nargs: code.nargs,
		nvars: code.nvars, names: bs.names, home: c.m}
	return func(f *frame) Value { return &Block{code: code, outer: f} }
}

func (c *compiler) blockStatements(stmts []gscheck.Expr, sc *scope) []exprFn {
	out := make([]exprFn, 0, len(stmts))
	for _, st := range stmts {
		out = append(out, c.expr(st, sc))
	}
	return out
}

// literal converts a literal node to its value. Literal strings and arrays are made once per
// compile and shared by every execution, as a method's literal frame is.
func (c *compiler) literal(n *gscheck.LiteralNode) Value {
	s := c.s
	switch n.Kind {
	case gscheck.LitNumber:
		v, err := parseNumber(n.Value)
		if err != nil {
			c.errs = append(c.errs, compileErr{number: 1001, offset: n.At, text: err.Error()})
		}
		return v
	case gscheck.LitString:
		return s.newString(n.Value)
	case gscheck.LitSymbol:
		return s.symbol(n.Value)
	case gscheck.LitChar:
		r := []rune(n.Value)
		if len(r) != 1 {
			c.errs = append(c.errs, compileErr{number: 1001, offset: n.At, text: "bad character literal"})
			return nil
		}
		return Char(r[0])
	case gscheck.LitTrue:
		return true
	case gscheck.LitFalse:
		return false
	case gscheck.LitNil:
		return nil
	case gscheck.LitArray:
		vals := make([]Value, len(n.Elems))
		for i, e := range n.Elems {
			vals[i] = c.literal(e)
		}
		return s.newArray(vals)
	case gscheck.LitByteArray:
		b := make([]rune, len(n.Elems))
		for i, e := range n.Elems {
			v, _ := strconv.Atoi(e.Value)
			b[i] = rune(v)
		}
		return s.newBytes(s.img.k.ByteArray, b)
	}
	return nil
}

// parseNumber reads a number literal's spelling: integers, radix integers, floats with e/d/q
// exponents. Scaled decimals and fractions are not modelled.
func parseNumber(t string) (Value, error) {
	neg := strings.HasPrefix(t, "-")
	body := strings.TrimPrefix(t, "-")
	if i := strings.IndexByte(body, 'r'); i > 0 {
		radix, err := strconv.Atoi(body[:i])
		if err != nil {
			return nil, fmt.Errorf("bad radix in %s", t)
		}
		digits := body[i+1:]
		if strings.HasPrefix(digits, "-") {
			neg = !neg
			digits = digits[1:]
		}
		b, ok := new(big.Int).SetString(digits, radix)
		if !ok {
			return nil, fmt.Errorf("bad radix integer %s", t)
		}
		if neg {
			b.Neg(b)
		}
		return normInt(b), nil
	}
	if strings.ContainsAny(body, "s/") {
		return nil, fmt.Errorf("scaled decimals and fractions are not modelled: %s", t)
	}
	if strings.ContainsAny(body, ".eEdq") {
		f := strings.NewReplacer("d", "e", "q", "e").Replace(body)
		f = strings.TrimSuffix(f, "e")
		v, err := strconv.ParseFloat(f, 64)
		if err != nil && !math.IsInf(v, 0) {
			return nil, fmt.Errorf("bad float %s", t)
		}
		if neg {
			v = -v
		}
		return v, nil
	}
	b, ok := new(big.Int).SetString(body, 10)
	if !ok {
		return nil, fmt.Errorf("bad integer %s", t)
	}
	if neg {
		b.Neg(b)
	}
	return normInt(b), nil
}

package gsmodel

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numbers: SmallInteger and LargeInteger share exact arithmetic (math/big past 61 bits); a
// Float operand makes the result a Float. Fractions and ScaledDecimals are not modelled: an
// integer division with a remainder refuses rather than answer a Fraction.

func (s *Session) num(v Value) (Value, bool) {
	switch v.(type) {
	case int64, *big.Int, float64:
		return v, true
	}
	return nil, false
}

func asFloat(v Value) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case *big.Int:
		f, _ := new(big.Float).SetInt(n).Float64()
		return f
	case float64:
		return n
	}
	return math.NaN()
}

func (s *Session) arith(op string, a, b Value) Value {
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			switch op {
			case "+":
				if r, ok := smallResult(x + y); ok {
					return r
				}
			case "-":
				if r, ok := smallResult(x - y); ok {
					return r
				}
			}
		}
	}
	if _, ok := s.num(b); !ok {
		return s.signalNew("ArgumentTypeError", 2094, "a Number expected as the argument of #"+op+", got "+s.printString(b), nil)
	}
	_, af := a.(float64)
	_, bf := b.(float64)
	if af || bf {
		x, y := asFloat(a), asFloat(b)
		switch op {
		case "+":
			return x + y
		case "-":
			return x - y
		case "*":
			return x * y
		case "/":
			return s.floatQuotient(a, x, y)
		case "//", "\\\\":
			if y == 0 {
				return s.signalNew("ZeroDivide", 2026, "", nil)
			}
			switch op {
			case "//":
				return floatToInt(math.Floor(x / y))
			}
			return x - math.Floor(x/y)*y
		}
		return s.refuse("#%s on a Float", op)
	}
	x, y := bigOf(a), bigOf(b)
	if y.Sign() == 0 && isDivision(op) {
		return s.signalNew("ZeroDivide", 2026, "", nil)
	}
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "/":
		m := new(big.Int)
		r.QuoRem(x, y, m)
		if m.Sign() != 0 {
			return s.refuse("%s / %s answers a Fraction, which the model does not model", x, y)
		}
	case "//", "\\\\":
		q, m := new(big.Int).DivMod(x, y, new(big.Int)) // Euclidean; adjust to floored for a negative divisor
		if m.Sign() != 0 && y.Sign() < 0 {
			q.Add(q, big.NewInt(1))
			m.Add(m, y)
		}
		r = pick(op == "//", q, m)
	case "quo:", "rem:":
		q, m := new(big.Int).QuoRem(x, y, new(big.Int))
		r = pick(op == "quo:", q, m)
	case "bitAnd:":
		r.And(x, y)
	case "bitOr:":
		r.Or(x, y)
	case "bitXor:":
		r.Xor(x, y)
	case "bitShift:":
		n := y.Int64()
		if n >= 0 {
			r.Lsh(x, uint(n))
		} else {
			r.Rsh(x, uint(-n))
		}
	case "gcd:":
		r.GCD(nil, nil, new(big.Int).Abs(x), new(big.Int).Abs(y))
	case "raisedTo:":
		if y.Sign() < 0 {
			return s.refuse("a negative integer power answers a Fraction")
		}
		r.Exp(x, y, nil)
	default:
		return s.refuse("#%s on an Integer", op)
	}
	return normInt(r)
}

// isDivision tells the integer operations that signal ZeroDivide for a zero argument.
func isDivision(op string) bool {
	switch op {
	case "/", "//", "\\\\", "quo:", "rem:":
		return true
	}
	return false
}

// pick answers the quotient when quotient is true, else the remainder.
func pick(quotient bool, q, m *big.Int) *big.Int {
	if quotient {
		return q
	}
	return m
}

func floatToInt(f float64) Value {
	if f >= -9e18 && f <= 9e18 {
		return normInt(big.NewInt(int64(f)))
	}
	b, _ := big.NewFloat(f).Int(nil)
	return normInt(b)
}

func (s *Session) compare(a, b Value) (int, bool) {
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
	}
	if _, ok := s.num(b); !ok {
		return 0, false
	}
	_, af := a.(float64)
	_, bf := b.(float64)
	if af || bf {
		x, y := asFloat(a), asFloat(b)
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	return bigOf(a).Cmp(bigOf(b)), true
}

// smallIntegerLoopPrims: to:do: between two SmallIntegers with a one-argument block runs its
// loop in Go, a cost the interpreter saves: it evaluates the block for the same indices, each in
// a fresh activation, and answers the receiver, as Number>>to:do: in the kernel file-in does
// (whose <= and + of two SmallIntegers cannot be redefined to answer otherwise here). Any other
// to:do: is Number's.
func (img *Image) smallIntegerLoopPrims(s *Session) {
	img.prim(s, "SmallInteger", "to:do:", func(s *Session, a Value, x []Value) Value {
		from := a.(int64)
		to, ok := x[0].(int64)
		blk, isBlock := x[1].(*Block)
		if !ok || !isBlock || blk.code.nargs != 1 {
			return s.invoke(s.lookup(s.img.k.Number, "to:do:"), a, x)
		}
		for i := from; i <= to; i++ {
			s.callBlock(blk, []Value{i})
		}
		return a
	})
}

func (img *Image) numberPrims(s *Session) {
	img.smallIntegerLoopPrims(s)
	for _, op := range []string{"+", "-", "*", "/", "//", "\\\\", "rem:", "quo:", "bitAnd:", "bitOr:",
		"bitXor:", "bitShift:", "gcd:", "raisedTo:"} {
		op := op
		img.prim(s, "Number", op, func(s *Session, a Value, x []Value) Value { return s.arith(op, a, x[0]) })
	}
	cmp := func(test func(int) bool, name string) primFn {
		return func(s *Session, a Value, x []Value) Value {
			c, ok := s.compare(a, x[0])
			if !ok {
				return s.signalNew("ArgumentTypeError", 2094, "a Number expected as the argument of #"+name+", got "+s.printString(x[0]), nil)
			}
			return test(c)
		}
	}
	img.prim(s, "Number", "<", cmp(func(c int) bool { return c < 0 }, "<"))
	img.prim(s, "Number", ">", cmp(func(c int) bool { return c > 0 }, ">"))
	img.prim(s, "Number", "<=", cmp(func(c int) bool { return c <= 0 }, "<="))
	img.prim(s, "Number", ">=", cmp(func(c int) bool { return c >= 0 }, ">="))
	img.prim(s, "Number", "=", func(s *Session, a Value, x []Value) Value {
		c, ok := s.compare(a, x[0])
		return ok && c == 0
	})
	img.prim(s, "Number", "hash", func(s *Session, a Value, x []Value) Value {
		if f, ok := a.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1e18 {
			return int64(f) & 0xFFFFFFF
		}
		return s.identityHash(a)
	})
	img.prim(s, "Number", "asFloat", func(s *Session, a Value, x []Value) Value { return asFloat(a) })
	img.prim(s, "Number", "truncated", func(s *Session, a Value, x []Value) Value { return s.roundWith(a, math.Trunc) })
	img.prim(s, "Number", "floor", func(s *Session, a Value, x []Value) Value { return s.roundWith(a, math.Floor) })
	img.prim(s, "Number", "ceiling", func(s *Session, a Value, x []Value) Value { return s.roundWith(a, math.Ceil) })
	img.prim(s, "Number", "rounded", func(s *Session, a Value, x []Value) Value {
		return s.roundWith(a, func(f float64) float64 { return math.Floor(f + 0.5) })
	})
	img.prim(s, "Number", "asInteger", func(s *Session, a Value, x []Value) Value { return s.roundWith(a, math.Trunc) })
	img.prim(s, "Number", "sqrt", func(s *Session, a Value, x []Value) Value { return math.Sqrt(asFloat(a)) })
	img.prim(s, "Number", "printString:", func(s *Session, a Value, x []Value) Value {
		b := bigOf(a)
		if b == nil {
			return s.refuse("printString: on a Float")
		}
		return s.newString(strings.ToUpper(b.Text(s.argInt(x[0]))))
	})
	img.prim(s, "Integer", "asCharacter", func(s *Session, a Value, x []Value) Value { return s.charFromCode(a) })
	img.prim(s, "Character class", "codePoint:", func(s *Session, a Value, x []Value) Value { return s.charFromCode(x[0]) })
	img.prim(s, "Character class", "value:", func(s *Session, a Value, x []Value) Value { return s.charFromCode(x[0]) })
	img.prim(s, "Character", "codePoint", func(s *Session, a Value, x []Value) Value { return int64(a.(Char)) })
	img.prim(s, "Character", "value", func(s *Session, a Value, x []Value) Value { return int64(a.(Char)) })
	img.prim(s, "Character", "asUppercase", func(s *Session, a Value, x []Value) Value {
		return Char([]rune(strings.ToUpper(string(rune(a.(Char)))))[0])
	})
	img.prim(s, "Character", "asLowercase", func(s *Session, a Value, x []Value) Value {
		return Char([]rune(strings.ToLower(string(rune(a.(Char)))))[0])
	})
	img.prim(s, "Character", "<", func(s *Session, a Value, x []Value) Value { return a.(Char) < s.argChar(x[0]) })
	img.prim(s, "Character", ">", func(s *Session, a Value, x []Value) Value { return a.(Char) > s.argChar(x[0]) })
	img.prim(s, "Character", "<=", func(s *Session, a Value, x []Value) Value { return a.(Char) <= s.argChar(x[0]) })
	img.prim(s, "Character", ">=", func(s *Session, a Value, x []Value) Value { return a.(Char) >= s.argChar(x[0]) })
	img.prim(s, "Float", "printString", func(s *Session, a Value, x []Value) Value { return s.newString(formatFloat(a.(float64))) })
	img.prim(s, "Integer", "printString", func(s *Session, a Value, x []Value) Value { return s.newString(s.basicPrint(a)) })
	img.prim(s, "Number", "_asString", func(s *Session, a Value, x []Value) Value { return s.newString(s.basicPrint(a)) })
}

func (s *Session) argChar(v Value) Char {
	c, ok := v.(Char)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "a Character expected, got "+s.printString(v), nil)
	}
	return c
}

func (s *Session) roundWith(a Value, fn func(float64) float64) Value {
	if f, ok := a.(float64); ok {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return s.signalNew("ArgumentError", 2718, "cannot round "+formatFloat(f), nil)
		}
		return floatToInt(fn(f))
	}
	return a
}

// charFromCode is Character codePoint:. A surrogate code point is OutOfRange 2723 on 3.7
// (gemstone-smalltalk.md s5).
func (s *Session) charFromCode(v Value) Value {
	n, ok := v.(int64)
	if !ok || n < 0 || n > 0x10FFFF {
		return s.signalNew("OutOfRange", 2723, "no Character has the code point "+s.printString(v), nil)
	}
	if n >= 0xD800 && n <= 0xDFFF {
		return s.signalNew("OutOfRange", 2723, "the code point "+strconv.FormatInt(n, 10)+" is a surrogate", nil)
	}
	return Char(n)
}

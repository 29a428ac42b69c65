package gsmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The String family, Symbol, ByteArray and Utf8, with GemStone's documented traps modelled
// (gemstone-smalltalk.md s5): ByteArray>>asString is Object>>asString; a Unicode7 compared with a
// String raises ArgumentError; Unicode16 does not understand decodeFromUTF8; Utf8 has no at:put:.

func (s *Session) runes(v Value) []rune {
	o := s.argObj(v)
	return s.rd(o).by
}

func (s *Session) isUnicodeClass(cls *Object) bool {
	k := s.img.k
	return cls == k.Unicode7 || cls == k.Unicode16 || cls == k.Unicode32
}

// unicodeFor answers the Unicode class that holds r, as decodeFromUTF8 answers.
func (s *Session) unicodeFor(r []rune) *Object {
	k := s.img.k
	switch max := maxRune(r); {
	case max > 0xFFFF:
		return k.Unicode32
	case max > 0x7F:
		return k.Unicode16
	}
	return k.Unicode7
}

// stringEqual is = between two members of the String family.
func (s *Session) stringEqual(a, b *Object) Value {
	k := s.img.k
	if a.cls == k.Symbol || b.cls == k.Symbol {
		if a.cls == b.cls {
			return a == b
		}
		return s.refuse("comparing a %s with a %s (GemStone's answer is not attested; compare asString with asString)",
			s.className(a.cls), s.className(b.cls))
	}
	if s.isUnicodeClass(a.cls) != s.isUnicodeClass(b.cls) {
		return s.signalNew("ArgumentError", 2718, "a "+s.className(a.cls)+" cannot be compared with a "+s.className(b.cls), nil)
	}
	return string(s.rd(a).by) == string(s.rd(b).by)
}

// equal is Smalltalk = for the model's own uses (dictionary keys, includes:).
func (s *Session) equal(a, b Value) bool {
	if ao, ok := a.(*Object); ok {
		if bo, ok := b.(*Object); ok && s.isStringLike(ao) && s.isStringLike(bo) {
			return s.truthy(s.stringEqual(ao, bo))
		}
		if m := s.lookup(ao.cls, "="); m != nil && !m.kernel {
			return s.truthy(s.send(a, "=", []Value{b}))
		}
		if s.rd(ao).by != nil && !s.isStringLike(ao) {
			if bo, ok := b.(*Object); ok && bo.cls == ao.cls {
				return string(s.rd(ao).by) == string(s.rd(bo).by)
			}
		}
		return a == b
	}
	if _, ok := s.num(a); ok {
		c, ok := s.compare(a, b)
		return ok && c == 0
	}
	return identical(a, b)
}

func (s *Session) newLike(proto *Object, r []rune) *Object {
	cls := proto.cls
	k := s.img.k
	if cls == k.Symbol {
		cls = k.String
	}
	if s.isStringLike(proto) && !s.isUnicodeClass(cls) && s.widthOf(cls) < maxRune(r) {
		cls = s.stringClassFor(r)
	}
	if s.isUnicodeClass(cls) {
		cls = s.unicodeFor(r)
	}
	return s.newBytes(cls, r)
}

func maxRune(r []rune) rune {
	m := rune(0)
	for _, c := range r {
		if c > m {
			m = c
		}
	}
	return m
}

func (img *Image) stringPrims(s *Session) {
	img.stringComparisonPrims(s)
	img.stringConversionPrims(s)
	img.stringEncodingPrims(s)
	img.characterPrims(s)
}

// stringComparisonPrims: equality, hash and ordering of CharacterCollections.
func (img *Image) stringComparisonPrims(s *Session) {
	img.prim(s, "CharacterCollection", "=", func(s *Session, a Value, x []Value) Value {
		b, ok := x[0].(*Object)
		if !ok || !s.isStringLike(b) {
			return false
		}
		return s.stringEqual(a.(*Object), b)
	})
	img.prim(s, "CharacterCollection", "hash", func(s *Session, a Value, x []Value) Value {
		h := int64(0)
		for _, r := range s.runes(a) {
			h = (h*31 + int64(r)) & 0xFFFFFFF
		}
		return h
	})
	cmp := func(test func(int) bool) primFn {
		return func(s *Session, a Value, x []Value) Value {
			return test(strings.Compare(string(s.runes(a)), s.argString(x[0])))
		}
	}
	img.prim(s, "CharacterCollection", "<", cmp(func(c int) bool { return c < 0 }))
	img.prim(s, "CharacterCollection", ">", cmp(func(c int) bool { return c > 0 }))
	img.prim(s, "CharacterCollection", "<=", cmp(func(c int) bool { return c <= 0 }))
	img.prim(s, "CharacterCollection", ">=", cmp(func(c int) bool { return c >= 0 }))
}

// stringConversionPrims: concatenation, copying, case, searching, splitting, parsing and
// evaluating Strings.
func (img *Image) stringConversionPrims(s *Session) {
	img.prim(s, "ArrayedCollection", ",", func(s *Session, a Value, x []Value) Value { return s.concat(a.(*Object), x[0]) })
	img.prim(s, "ArrayedCollection", "copyFrom:to:", func(s *Session, a Value, x []Value) Value {
		return s.copyFromTo(a.(*Object), x[0], x[1])
	})
	img.prim(s, "Utf8", "copyFrom:to:", func(s *Session, a Value, x []Value) Value {
		return s.notUnderstood(a, "copyFrom:to:", x)
	})
	img.prim(s, "Utf8", "at:put:", func(s *Session, a Value, x []Value) Value { return s.notUnderstood(a, "at:put:", x) })
	img.prim(s, "CharacterCollection", "asSymbol", func(s *Session, a Value, x []Value) Value { return s.symbol(string(s.runes(a))) })
	img.prim(s, "CharacterCollection", "asString", func(s *Session, a Value, x []Value) Value {
		o := a.(*Object)
		if o.cls == s.img.k.String {
			return o
		}
		r := append([]rune(nil), s.runes(a)...)
		return s.newBytes(s.stringClassFor(r), r)
	})
	img.prim(s, "CharacterCollection", "asUppercase", func(s *Session, a Value, x []Value) Value {
		return s.newLike(a.(*Object), []rune(strings.ToUpper(string(s.runes(a)))))
	})
	img.prim(s, "CharacterCollection", "asLowercase", func(s *Session, a Value, x []Value) Value {
		return s.newLike(a.(*Object), []rune(strings.ToLower(string(s.runes(a)))))
	})
	img.prim(s, "CharacterCollection", "findString:startingAt:", func(s *Session, a Value, x []Value) Value {
		return int64(s.find(string(s.runes(a)), s.argString(x[0]), s.argInt(x[1]), false))
	})
	img.prim(s, "CharacterCollection", "includesString:", func(s *Session, a Value, x []Value) Value {
		// case-insensitive on GemStone (gemstone-smalltalk.md s5)
		return s.find(string(s.runes(a)), s.argString(x[0]), 1, true) > 0
	})
	img.prim(s, "CharacterCollection", "indexOfSubCollection:", func(s *Session, a Value, x []Value) Value {
		return int64(s.find(string(s.runes(a)), s.argString(x[0]), 1, false))
	})
	img.prim(s, "CharacterCollection", "trimSeparators", func(s *Session, a Value, x []Value) Value {
		return s.newLike(a.(*Object), []rune(strings.TrimFunc(string(s.runes(a)), unicode.IsSpace)))
	})
	img.prim(s, "CharacterCollection", "subStrings", func(s *Session, a Value, x []Value) Value {
		return s.splitOn(a.(*Object), func(r rune) bool { return unicode.IsSpace(r) })
	})
	img.prim(s, "CharacterCollection", "subStrings:", func(s *Session, a Value, x []Value) Value {
		var seps []rune
		if c, ok := x[0].(Char); ok {
			seps = []rune{rune(c)}
		} else {
			seps = s.runes(x[0])
		}
		return s.splitOn(a.(*Object), func(r rune) bool { return strings.ContainsRune(string(seps), r) })
	})
	img.prim(s, "CharacterCollection", "asNumber", func(s *Session, a Value, x []Value) Value {
		v, err := parseNumber(strings.TrimSpace(string(s.runes(a))))
		if err != nil {
			return nil
		}
		return v
	})
	img.prim(s, "CharacterCollection", "asInteger", func(s *Session, a Value, x []Value) Value {
		// '1-2' asInteger answers 1: the leading digits (gemstone-smalltalk.md s5)
		t := strings.TrimSpace(string(s.runes(a)))
		end := 0
		for end < len(t) && (t[end] >= '0' && t[end] <= '9' || end == 0 && t[end] == '-') {
			end++
		}
		v, err := parseNumber(t[:end])
		if err != nil || end == 0 {
			return nil
		}
		return v
	})
	img.prim(s, "CharacterCollection", "asSha256String", func(s *Session, a Value, x []Value) Value {
		sum := sha256.Sum256([]byte(string(s.runes(a))))
		return s.newString(hex.EncodeToString(sum[:]))
	})
	img.prim(s, "CharacterCollection", "evaluate", func(s *Session, a Value, x []Value) Value {
		return s.evaluate(string(s.runes(a)), nil)
	})
	img.prim(s, "CharacterCollection", "evaluateInContext:symbolList:", func(s *Session, a Value, x []Value) Value {
		return s.evaluateIn(string(s.runes(a)), x[0], s.elements(x[1]))
	})
}

// stringEncodingPrims: UTF-8 and ByteArray conversions.
func (img *Image) stringEncodingPrims(s *Session) {
	img.prim(s, "CharacterCollection", "encodeAsUTF8", func(s *Session, a Value, x []Value) Value {
		b := []byte(string(s.runes(a)))
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return s.newBytes(s.img.k.Utf8, r)
	})
	decode := func(s *Session, a Value, x []Value) Value {
		r, bad := decodeUTF8(s.runes(a))
		if bad >= 0 {
			return s.signalNew("ArgumentError", 2718, fmt.Sprintf("illegal UTF-8 at byte offset %d", bad), nil)
		}
		return s.newBytes(s.unicodeFor(r), r)
	}
	img.prim(s, "String", "decodeFromUTF8", decode)
	img.prim(s, "ByteArray", "decodeFromUTF8", decode)
	img.prim(s, "ByteArray", "decodeFromUTF8ToString", func(s *Session, a Value, x []Value) Value {
		r, bad := decodeUTF8(s.runes(a))
		if bad >= 0 {
			return s.signalNew("ArgumentError", 2718, fmt.Sprintf("illegal UTF-8 at byte offset %d", bad), nil)
		}
		return s.newBytes(s.stringClassFor(r), r)
	})
	img.prim(s, "ByteArray", "asByteArray", func(s *Session, a Value, x []Value) Value {
		return s.newBytes(s.img.k.ByteArray, append([]rune(nil), s.runes(a)...))
	})
	img.prim(s, "String", "asByteArray", func(s *Session, a Value, x []Value) Value {
		r := s.runes(a)
		if maxRune(r) > 0xFF {
			return s.signalNew("ArgumentTypeError", 2103, "a wide string is not a byte object", nil)
		}
		return s.newBytes(s.img.k.ByteArray, append([]rune(nil), r...))
	})
	img.prim(s, "ByteArray", "asHexString", func(s *Session, a Value, x []Value) Value {
		var b strings.Builder
		for _, r := range s.runes(a) {
			fmt.Fprintf(&b, "%02x", r)
		}
		return s.newString(b.String())
	})
}

// characterPrims: Character classification.
func (img *Image) characterPrims(s *Session) {
	img.prim(s, "Character", "isLetter", func(s *Session, a Value, x []Value) Value { return unicode.IsLetter(rune(a.(Char))) })
	img.prim(s, "Character", "isDigit", func(s *Session, a Value, x []Value) Value { return unicode.IsDigit(rune(a.(Char))) })
	img.prim(s, "Character", "isSeparator", func(s *Session, a Value, x []Value) Value {
		return strings.ContainsRune(" \t\n\r\f", rune(a.(Char)))
	})
	img.prim(s, "Character", "isUppercase", func(s *Session, a Value, x []Value) Value { return unicode.IsUpper(rune(a.(Char))) })
	img.prim(s, "Character", "isLowercase", func(s *Session, a Value, x []Value) Value { return unicode.IsLower(rune(a.(Char))) })
	img.prim(s, "Character", "digitValue", func(s *Session, a Value, x []Value) Value {
		c := rune(a.(Char))
		switch {
		case c >= '0' && c <= '9':
			return int64(c - '0')
		case c >= 'A' && c <= 'Z':
			return int64(c - 'A' + 10)
		}
		return int64(-1)
	})
}

// decodeUTF8 decodes bytes held as runes; it answers the offset of the first malformed byte,
// or -1.
func decodeUTF8(in []rune) ([]rune, int) {
	b := make([]byte, len(in))
	for i, r := range in {
		if r > 0xFF {
			return nil, i
		}
		b[i] = byte(r)
	}
	out := make([]rune, 0, len(b))
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return nil, i
		}
		out = append(out, r)
		i += n
	}
	return out, -1
}

func (s *Session) find(hay, needle string, start int, fold bool) int {
	h, n := []rune(hay), []rune(needle)
	if fold {
		h, n = []rune(strings.ToLower(hay)), []rune(strings.ToLower(needle))
	}
	if start < 1 {
		start = 1
	}
	for i := start - 1; i+len(n) <= len(h); i++ {
		if string(h[i:i+len(n)]) == string(n) {
			return i + 1
		}
	}
	return 0
}

func (s *Session) splitOn(o *Object, sep func(rune) bool) Value {
	parts := strings.FieldsFunc(string(s.rd(o).by), sep)
	vals := make([]Value, len(parts))
	for i, p := range parts {
		vals[i] = s.newLike(o, []rune(p))
	}
	return s.newArray(vals)
}

func (s *Session) concat(a *Object, b Value) Value {
	bo, ok := b.(*Object)
	if !ok {
		return s.signalNew("ArgumentTypeError", 2094, "cannot append "+s.printString(b)+" to a "+s.className(a.cls), nil)
	}
	as, bs := s.rd(a), s.rd(bo)
	if as.by != nil {
		var r []rune
		switch {
		case bs.by != nil:
			r = append(append([]rune(nil), as.by...), bs.by...)
		case bs.ix != nil:
			r = append([]rune(nil), as.by...)
			for _, e := range bs.ix {
				c, ok := s.byteValue(a, e)
				if !ok {
					return s.signalNew("ArgumentTypeError", 2103, "cannot append "+s.printString(e), nil)
				}
				r = append(r, c)
			}
		default:
			return s.signalNew("ArgumentTypeError", 2094, "cannot append "+s.printString(b)+" to a "+s.className(a.cls), nil)
		}
		if a.cls == s.img.k.Utf8 {
			return s.notUnderstood(a, ",", []Value{b})
		}
		return s.newLike(a, r)
	}
	vals := append(append([]Value(nil), as.ix...), s.elements(b)...)
	return s.newIndexed(a.cls, vals)
}

func (s *Session) copyFromTo(o *Object, from, to Value) Value {
	f, t := s.argInt(from), s.argInt(to)
	st := s.rd(o)
	n := len(st.ix)
	if st.by != nil {
		n = len(st.by)
	}
	if t < f-1 || f < 1 || t > n {
		return s.outOfRange(to, n)
	}
	if st.by != nil {
		return s.newLike(o, append([]rune(nil), st.by[f-1:t]...))
	}
	cls := o.cls
	if cls == s.img.k.Interval {
		cls = s.img.k.Array
	}
	return s.newIndexed(cls, append([]Value(nil), st.ix[f-1:t]...))
}

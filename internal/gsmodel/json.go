package gsmodel

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// The kernel's JSON, with its recorded behaviour (gemstone-smalltalk.md s5): JsonParser answers
// Dictionary (String keys), Array, String, Integer, Float, Boolean or nil; it accepts duplicate
// keys (the last wins) and drops an unknown escape; a surrogate escape is Character codePoint:
// of a surrogate, OutOfRange 2723; the empty string is a MessageNotUnderstood. asJson escapes
// non-ASCII as \uXXXX keeping only the low 16 bits of an astral code point.

type jsonReader struct {
	s   *Session
	in  []rune
	pos int
}

func (s *Session) parseJSON(text string) Value {
	if strings.TrimSpace(text) == "" {
		return s.notUnderstood(nil, "_jsonValue", nil)
	}
	r := &jsonReader{s: s, in: []rune(text)}
	v, err := r.value(0)
	if err != "" {
		return s.signalNew("Error", 2718, "JsonParser: "+err, nil)
	}
	return v
}

func (r *jsonReader) skip() {
	for r.pos < len(r.in) && strings.ContainsRune(" \t\r\n", r.in[r.pos]) {
		r.pos++
	}
}

func (r *jsonReader) fail(what string) (Value, string) {
	return nil, r.problem(what)
}

// problem is the error text for what was expected at the current position.
func (r *jsonReader) problem(what string) string {
	return fmt.Sprintf("%s at character %d", what, r.pos+1)
}

// eat consumes c when it is the next character.
func (r *jsonReader) eat(c rune) bool {
	if r.pos < len(r.in) && r.in[r.pos] == c {
		r.pos++
		return true
	}
	return false
}

// elements reads the members of an object or the elements of an array, the opening bracket
// already read: none, or each one (read by element) followed by ',' and another or by closing.
func (r *jsonReader) elements(closing rune, element func() string) string {
	r.skip()
	if r.eat(closing) {
		return ""
	}
	for {
		if err := element(); err != "" {
			return err
		}
		r.skip()
		if r.eat(closing) {
			return ""
		}
		if !r.eat(',') {
			return r.problem(fmt.Sprintf("',' or '%c' expected", closing))
		}
	}
}

func (r *jsonReader) value(depth int) (Value, string) {
	if depth > 10000 {
		return r.fail("nesting too deep")
	}
	r.skip()
	if r.pos >= len(r.in) {
		return r.fail("a value expected")
	}
	s := r.s
	switch c := r.in[r.pos]; {
	case c == '{':
		r.pos++
		d := s.newDictionary(s.img.k.Dictionary)
		err := r.elements('}', func() string {
			r.skip()
			if r.pos >= len(r.in) || r.in[r.pos] != '"' {
				return r.problem("a member name expected")
			}
			k, err := r.str()
			if err != "" {
				return err
			}
			r.skip()
			if !r.eat(':') {
				return r.problem("':' expected")
			}
			v, err := r.value(depth + 1)
			if err != "" {
				return err
			}
			s.dictAtPut(d, k, v)
			return ""
		})
		if err != "" {
			return nil, err
		}
		return d, ""
	case c == '[':
		r.pos++
		var vals []Value
		err := r.elements(']', func() string {
			v, err := r.value(depth + 1)
			vals = append(vals, v)
			return err
		})
		if err != "" {
			return nil, err
		}
		return s.newArray(vals), ""
	case c == '"':
		return r.str()
	case c == 't' && r.word("true"):
		return true, ""
	case c == 'f' && r.word("false"):
		return false, ""
	case c == 'n' && r.word("null"):
		return nil, ""
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	return r.fail("unexpected character")
}

func (r *jsonReader) word(w string) bool {
	if r.pos+len(w) <= len(r.in) && string(r.in[r.pos:r.pos+len(w)]) == w {
		r.pos += len(w)
		return true
	}
	return false
}

func (r *jsonReader) number() (Value, string) {
	start := r.pos
	for r.pos < len(r.in) && strings.ContainsRune("+-0123456789.eE", r.in[r.pos]) {
		r.pos++
	}
	t := string(r.in[start:r.pos])
	if strings.ContainsAny(t, ".eE") {
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return r.fail("a malformed number")
		}
		return f, ""
	}
	b, ok := new(big.Int).SetString(t, 10)
	if !ok {
		return r.fail("a malformed number")
	}
	return normInt(b), ""
}

func (r *jsonReader) str() (Value, string) {
	s := r.s
	r.pos++
	var out []rune
	for r.pos < len(r.in) {
		c := r.in[r.pos]
		r.pos++
		switch c {
		case '"':
			return s.newBytes(s.stringClassFor(out), out), ""
		case '\\':
			if r.pos >= len(r.in) {
				return r.fail("an unfinished escape")
			}
			e := r.in[r.pos]
			r.pos++
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			case 'r':
				out = append(out, '\r')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'u':
				if r.pos+4 > len(r.in) {
					return r.fail("a short \\u escape")
				}
				n, err := strconv.ParseUint(string(r.in[r.pos:r.pos+4]), 16, 32)
				if err != nil {
					return r.fail("a malformed \\u escape")
				}
				r.pos += 4
				ch := s.charFromCode(int64(n))
				out = append(out, rune(ch.(Char)))
			default:
				// an unknown escape is dropped silently
			}
		default:
			out = append(out, c)
		}
	}
	return r.fail("an unterminated string")
}

func (s *Session) kernelJSON(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool, int64, *big.Int:
		b.WriteString(s.basicPrint(x))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case *Object:
		st := s.rd(x)
		switch {
		case s.isStringLike(x):
			b.WriteByte('"')
			for _, r := range st.by {
				switch {
				case r == '"' || r == '\\':
					b.WriteByte('\\')
					b.WriteRune(r)
				case r < 0x20 || r > 0x7E:
					fmt.Fprintf(b, "\\u%04X", r&0xFFFF)
				default:
					b.WriteRune(r)
				}
			}
			b.WriteByte('"')
		case st.dict != nil && !s.isSetLike(x):
			b.WriteByte('{')
			first := true
			st.dict.each(func(k, val Value) {
				if !first {
					b.WriteByte(',')
				}
				first = false
				if s.isSymbolDictionary(x) {
					val = s.assocValue(val.(*Object))
				}
				s.kernelJSON(b, k)
				b.WriteByte(':')
				s.kernelJSON(b, val)
			})
			b.WriteByte('}')
		case st.ix != nil:
			b.WriteByte('[')
			for i, e := range st.ix {
				if i > 0 {
					b.WriteByte(',')
				}
				s.kernelJSON(b, e)
			}
			b.WriteByte(']')
		default:
			s.refuse("asJson of a %s", s.className(x.cls))
		}
	default:
		s.refuse("asJson of %s", s.printString(v))
	}
}

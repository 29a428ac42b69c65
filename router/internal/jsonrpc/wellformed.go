package jsonrpc

// maxNesting is how deep encoding/json lets arrays and objects nest; wellFormed refuses what it
// refuses, so that the front end and the Go code behind it agree on every body.
const maxNesting = 10000

// wellFormed says b is one JSON value (RFC 8259) with nothing but white space around it,
// exactly as encoding/json.Valid says it, in one pass with no call per byte: every POST body is
// checked so before it is read, and encoding/json's scanner was a third of the parse of a
// 2026-07-28 request (FuzzWellFormedAgreesWithEncodingJSON holds the two to the same answers).
func wellFormed(b []byte) bool {
	var room [32]byte
	open := room[:0] // the containers the value at i is inside: '{' or '['
	i := SkipSpace(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '{', '[':
			if len(open) >= maxNesting {
				return false
			}
			closer := b[i] + 2 // '}' and ']' follow '{' and '[' by two
			i = SkipSpace(b, i+1)
			if i < len(b) && b[i] == closer {
				i++
				break
			}
			open = append(open, closer-2)
			if closer == '}' {
				if i = memberName(b, i); i < 0 {
					return false
				}
			}
			continue
		case '"':
			i = endOfString(b, i)
		case 't':
			i = endOfLiteral(b, i, "true")
		case 'f':
			i = endOfLiteral(b, i, "false")
		case 'n':
			i = endOfLiteral(b, i, "null")
		default:
			i = endOfNumber(b, i)
		}
		if i < 0 {
			return false
		}
		// A value ended at i: close what it ends, then expect the next one or the end.
		for {
			i = SkipSpace(b, i)
			if len(open) == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			inside := open[len(open)-1]
			if b[i] == inside+2 {
				open = open[:len(open)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return false
			}
			i = SkipSpace(b, i+1)
			if inside == '{' {
				if i = memberName(b, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// memberName reads an object member's name and its colon at b[i]; it answers where the value
// starts, or -1.
func memberName(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	end := endOfString(b, i)
	if end < 0 {
		return -1
	}
	if i = SkipSpace(b, end); i >= len(b) || b[i] != ':' {
		return -1
	}
	return SkipSpace(b, i+1)
}

// endOfString answers the index past the string that opens at b[i], or -1 when it is not one:
// no control character, every escape one JSON has. Other bytes pass as encoding/json passes
// them (Parse has checked UTF-8 first).
func endOfString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func endOfLiteral(b []byte, i int, literal string) int {
	if len(b)-i < len(literal) || string(b[i:i+len(literal)]) != literal {
		return -1
	}
	return i + len(literal)
}

// endOfNumber answers the index past the number at b[i]: -? (0 | [1-9][0-9]*) (.[0-9]+)?
// ([eE][+-]?[0-9]+)?, or -1.
func endOfNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = endOfDigits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if i = endOfDigits(b, i+1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		return endOfDigits(b, i)
	}
	return i
}

// endOfDigits answers the index past the digits at b[i], or -1 when there is none.
func endOfDigits(b []byte, i int) int {
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

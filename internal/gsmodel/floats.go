package gsmodel

import "math"

// Floats as a 3.x stone has them, from GemTalk/Grail src/smalltalk/Python/Float.gs (Grail's
// Python float is the kernel Float, and its suite runs on 3.7 stones):
//
//   - a Float divided by zero answers IEEE 754's result instead of signalling ZeroDivide
//     (__truediv__: "IEEE 754 says x/0.0 is an infinity and GemStone obliges, so this answered
//     inf for 1.0 / 0"), and an integer too large for a double converts to an infinity
//     (___checkedOperand___: "1.0 + 10**1000 answered inf");
//   - an infinity prints as PlusInfinity or MinusInfinity and a NaN's print string ends in NaN
//     (__repr__, __str__); GemTalk/Grail smalltalk/float.gs and smalltalk/Int.gs compare a NaN's
//     asString with 'PlusQuietNaN' and 'MinusQuietNaN', so the sign bit picks the spelling;
//   - the globals PlusInfinity, MinusInfinity, PlusQuietNaN and MinusQuietNaN hold them
//     (___parseFloatBody___:, and Grail's math and cmath modules' inf and nan);
//   - an ordinary float's class is SmallDouble, a kind of Float (__class__: "type(5.0) answers
//     SmallDouble"; ___reflectedOperand___: accepts a plain float by isKindOf: Float).
//
// A stone keeps some floats on the heap as class Float ("immediate SmallDouble, heap Float");
// which values is not attested, so every float the model makes is a SmallDouble.

// floatGlobals are the special values a stone binds in Globals.
var floatGlobals = []struct {
	name  string
	value float64
}{
	{"PlusInfinity", math.Inf(1)},
	{"MinusInfinity", math.Inf(-1)},
	{"PlusQuietNaN", math.NaN()},
	{"MinusQuietNaN", math.Copysign(math.NaN(), -1)},
}

func (img *Image) bindFloatGlobals(s *Session) {
	for _, g := range floatGlobals {
		s.dictAtPut(img.globals, s.symbol(g.name), g.value)
	}
}

// formatSpecialFloat answers the print string of an infinity or a NaN, and false for any
// other float.
func formatSpecialFloat(f float64) (string, bool) {
	switch {
	case math.IsNaN(f) && math.Signbit(f):
		return "MinusQuietNaN", true
	case math.IsNaN(f):
		return "PlusQuietNaN", true
	case math.IsInf(f, 1):
		return "PlusInfinity", true
	case math.IsInf(f, -1):
		return "MinusInfinity", true
	}
	return "", false
}

// floatQuotient answers x / y when the receiver a is a Float; y == 0 answers IEEE 754's
// infinity or NaN, as on a stone. An integer receiver divided by a Float zero is not
// attested either way, so it is refused by name.
func (s *Session) floatQuotient(a Value, x, y float64) Value {
	if y == 0 {
		if _, isFloat := a.(float64); !isFloat {
			return s.refuse("an Integer divided by a Float zero (a stone's answer is not attested: ZeroDivide or an infinity)")
		}
	}
	return x / y
}

package gsmodel

import "testing"

// Floats as GemTalk/Grail's Python float (the kernel Float, run on 3.7 stones) shows them:
// src/smalltalk/Python/Float.gs, and the older smalltalk/float.gs and smalltalk/Int.gs.
func TestFloatsFollowTheEvidence(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	const grail = "GemTalk/Grail src/smalltalk/Python/Float.gs"
	runKernelCases(t, s, []kernelCase{
		{"1.0 / 0", "PlusInfinity", grail + " __truediv__ (GemStone answered inf for 1.0 / 0)"},
		{"1.0 / 0.0", "PlusInfinity", grail + " __truediv__ (IEEE 754 x/0.0, and GemStone obliges)"},
		{"-1.0 / 0", "MinusInfinity", grail + " __repr__ (MinusInfinity)"},
		{"(0.0 / 0.0) printString size > 3 and: [((0.0 / 0.0) printString copyFrom: (0.0 / 0.0) printString size - 2 to: (0.0 / 0.0) printString size) = 'NaN']",
			"true", grail + " __repr__ (a NaN's printString ends with NaN)"},
		{"PlusQuietNaN printString", "'PlusQuietNaN'", "GemTalk/Grail smalltalk/Int.gs ___powFloat: (asString = 'PlusQuietNaN')"},
		{"MinusQuietNaN printString", "'MinusQuietNaN'", "GemTalk/Grail smalltalk/float.gs ___powFloat: (asString = 'MinusQuietNaN')"},
		{"PlusInfinity = (1.0 / 0) & (MinusInfinity = (-1.0 / 0))", "true", grail + " ___parseFloatBody___: (PlusInfinity, MinusInfinity)"},
		{"1.0 + (10 raisedTo: 400)", "PlusInfinity", grail + " ___checkedOperand___ (1.0 + 10**1000 answered inf)"},
		{"(10 raisedTo: 16) asFloat printString", "'1e16'", grail + " ___fixExponentSign___: (a positive exponent prints without +)"},
		{"1.5 class", "SmallDouble", grail + " __class__ (type(5.0) answers SmallDouble)"},
		{"(1.5 isKindOf: Float) & (SmallDouble superclass == Float)", "true", grail + " ___reflectedOperand___: (a float isKindOf: Float)"},
		{"1 / 0.0", "ERROR 1 the model refuses: an Integer divided by a Float zero", "not attested either way"},
		{"1 / 0", "ERROR 2026", "gemstone-smalltalk.md (ZeroDivide for an integer division)"},
	})
}

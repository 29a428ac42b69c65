package gsmodel

import "testing"

// Radix numbers, indexOf:ifAbsent: and Date, each as far as public code shows them.

func TestRadixNumbers(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	runKernelCases(t, s, []kernelCase{
		{"16r1F + 2r1010", "41", "GemTalk/Grail (a topaz file-in hashes with bitAnd: 16rFFFFFFFF)"},
		{"16rFFFFFFFF", "4294967295", "GemTalk/Grail (bitAnd: 16rFFFFFFFF)"},
		{"16#11", "ERROR", "no public evidence that a 3.x parser reads 16#11; refused by the shared lexer"},
	})
}

func TestIndexOfIfAbsent(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	runKernelCases(t, s, []kernelCase{
		{"#(10 20 30) indexOf: 20 ifAbsent: [0]", "2", "GemTalk/Rowan Cypress-GemStoneCompatibilityLayer.gs (copyAfter:)"},
		{"#(10 20 30) indexOf: 40 ifAbsent: [#none]", "#none", "GemTalk/Rowan Cypress-GemStoneCompatibilityLayer.gs (copyUpTo: answers the block's value when absent)"},
		{"'abc' asOrderedCollection indexOf: $c ifAbsent: [0]", "3", "GemTalk/Rowan (sent to any SequenceableCollection)"},
	})
}

func TestDate(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	runKernelCases(t, s, []kernelCase{
		{"Date today", "ERROR 1 the model refuses: Date", "MagLev/maglev src/smalltalk/ruby/Module_ruby.gs (Date is a kernel class; what today answers is not attested)"},
		{"Date name", "#Date", "MagLev/maglev src/smalltalk/ruby/Module_ruby.gs"},
	})
}

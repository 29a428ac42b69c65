package gsmodel

import (
	"strings"
	"testing"
)

// A message nobody implements is a plain MessageNotUnderstood, as on a stone; only a model gap
// the evidence names says the model lacks it.
func TestMessageNotUnderstoodSaysModelGapOnlyWithEvidence(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	// includesKey: is a kernel selector, but nothing shows UndefinedObject answering it: a
	// defect of the sender, reported as such.
	got := run(t, s, "nil includesKey: 3")
	if !strings.HasPrefix(got, "ERROR 2010") || !strings.Contains(got, "an UndefinedObject does not understand  #includesKey:") {
		t.Errorf("nil includesKey: 3 answered %s", got)
	}
	if strings.Contains(got, "model") {
		t.Errorf("nil includesKey: 3 blames the model: %s", got)
	}
	for _, g := range modelGaps {
		cls, ok := s.globalNamed(strings.TrimSuffix(g.class, " class"))
		if !ok {
			t.Errorf("the model gap %s>>%s names a class the model lacks", g.class, g.selector)
			continue
		}
		recv := "(" + s.className(cls.(*Object)) + ")"
		if !strings.HasSuffix(g.class, " class") {
			recv = "(" + recv + " new)"
		}
		src := recv + " perform: #" + g.selector
		if strings.Contains(g.selector, ":") {
			src += " with: nil"
		}
		got := run(t, s, src)
		if !strings.HasPrefix(got, "ERROR 2010") {
			t.Errorf("%s>>%s is implemented now (%s answered %s): remove it from modelGaps", g.class, g.selector, src, got)
			continue
		}
		if !strings.Contains(got, "a model gap: "+g.class+" answers #"+g.selector) || !strings.Contains(got, g.evidence) {
			t.Errorf("%s answered %s, want the model-gap note with its evidence", src, got)
		}
	}
}

// printString names an instance as GemStone 3.7 does, the article glued to the class name.
func TestPrintStringGluesTheArticleToTheClassName(t *testing.T) {
	img, _ := newTestImage(t)
	s, _ := img.Login("DataCurator")
	cases := map[string]string{
		"#('a') printString":                              "'anArray( ''a'')'",
		"(OrderedCollection with: 1 with: 2) printString": "'anOrderedCollection( 1, 2)'",
		"Object new printString":                          "'anObject'",
		"(Set with: 3) printString":                       "'aSet( 3)'",
		"(1 -> 2) printString":                            "'1->2'",
	}
	for src, want := range cases {
		if got := run(t, s, src); got != want {
			t.Errorf("%s\n  got  %s\n  want %s", src, got, want)
		}
	}
}

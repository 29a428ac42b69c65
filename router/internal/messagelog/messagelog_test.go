package messagelog

import "testing"

func TestLineEscapesWhitespaceAndCountsWhatIsCut(t *testing.T) {
	if got := Line([]byte("a\nb\tc\rd"), 0); got != `a\nb\tc\rd` {
		t.Fatalf("escaping: %q", got)
	}
	if got := Line([]byte("0123456789"), 4); got != "0123...(+6 more)" {
		t.Fatalf("cap: %q", got)
	}
	if got := Line([]byte("0123"), 4); got != "0123" {
		t.Fatalf("exactly the cap: %q", got)
	}
}

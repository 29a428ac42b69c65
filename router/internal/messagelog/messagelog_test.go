package messagelog

import "testing"

func TestLine(t *testing.T) {
	for _, c := range []struct {
		name, in string
		limit    int
		want     string
	}{
		{"escapes whitespace", "a\nb\tc\rd", 0, `a\nb\tc\rd`},
		{"counts what it cuts", "0123456789", 4, "0123...(+6 more)"},
		{"cuts nothing at exactly the cap", "0123", 4, "0123"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Line([]byte(c.in), c.limit); got != c.want {
				t.Fatalf("Line(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
			}
		})
	}
}

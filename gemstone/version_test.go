package gemstone

import "testing"

func TestParseVersionReadsTheLeadingReleaseNumber(t *testing.T) {
	cases := []struct {
		text string
		want string
	}{
		{"3.7.5", "3.7.5"},
		{"3.7.4.3", "3.7.4.3"},
		{"3.5.0 build 64bit-46205", "3.5.0"},
		{"3.4.3 build gss64_3_4_x_branch-45183", "3.4.3"},
		{"  3.7.5 (stand-in, not GemStone)", "3.7.5"},
		{"3.7.4.1.9", "3.7.4.1"},
	}
	for _, c := range cases {
		v, err := ParseVersion(c.text)
		if err != nil {
			t.Fatalf("ParseVersion(%q): %v", c.text, err)
		}
		if got := v.String(); got != c.want {
			t.Errorf("ParseVersion(%q) = %s, want %s", c.text, got, c.want)
		}
	}
}

func TestParseVersionRefusesTextWithoutThreeParts(t *testing.T) {
	for _, text := range []string{"", "3.7", "GemStone 3.7.5", "x.y.z", "3..5"} {
		if v, err := ParseVersion(text); err == nil {
			t.Errorf("ParseVersion(%q) = %s, want an error", text, v)
		}
	}
}

// Compare orders releases and the builds within them.
func TestVersionCompare(t *testing.T) {
	parse := func(s string) Version {
		v, err := ParseVersion(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ordered := []string{"3.6.2", "3.7.0", "3.7.4", "3.7.4.1", "3.7.4.3", "3.7.5", "3.10.0"}
	for i := range ordered {
		for j := range ordered {
			got := parse(ordered[i]).Compare(parse(ordered[j]))
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("%s vs %s: %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	parse := func(s string) Version {
		v, err := ParseVersion(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if !parse("3.7.5").AtLeast(baseVersion) || parse("3.6.9").AtLeast(baseVersion) {
		t.Error("AtLeast(3.7.0) is wrong")
	}
}

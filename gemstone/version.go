package gemstone

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a GemStone release number: 3.7.5, or with a fourth part 3.7.4.3.
type Version struct {
	Major, Minor, Patch, Build int
	// HasBuild says the fourth part was written (3.7.4.0 is not the same text as 3.7.4).
	HasBuild bool
}

// ParseVersion reads the leading x.y.z[.w] of a version text, such as GciTsVersion's
// "3.7.5 build 64bit-12345" or a library file's "3.7.4.3". Anything after the number is
// ignored; fewer than three parts is an error.
func ParseVersion(text string) (Version, error) {
	s := strings.TrimSpace(text)
	end := 0
	for end < len(s) && (s[end] == '.' || (s[end] >= '0' && s[end] <= '9')) {
		end++
	}
	parts := strings.Split(strings.TrimRight(s[:end], "."), ".")
	if len(parts) < 3 {
		return Version{}, fmt.Errorf("gemstone: version %q does not start with x.y.z", text)
	}
	if len(parts) > 4 {
		parts = parts[:4]
	}
	var nums [4]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p == "" {
			return Version{}, fmt.Errorf("gemstone: version %q: part %d is not a number", text, i+1)
		}
		nums[i] = n
	}
	return Version{Major: nums[0], Minor: nums[1], Patch: nums[2], Build: nums[3], HasBuild: len(parts) == 4}, nil
}

func (v Version) String() string {
	if v.HasBuild {
		return fmt.Sprintf("%d.%d.%d.%d", v.Major, v.Minor, v.Patch, v.Build)
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Compare answers -1, 0 or 1 as v is older than, equal to or newer than w; a missing fourth
// part counts as 0.
func (v Version) Compare(w Version) int {
	a := [4]int{v.Major, v.Minor, v.Patch, v.Build}
	b := [4]int{w.Major, w.Minor, w.Patch, w.Build}
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}

// AtLeast reports whether v is w or newer.
func (v Version) AtLeast(w Version) bool { return v.Compare(w) >= 0 }

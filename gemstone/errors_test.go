package gemstone

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// IsFatal recognises the kernel's fatal band, the fatal flag and an invalid session.
func TestIsFatal(t *testing.T) {
	cases := []struct {
		name string
		err  *Error
		want bool
	}{
		{"4137 in the fatal band", &Error{Number: 4137, Category: KernelErrorCategory}, true},
		{"4001 at the band's start", &Error{Number: 4001, Category: KernelErrorCategory}, true},
		{"4999 at the band's end", &Error{Number: 4999, Category: KernelErrorCategory}, true},
		{"4137 of another category", &Error{Number: 4137, Category: 999}, false},
		{"2010 flagged fatal", &Error{Number: 2010, Category: KernelErrorCategory, Fatal: true}, true},
		{"a bad session id", &Error{Number: ErrNumBadSessionID}, true},
		{"2010", &Error{Number: 2010, Category: KernelErrorCategory}, false},
		{"5000", &Error{Number: 5000, Category: KernelErrorCategory}, false},
		{"6003, a break", &Error{Number: 6003, Category: KernelErrorCategory}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := IsFatal(fmt.Errorf("wrapped: %w", c.err)); got != c.want {
				t.Errorf("IsFatal(%d cat %d fatal %v) = %v, want %v", c.err.Number, c.err.Category, c.err.Fatal, got, c.want)
			}
		})
	}
	t.Run("a closed session", func(t *testing.T) {
		if !IsFatal(ErrSessionClosed) {
			t.Error("a closed session is not reported as fatal")
		}
	})
	t.Run("an error not of GemStone", func(t *testing.T) {
		if IsFatal(errors.New("other")) || IsFatal(ErrCallInProgress) {
			t.Error("a non-GemStone error is reported as fatal")
		}
	})
}

func TestIsBreak(t *testing.T) {
	if !IsBreak(&Error{Number: 6003}) || !IsBreak(&Error{Number: 6004}) || IsBreak(&Error{Number: 6001}) {
		t.Error("IsBreak misclassifies")
	}
}

func TestIsLoginDenied(t *testing.T) {
	if !IsLoginDenied(&Error{Number: 4051, Category: KernelErrorCategory}) || IsLoginDenied(&Error{Number: 4065}) {
		t.Error("IsLoginDenied misclassifies")
	}
}

func TestClientSafeNeverCarriesTheMessage(t *testing.T) {
	secret := "!tcp@db7.internal.example#netldi:gs64ldi#task!gemnetobject user DataCurator /opt/gemstone/lib"
	cases := map[int]string{
		4137: "GemStone error 4137 (session gone)",
		4051: "GemStone error 4051 (login denied)",
		6003: "GemStone error 6003 (soft break)",
		6004: "GemStone error 6004 (hard break)",
		2010: "GemStone error 2010 (runtime error)",
		1001: "GemStone error 1001 (compile error)",
	}
	for number, want := range cases {
		e := &Error{Number: number, Category: KernelErrorCategory, Message: secret, Reason: secret, Op: "GciTsNbResult"}
		got := e.ClientSafe()
		if got != want {
			t.Errorf("ClientSafe(%d) = %q, want %q", number, got, want)
		}
		for _, leak := range []string{"db7", "tcp", "netldi", "DataCurator", "/opt", "Gci"} {
			if strings.Contains(got, leak) || strings.Contains(ClientSafe(e), leak) {
				t.Errorf("ClientSafe(%d) = %q leaks %q", number, got, leak)
			}
		}
		if !strings.Contains(e.Error(), secret) {
			t.Errorf("Error() drops the message the log needs: %q", e.Error())
		}
	}
	made := &Error{Op: "GciTsResolveSymbolObj", Message: `"Secret" is not defined for user DataCurator`}
	if got := made.ClientSafe(); got != "GemStone call failed (binding)" {
		t.Errorf("ClientSafe of a binding-made error = %q", got)
	}
	le := &LoadError{Tried: []string{"/opt/gemstone/lib/libgcits-3.7.5-64.so"}, Reason: "no such file"}
	if got := ClientSafe(le); strings.Contains(got, "/opt") {
		t.Errorf("ClientSafe(LoadError) = %q leaks the path", got)
	}
}

func TestAnEndedCallsError(t *testing.T) {
	e := &Error{Number: 6004, Ending: EndedByHardBreak, cause: context.DeadlineExceeded}
	err := fmt.Errorf("handle: %w", e)
	t.Run("keeps its ending through wrapping", func(t *testing.T) {
		if EndingOf(err) != EndedByHardBreak {
			t.Errorf("EndingOf = %v", EndingOf(err))
		}
	})
	t.Run("unwraps to the context's error", func(t *testing.T) {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Error("errors.Is(err, context.DeadlineExceeded) is false")
		}
	})
	t.Run("says its ending", func(t *testing.T) {
		if !strings.Contains(err.Error(), "ended by hard break") {
			t.Errorf("Error() does not say the ending: %q", err)
		}
	})
}

func TestEndingOfAnotherErrorIsNotEnded(t *testing.T) {
	if EndingOf(errors.New("x")) != NotEnded || EndingOf(nil) != NotEnded {
		t.Error("EndingOf of a foreign error is not NotEnded")
	}
}

// A result that is a special OOP (a SmallInteger, a Character, nil) decodes without a fetch.
func TestSpecialResultsDecode(t *testing.T) {
	for _, n := range []int64{0, 1, -1, 42, smallIntegerMax, smallIntegerMin} {
		t.Run(fmt.Sprint("SmallInteger ", n), func(t *testing.T) {
			o := uint64(n)<<3 | 2
			if !isSpecial(o) {
				t.Fatalf("%d encodes as a non-special OOP", n)
			}
			b, e := specialBytes(o)
			if e != nil || string(b) != fmt.Sprint(n) {
				t.Errorf("SmallInteger %d decodes as %q, %v", n, b, e)
			}
		})
	}
	t.Run("SmallIntegers as the fact sheet encodes them", func(t *testing.T) {
		minusOne := int64(-1)
		if uint64(1)<<3|2 != 0xA || uint64(minusOne)<<3|2 != 0xFFFFFFFFFFFFFFFA {
			t.Error("SmallInteger encoding differs from the fact sheet")
		}
	})
	t.Run("a Character", func(t *testing.T) {
		if b, _ := specialBytes(16668); string(b) != "A" {
			t.Errorf("Character 'A' decodes as %q", b)
		}
	})
	t.Run("an astral Character", func(t *testing.T) {
		if b, _ := specialBytes(0x1F600<<8 | 0x1C); string(b) != "😀" {
			t.Errorf("an astral Character decodes as %q", b)
		}
	})
	t.Run("nil", func(t *testing.T) {
		if b, e := specialBytes(oopNil); b != nil || e != nil {
			t.Error("nil does not decode to no bytes")
		}
	})
	t.Run("an object's OOP is not special", func(t *testing.T) {
		if isSpecial(oopClassString) || isSpecial(oopIllegal) {
			t.Error("an object OOP is taken for a special one")
		}
	})
}

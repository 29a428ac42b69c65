package sse

import (
	"testing"
	"time"
)

func TestUntilBeatLandsOnTheSharedGrid(t *testing.T) {
	const iv = 15 * time.Second
	cases := []struct{ elapsed, want time.Duration }{
		{0, iv}, // on a beat: the next one, not zero
		{time.Nanosecond, iv - time.Nanosecond},
		{14 * time.Second, time.Second},
		{iv, iv},
		{31 * time.Second, 14 * time.Second},
	}
	for _, c := range cases {
		if got := untilBeat(c.elapsed, iv); got != c.want {
			t.Errorf("untilBeat(%v, %v) = %v, want %v", c.elapsed, iv, got, c.want)
		}
	}
}

func TestUntilBeatIsAlwaysWithinOneInterval(t *testing.T) {
	for _, iv := range []time.Duration{time.Millisecond, 50 * time.Millisecond, 15 * time.Second, time.Hour} {
		for e := time.Duration(0); e < 3*iv; e += iv / 7 {
			d := untilBeat(e, iv)
			if d <= 0 || d > iv {
				t.Fatalf("untilBeat(%v, %v) = %v: outside (0, interval]", e, iv, d)
			}
			if (e+d)%iv != 0 {
				t.Fatalf("untilBeat(%v, %v) = %v: does not land on a beat", e, iv, d)
			}
		}
	}
}

func TestTwoStreamsOpenedApartShareTheirBeats(t *testing.T) {
	const iv = 50 * time.Millisecond
	a := untilBeat(3*time.Millisecond, iv)
	b := untilBeat(41*time.Millisecond, iv)
	if 3*time.Millisecond+a != 41*time.Millisecond+b {
		t.Fatalf("streams opened 38 ms apart beat at %v and %v after the epoch", 3*time.Millisecond+a, 41*time.Millisecond+b)
	}
}

func TestUntilBeatWithoutAnIntervalFallsBackToTheDefault(t *testing.T) {
	if got := untilBeat(time.Second, 0); got != DefaultKeepalive {
		t.Fatalf("untilBeat(1s, 0) = %v, want %v", got, DefaultKeepalive)
	}
}

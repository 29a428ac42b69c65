package sse

import "testing"

func TestAnEventIDRoundTrips(t *testing.T) {
	id := EventID{Lane: 0, Gen: 7, Seq: 42}
	got, err := ParseEventID(id.String())
	if err != nil || got != id {
		t.Errorf("round trip %q -> %+v, %v", id.String(), got, err)
	}
}

func TestForeignEventIDsAreRefused(t *testing.T) {
	for _, bad := range []string{"", "1", "0-1", "0-1-2-3", "a-b-c", "0--1", "0-01-2", "-1-2-3", "0-1-18446744073709551616"} {
		if _, err := ParseEventID(bad); err == nil {
			t.Errorf("ParseEventID(%q) accepted", bad)
		}
	}
}

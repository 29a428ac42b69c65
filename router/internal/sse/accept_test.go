package sse

import "testing"

func TestAcceptsReadsTheAcceptHeaderOneWay(t *testing.T) {
	cases := []struct {
		accept string
		want   Acceptance
	}{
		{"", NoAccept},
		{"application/json, text/event-stream", Names},
		{"text/event-stream", Names},
		{"Text/Event-Stream", Names},
		{"application/json;q=0.9, text/event-stream;q=0.5", Names},
		{"*/*", Wildcard},
		{"application/json, text/*", Wildcard},
		{"TEXT/*", Wildcard},
		{"application/json", Refuses},
		{"text/event-stream-extended", Refuses},
		{"application/x-text/event-stream", Refuses},
		{",", Refuses},
	}
	for _, c := range cases {
		t.Run(c.accept, func(t *testing.T) {
			if got := Accepts(c.accept); got != c.want {
				t.Errorf("Accepts(%q) = %d, want %d", c.accept, got, c.want)
			}
		})
	}
}

package sse

import "strings"

// Acceptance is what a request's Accept header says of text/event-stream. It is read one way
// for the whole front end; what each answer makes of it is the answer's policy: a GET stream
// is refused only to a client that Refuses it, while a POST's answer, JSON unless a stream is
// needed, becomes a stream only for a client that Names it (MCP clients list both
// application/json and text/event-stream on a POST).
type Acceptance int

const (
	// NoAccept: the request has no Accept header (or an empty one).
	NoAccept Acceptance = iota
	// Names: the header lists text/event-stream itself.
	Names
	// Wildcard: the header admits text/event-stream only through text/* or */*.
	Wildcard
	// Refuses: the header lists other media types only.
	Refuses
)

// Accepts reads the Accept header accept: its media ranges compared without regard to case,
// their parameters (q included) ignored.
func Accepts(accept string) Acceptance {
	if strings.TrimSpace(accept) == "" {
		return NoAccept
	}
	out := Refuses
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, _ := strings.Cut(part, ";")
		mt = strings.TrimSpace(mt)
		switch {
		case strings.EqualFold(mt, "text/event-stream"):
			return Names
		case strings.EqualFold(mt, "text/*") || mt == "*/*":
			out = Wildcard
		}
	}
	return out
}

package sse

import (
	"fmt"
	"strconv"
	"strings"
)

// StandaloneLane is the lane of the session's standalone GET stream.
const StandaloneLane = 0

// EventID is a parsed SSE event id: which lane of the session, which stream generation wrote
// it, and the position (sequence number) of the message in the lane.
type EventID struct {
	Lane uint64
	Gen  uint64
	Seq  uint64
}

// String formats the id as it goes on the wire.
func (id EventID) String() string {
	return strconv.FormatUint(id.Lane, 10) + "-" + strconv.FormatUint(id.Gen, 10) + "-" +
		strconv.FormatUint(id.Seq, 10)
}

// ParseEventID reads an id this package minted. Anything else, including an id of another
// server, is an error: a resume point we did not issue names nothing we can replay.
func ParseEventID(s string) (EventID, error) {
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return EventID{}, fmt.Errorf("sse: event id %q is not lane-generation-sequence", s)
	}
	var n [3]uint64
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 64)
		if err != nil || p == "" || (len(p) > 1 && p[0] == '0') {
			return EventID{}, fmt.Errorf("sse: event id %q has a malformed field %q", s, p)
		}
		n[i] = v
	}
	return EventID{Lane: n[0], Gen: n[1], Seq: n[2]}, nil
}

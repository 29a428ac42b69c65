package sse

import "time"

// beatEpoch is the origin of the keepalive beats of this process. It is set once, at start-up,
// and only read after that.
var beatEpoch = time.Now()

// UntilBeat answers how long a stream waits for its next keepalive: until the next multiple of
// interval since the process started, never zero and never more than interval. Every stream of
// the process with the same interval waits for the same instants, so an idle router wakes once
// per interval for all of its streams instead of once per stream at scattered moments; a
// wake-up, not the write, was most of the cost of an idle stream (docs/performance.md). A
// stream still hears something at least every interval: its first beat comes within one.
func UntilBeat(interval time.Duration) time.Duration {
	return untilBeat(time.Since(beatEpoch), interval)
}

// untilBeat is UntilBeat for a time elapsed since the epoch.
func untilBeat(elapsed, interval time.Duration) time.Duration {
	if interval <= 0 {
		return DefaultKeepalive
	}
	return interval - elapsed%interval
}

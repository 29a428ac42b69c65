package sse

import "sort"

// message is one server-initiated message and its position in the lane.
type message struct {
	seq  uint64
	data []byte
}

// lane is the ordered log of one session's messages: the tail not yet handed to any stream
// (the outbox) and, ahead of it, the most recent messages already handed out (the replay
// buffer). Both parts are bounded. It is not safe for concurrent use; Stream guards it.
type lane struct {
	msgs        []message // ascending seq
	lastSeq     uint64    // the last sequence number issued (0: none yet)
	delivered   uint64    // the highest seq handed to a stream
	replayFloor uint64    // the highest delivered seq evicted: a resume must start at or above it
	outboxLimit int
	replayLimit int
}

func newLane(outboxLimit, replayLimit int) *lane {
	return &lane{outboxLimit: outboxLimit, replayLimit: replayLimit}
}

// push appends data and answers its sequence number. When the outbox is full the oldest
// undelivered message is dropped to make room, and its sequence number is answered as dropped.
func (l *lane) push(data []byte) (seq uint64, dropped uint64, didDrop bool) {
	l.lastSeq++
	seq = l.lastSeq
	l.msgs = append(l.msgs, message{seq: seq, data: data})
	first := l.firstPending()
	if len(l.msgs)-first > l.outboxLimit {
		dropped = l.msgs[first].seq
		l.msgs = append(l.msgs[:first], l.msgs[first+1:]...)
		didDrop = true
	}
	return seq, dropped, didDrop
}

// next answers the first message after position after, if any.
func (l *lane) next(after uint64) (message, bool) {
	i := sort.Search(len(l.msgs), func(i int) bool { return l.msgs[i].seq > after })
	if i == len(l.msgs) {
		return message{}, false
	}
	return l.msgs[i], true
}

// handOut records that a stream took the message at seq. Taking a new message moves it from
// the outbox to the replay buffer, whose oldest entries then make room.
func (l *lane) handOut(seq uint64) {
	if seq <= l.delivered {
		return // a replay: already delivered once
	}
	l.delivered = seq
	first := l.firstPending()
	if excess := first - l.replayLimit; excess > 0 {
		l.replayFloor = l.msgs[excess-1].seq
		l.msgs = append(l.msgs[:0], l.msgs[excess:]...)
	}
}

// pending counts the messages no stream has taken yet.
func (l *lane) pending() int { return len(l.msgs) - l.firstPending() }

// replayable counts the messages a resume from position after would be sent again.
func (l *lane) replayable(after uint64) int {
	i := sort.Search(len(l.msgs), func(i int) bool { return l.msgs[i].seq > after })
	return l.firstPending() - min(i, l.firstPending())
}

func (l *lane) firstPending() int {
	return sort.Search(len(l.msgs), func(i int) bool { return l.msgs[i].seq > l.delivered })
}

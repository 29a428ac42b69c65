package sse

import "testing"

func TestLaneReplayFloorRisesAsDeliveredMessagesAreEvicted(t *testing.T) {
	l := newLane(4, 2)
	for i := 0; i < 4; i++ {
		l.push([]byte("m"))
	}
	for seq := uint64(1); seq <= 4; seq++ {
		m, ok := l.next(seq - 1)
		if !ok || m.seq != seq {
			t.Fatalf("next(%d) = %d, %v", seq-1, m.seq, ok)
		}
		l.handOut(m.seq)
	}
	if l.replayFloor != 2 {
		t.Fatalf("replayFloor %d, want 2 (messages 1 and 2 evicted, 3 and 4 kept)", l.replayFloor)
	}
	if n := l.replayable(2); n != 2 {
		t.Fatalf("replayable after 2 = %d, want 2", n)
	}
	if l.pending() != 0 {
		t.Fatalf("pending %d, want 0", l.pending())
	}
}

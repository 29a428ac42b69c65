package router

import (
	"net/http"
	"testing"
)

// flightWith is a flight holding events, as a worker's channel would have left them.
func flightWith(events ...flightEvent) *flight {
	return &flight{events: events}
}

func TestAPassParksOnlyTheQuestionsItsRequestDoesNotAnswer(t *testing.T) {
	note := flightEvent{msg: []byte(`{"method":"notifications/progress"}`), method: "notifications/progress"}
	answered := flightEvent{q: &question{key: "a"}}
	unanswered := flightEvent{q: &question{key: "b"}}
	f := flightWith(note, answered, unanswered)
	claim := func(q *question) bool { return q.key == "a" }

	p := f.pass(claim)
	if !p.took || !p.parkedNow || p.parked != 1 {
		t.Errorf("first pass: took %v, parkedNow %v, parked %d; want true, true, 1", p.took, p.parkedNow, p.parked)
	}
	if len(p.relay) != 2 || p.relay[0].method != note.method || p.relay[1].q != answered.q {
		t.Errorf("first pass relays %+v; want the notification, then the answered question", p.relay)
	}
	if len(f.parked) != 1 || f.parked[0] != unanswered.q {
		t.Errorf("parked %+v; want the unanswered question", f.parked)
	}

	p = f.pass(claim)
	if p.took || p.parkedNow || p.parked != 1 || len(p.relay) != 0 {
		t.Errorf("second pass: took %v, parkedNow %v, parked %d, relay %d; want false, false, 1, 0", p.took, p.parkedNow, p.parked, len(p.relay))
	}
}

func TestAPassReadsTheFlightsStateInOneMoment(t *testing.T) {
	f := flightWith()
	f.finished, f.status, f.reply = true, http.StatusOK, []byte(`{}`)
	f.wantsTask = true
	p := f.pass(func(*question) bool { return false })
	if !p.finished || p.status != http.StatusOK || string(p.reply) != `{}` || !p.wantsTask {
		t.Errorf("pass %+v; want the finished call and the task request", p)
	}
	f.task = true
	if f.pass(func(*question) bool { return false }).wantsTask {
		t.Error("a flight that is already a task still reads as asking to become one")
	}
}

func TestAPassThatCanEndInAWaitGetsTheChannelTheNextChangeCloses(t *testing.T) {
	f := flightWith()
	p := f.pass(func(*question) bool { return false })
	if p.wake == nil || p.wake != f.wake {
		t.Fatal("a pass that took nothing of an unfinished call has no wake channel, or not the flight's own")
	}
	f.mu.Lock()
	f.finished = true
	f.signalLocked()
	f.mu.Unlock()
	select {
	case <-p.wake:
	default:
		t.Error("the call's end did not close the channel its pass waits on")
	}
	if f.pass(func(*question) bool { return false }).wake != nil {
		t.Error("a pass of a finished call made a channel nobody will wait on")
	}
}

func TestClaimParkedKeepsTheQuestionsItsRequestDoesNotAnswer(t *testing.T) {
	a, b := &question{key: "a"}, &question{key: "b"}
	f := flightWith()
	f.parked = []*question{a, b}
	got := f.claimParked(func(q *question) bool { return q.key == "b" })
	if len(got) != 1 || got[0] != b || len(f.parked) != 1 || f.parked[0] != a {
		t.Errorf("claimed %v, kept %v; want b claimed and a kept", got, f.parked)
	}
}

package lifetime

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// hygieneRig keeps every session alive (a stream open, no idle deadline reached) so only the
// view rules act.
func hygieneRig(t *testing.T, mutate func(*Config)) *rig {
	return newRig(t, func(c *Config) {
		c.IdleTimeout = Off()
		c.ProbeInterval = After(24 * time.Hour)
		c.MaxCommitsBehind = 20
		c.StuckViewGrace = After(60 * time.Second)
		c.PinnedViewGrace = After(300 * time.Second)
		if mutate != nil {
			mutate(c)
		}
	})
}

func (r *rig) streamed(id string) *fakeSession {
	s := r.host.add(id)
	r.host.set(func() { s.gen, s.open = 1, true; s.view = worker.ViewStatus{CommitsBehind: 0, Movable: true} })
	return s
}

func TestViewHygiene(t *testing.T) {
	r := hygieneRig(t, nil)
	idle := r.streamed("idle")
	busy := r.streamed("busy")
	r.host.set(func() {
		idle.view = worker.ViewStatus{CommitsBehind: 25, Movable: true, Uncommitted: true}
		idle.refresh = worker.RefreshResult{Refreshed: true}
		busy.view = worker.ViewStatus{CommitsBehind: 500, Movable: true}
		busy.inFlight = true
	})
	r.clock.Advance(15 * time.Second)
	t.Run("refreshes a session behind once", func(t *testing.T) {
		if idle.refreshCalls != 1 {
			t.Fatalf("idle session refreshed %d times, want 1", idle.refreshCalls)
		}
		r.clock.Advance(15 * time.Second)
		if idle.refreshCalls != 1 {
			t.Fatalf("refreshed again (%d) once back at 0 behind", idle.refreshCalls)
		}
		if st := r.eng.Stats(); st.Refreshes != 1 {
			t.Fatalf("Refreshes %d, want 1", st.Refreshes)
		}
	})
	t.Run("never asks a busy session", func(t *testing.T) {
		if busy.viewCalls != 0 || busy.refreshCalls != 0 {
			t.Fatalf("busy session asked %d times and refreshed %d times; a call in flight owns its view", busy.viewCalls, busy.refreshCalls)
		}
	})
}

func TestPressureOnTheStoneAloneNeverRefreshesAView(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 5, Movable: true} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 5000, SignalAbortBacklog: 20, OldestCRSessions: []int{s.gem}}, nil)
	r.clock.Advance(10 * time.Minute)
	if s.refreshCalls != 0 {
		t.Fatalf("refreshed %d times at 5 commits behind", s.refreshCalls)
	}
}

func TestRefreshLimitIsLoweredToTheStonesSignalAbortBacklog(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 12, Movable: true} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 12, SignalAbortBacklog: 10}, nil)
	r.clock.Advance(15 * time.Second)
	if s.refreshCalls != 1 {
		t.Fatalf("refreshed %d times at 12 behind with a signal-abort backlog of 10, want 1", s.refreshCalls)
	}
}

func TestUnreadSignalAbortBacklogIsSkippedNotTreatedAsZero(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 12, Movable: true} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: -1, SignalAbortBacklog: -1}, nil)
	r.clock.Advance(15 * time.Second)
	if s.refreshCalls != 0 {
		t.Fatalf("refreshed at 12 behind (limit 20) because an unread reading counted as a limit")
	}
}

func TestViewThatCannotBeReadIsLeftAlone(t *testing.T) {
	r := hygieneRig(t, nil)
	unknown := r.streamed("unknown")
	failing := r.streamed("failing")
	r.host.set(func() {
		unknown.view = worker.ViewStatus{CommitsBehind: -1, Movable: false}
		failing.viewErr = errors.New("gem did not answer")
		failing.view = worker.ViewStatus{CommitsBehind: 99, Movable: false}
	})
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 900, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(10 * time.Minute)
	r.mustLive("unknown")
	r.mustLive("failing")
	if unknown.refreshCalls+failing.refreshCalls != 0 {
		t.Fatal("refreshed a view whose distance was unknown")
	}
}

func TestMaxCommitsBehindNoneNeverRefreshes(t *testing.T) {
	r := hygieneRig(t, func(c *Config) { c.MaxCommitsBehind = 0 })
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 1000, Movable: true} })
	r.clock.Advance(5 * time.Minute)
	if s.refreshCalls != 0 {
		t.Fatalf("refreshed %d times with MCP_MAX_COMMITS_BEHIND=none", s.refreshCalls)
	}
}

func TestStuckViewIsReleasedOnlyAfterTheGraceUnderSustainedPressure(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 40, Movable: false, Uncommitted: true} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(15 * time.Second) // first seen stuck at the 15s pass
	r.clock.Advance(59 * time.Second)
	r.mustLive("a")
	r.clock.Advance(time.Second) // the 75s pass: 60s after it was found
	r.mustBeReaped("a", KindStuckView)
	why, _ := r.host.reapedFor("a")
	if !strings.Contains(why.Detail, "300") || !strings.Contains(why.Detail, "cannot be moved") {
		t.Fatalf("reason %q does not say what was measured", why.Detail)
	}
	if s.refreshCalls != 0 {
		t.Fatal("tried to refresh a view that cannot move")
	}
}

func TestStuckViewOnAQuietStoneIsLeftAlone(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 40, Movable: false} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 3, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(2 * time.Hour)
	r.mustLive("a")
}

func TestStuckViewPressureMustBeSustained(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 40, Movable: false} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(45 * time.Second)                                                    // passes at 15, 30, 45 under pressure
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 4, SignalAbortBacklog: 20}, nil) // the backlog drains
	r.clock.Advance(15 * time.Second)
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(45 * time.Second) // 105s: pressure again since 75s only
	r.mustLive("a")
	r.clock.Advance(15 * time.Second) // 120s: 45s since 75s
	r.mustLive("a")
	r.clock.Advance(15 * time.Second) // 135s: 60s since 75s
	r.mustBeReaped("a", KindStuckView)
}

func TestStonePassThatCouldNotReadProvesNothing(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 40, Movable: false} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(15 * time.Second) // found at 15s
	r.stone.set(worker.StoneStatus{}, errors.New("control session lost"))
	r.clock.Advance(90 * time.Second) // every pass since could not read
	r.mustLive("a")
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(15 * time.Second) // the streak was kept, not reset
	r.mustBeReaped("a", KindStuckView)
}

func TestStuckViewGraceZeroReleasesOnThePassThatFindsIt(t *testing.T) {
	r := hygieneRig(t, func(c *Config) { c.StuckViewGrace = After(0) })
	s := r.streamed("a")
	r.host.set(func() { s.view = worker.ViewStatus{CommitsBehind: 40, Movable: false} })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 300, SignalAbortBacklog: 20}, nil)
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindStuckView)
}

func TestCallPinningTheOldestRecordUnderPressureIsEndedAfterTheGrace(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.inFlight = true })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 800, SignalAbortBacklog: 20, OldestCRSessions: []int{s.gem}}, nil)
	r.clock.Advance(15 * time.Second) // first seen at 15s
	r.clock.Advance(299 * time.Second)
	if _, ok := r.host.ended["a"]; ok {
		t.Fatal("call ended before the grace")
	}
	r.clock.Advance(time.Second) // the 315s pass
	why, ok := r.host.ended["a"]
	if !ok {
		t.Fatal("call pinning the oldest record under pressure was not ended")
	}
	if why.Kind != KindPinnedView || !strings.Contains(why.Detail, "oldest commit record") || !strings.Contains(why.Detail, "800") {
		t.Fatalf("reason %+v does not say why", why)
	}
	r.mustLive("a") // the call ends, the session does not
}

func TestQuietRepositoryNeverEndsALongCall(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.inFlight = true })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 3, SignalAbortBacklog: 20, OldestCRSessions: []int{s.gem}}, nil)
	r.clock.Advance(10 * time.Hour)
	if _, ok := r.host.ended["a"]; ok {
		t.Fatal("a long call on a quiet repository was ended")
	}
	r.mustLive("a")
}

func TestCallNotHoldingTheOldestRecordIsNeverEnded(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.inFlight = true })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 800, SignalAbortBacklog: 20, OldestCRSessions: []int{s.gem + 1}}, nil)
	r.clock.Advance(time.Hour)
	if _, ok := r.host.ended["a"]; ok {
		t.Fatal("a call that does not pin the oldest record was ended")
	}
}

func TestPinnedRunMustBeConsecutive(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.inFlight = true })
	pinned := worker.StoneStatus{CommitRecordBacklog: 800, SignalAbortBacklog: 20, OldestCRSessions: []int{s.gem}}
	r.stone.set(pinned, nil)
	r.clock.Advance(240 * time.Second)
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: 800, SignalAbortBacklog: 20, OldestCRSessions: []int{999}}, nil)
	r.clock.Advance(15 * time.Second) // another session held the oldest record for one pass
	r.stone.set(pinned, nil)
	r.clock.Advance(240 * time.Second)
	if _, ok := r.host.ended["a"]; ok {
		t.Fatal("call ended although its run was broken")
	}
}

func TestUnreadBacklogNeverEndsACall(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() { s.inFlight = true })
	r.stone.set(worker.StoneStatus{CommitRecordBacklog: -1, SignalAbortBacklog: -1, OldestCRSessions: []int{s.gem}}, nil)
	r.clock.Advance(time.Hour)
	if _, ok := r.host.ended["a"]; ok {
		t.Fatal("a call was ended on a reading that could not be taken")
	}
}

func TestDeclinedRefreshIsNotRepeatedUntilTheViewFallsFurtherBehind(t *testing.T) {
	r := hygieneRig(t, nil)
	s := r.streamed("a")
	r.host.set(func() {
		s.view = worker.ViewStatus{CommitsBehind: 25, Movable: true}
		s.refresh = worker.RefreshResult{Refreshed: false, Reason: "nested transaction"}
	})
	r.clock.Advance(15 * time.Second)
	r.host.set(func() { s.view.CommitsBehind = 25 }) // the fake resets it on every refresh
	r.clock.Advance(5 * time.Minute)
	if s.refreshCalls != 1 {
		t.Fatalf("asked %d times at an unchanged distance after a decline, want 1", s.refreshCalls)
	}
	r.host.set(func() { s.view.CommitsBehind = 40 })
	r.clock.Advance(15 * time.Second)
	if s.refreshCalls != 2 {
		t.Fatalf("asked %d times once the view fell further behind, want 2", s.refreshCalls)
	}
}

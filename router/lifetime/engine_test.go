package lifetime

import (
	"errors"
	"testing"
	"time"
)

func TestAStreamlessSessionIsReapedAtItsInterval(t *testing.T) {
	r := newRig(t, nil)
	r.host.add("a")
	r.clock.Advance(59 * time.Second)
	r.mustLive("a")
	r.clock.Advance(16 * time.Second) // the pass at 60s
	r.mustBeReaped("a", KindStreamlessIdle)
}

func TestStreamlessDeadlineCountsFromTheLastRequest(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.clock.Advance(50 * time.Second)
	r.host.touch(s) // a second POST at 50s
	r.clock.Advance(59 * time.Second)
	r.mustLive("a") // 109s: only 59s since the last request
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindStreamlessIdle)
}

func TestIdleTimeoutReapsASessionWithAnOpenStream(t *testing.T) {
	r := newRig(t, func(c *Config) { c.IdleTimeout = After(10 * time.Minute); c.ProbeInterval = Off() })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(10*time.Minute - time.Second)
	r.mustLive("a")
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindIdle)
}

func TestSessionWithACallInFlightIsNeverReaped(t *testing.T) {
	r := newRig(t, func(c *Config) { c.MaxLifetime = After(time.Hour) })
	s := r.host.add("a")
	r.host.set(func() { s.inFlight = true })
	r.clock.Advance(2 * time.Hour)
	r.mustLive("a") // past the streamless, idle and lifetime deadlines, but busy
	r.host.set(func() { s.inFlight = false; s.last = r.clock.Now() })
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindMaxLifetime) // the absolute cap applies the moment the call is over
}

func TestCallEndingRestartsTheStreamlessClock(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.inFlight = true })
	r.clock.Advance(10 * time.Minute)
	r.host.set(func() { s.inFlight = false; s.last = r.clock.Now() })
	r.clock.Advance(59 * time.Second)
	r.mustLive("a")
	r.clock.Advance(16 * time.Second)
	r.mustBeReaped("a", KindStreamlessIdle)
}

func TestStreamLossIsReleasedOnTheSpotWhenTheGraceRunsOut(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(3 * time.Second)
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1)
	r.clock.Advance(9*time.Second + 900*time.Millisecond)
	r.mustLive("a")
	r.clock.Advance(100 * time.Millisecond) // 13s: the grace's own timer, not a pass (passes fall at 15s, 30s, ...)
	r.mustBeReaped("a", KindStreamLost)
}

func TestStreamLossGraceIsRetracted(t *testing.T) {
	cases := map[string]func(r *rig, s *fakeSession){
		"by a new stream":     func(r *rig, s *fakeSession) { r.host.set(func() { s.gen, s.open = 2, true }) },
		"by any request":      func(r *rig, s *fakeSession) { r.host.touch(s) },
		"by a client ping":    func(r *rig, s *fakeSession) { r.host.ping(s) },
		"by a call in flight": func(r *rig, s *fakeSession) { r.host.set(func() { s.inFlight = true }) },
	}
	for name, retract := range cases {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, func(c *Config) { c.StreamlessIdleTimeout = After(5 * time.Minute) })
			s := r.host.add("a")
			r.host.set(func() { s.gen, s.open = 1, true })
			r.clock.Advance(time.Second)
			r.host.set(func() { s.open = false })
			r.eng.StreamClosed("a", 1)
			r.clock.Advance(4 * time.Second)
			retract(r, s)
			r.clock.Advance(20 * time.Second)
			r.mustLive("a")
		})
	}
}

func TestPingInsideTheGraceKeepsTheSessionButDoesNotMoveTheStreamlessDeadline(t *testing.T) {
	r := newRig(t, nil) // grace 10s, streamless 60s, passes every 15s
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(3 * time.Second)
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1) // lost at 3s: grace to 13s, streamless deadline 63s
	r.clock.Advance(2 * time.Second)
	r.host.ping(s) // a ping at 5s, answered by the front end
	r.clock.Advance(9 * time.Second)
	r.mustLive("a") // 14s: past the grace's end
	for range 9 {   // pings every 5s, to 59s
		r.clock.Advance(5 * time.Second)
		r.host.ping(s)
	}
	r.clock.Advance(3*time.Second + 900*time.Millisecond)
	r.mustLive("a") // 62.9s: a full interval has not passed since the loss
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindStreamlessIdle) // the pass at 75s, pings notwithstanding
}

func TestPingBeforeTheStreamClosedDoesNotRetractItsGrace(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(2 * time.Second)
	r.host.ping(s)
	r.clock.Advance(time.Second)
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1)
	r.clock.Advance(10 * time.Second)
	r.mustBeReaped("a", KindStreamLost)
}

func TestPingsDoNotMoveTheIdleDeadline(t *testing.T) {
	r := newRig(t, func(c *Config) { c.IdleTimeout = After(10 * time.Minute); c.ProbeInterval = Off() })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	for elapsed := time.Duration(0); elapsed < 10*time.Minute-30*time.Second; elapsed += 30 * time.Second {
		r.clock.Advance(30 * time.Second)
		r.host.ping(s)
	}
	r.clock.Advance(29 * time.Second)
	r.mustLive("a") // 9m59s
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindIdle) // the first pass past 10m, counted from the last request
}

func TestStreamLossGraceZeroReleasesAtOnce(t *testing.T) {
	r := newRig(t, func(c *Config) { c.StreamLossGrace = After(0) })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(time.Second)
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1)
	r.clock.Advance(0)
	r.mustBeReaped("a", KindStreamLost)
}

func TestStreamLossGraceNoneLeavesTheSessionToTheStreamlessDeadline(t *testing.T) {
	r := newRig(t, func(c *Config) { c.StreamLossGrace = Off(); c.ProbeInterval = Off() })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(5 * time.Minute) // quiet, but its stream is open
	r.mustLive("a")
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1)
	// The streamless clock starts at the loss, not at the request five minutes ago.
	r.clock.Advance(59 * time.Second)
	r.mustLive("a")
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindStreamlessIdle)
}

func TestMaxLifetimeEndsABusySession(t *testing.T) {
	r := newRig(t, func(c *Config) { c.MaxLifetime = After(time.Hour); c.ProbeInterval = Off() })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	for i := 0; i < 11; i++ {
		r.clock.Advance(5 * time.Minute)
		r.host.touch(s)
	}
	r.mustLive("a") // 55 minutes, busy all along
	r.clock.Advance(5 * time.Minute)
	r.mustBeReaped("a", KindMaxLifetime)
}

func TestAnIdleSessionsProbes(t *testing.T) {
	r := newRig(t, nil) // idle 30m, probe every 2m
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	t.Run("come at the probe interval", func(t *testing.T) {
		r.clock.Advance(2 * time.Minute)
		if n := r.host.probeCount(); n != 1 {
			t.Fatalf("%d probes after 2 idle minutes, want 1", n)
		}
	})
	t.Run("answered, do not reset the idle clock", func(t *testing.T) {
		for i := 0; i < 111; i++ { // on to 29m45s in 15s steps, answering every probe
			r.eng.ProbeAnswered("a", r.host.lastProbe().gen)
			r.clock.Advance(15 * time.Second)
		}
		r.in(t).mustLive("a")
		r.clock.Advance(15 * time.Second)
		r.in(t).mustBeReaped("a", KindIdle) // answered every probe, and still released at the idle deadline
		if n := r.host.probeCount(); n < 13 || n > 15 {
			t.Fatalf("%d probes over 30 idle minutes at a 2m interval, want about 14", n)
		}
		if st := r.eng.Stats(); st.ProbesAnswered == 0 || st.Reaped[KindProbeUnanswered] != 0 {
			t.Fatalf("stats %+v", st)
		}
	})
}

func TestUnansweredProbeOnTheCurrentStreamReleasesTheGemEarly(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(2 * time.Minute)
	if r.host.probeCount() != 1 || r.host.lastProbe().gen != 1 {
		t.Fatalf("probes %v, want one on generation 1", r.host.probes)
	}
	r.clock.Advance(29 * time.Second)
	r.mustLive("a")
	r.clock.Advance(time.Second) // 30s after the probe: its own timer draws the verdict
	r.mustBeReaped("a", KindProbeUnanswered)
}

func TestAProbeLostToAStreamHandover(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(2 * time.Minute)
	r.clock.Advance(10 * time.Second)
	r.host.set(func() { s.gen = 2 }) // the client reconnected its GET: the probe went into a dead socket
	r.clock.Advance(20 * time.Second)
	t.Run("condemns nothing", func(t *testing.T) {
		r.in(t).mustLive("a")
		if st := r.eng.Stats(); st.ProbesDiscarded != 1 {
			t.Fatalf("ProbesDiscarded %d, want 1", st.ProbesDiscarded)
		}
	})
	t.Run("is sent again on the new stream", func(t *testing.T) {
		if n := r.host.probeCount(); n != 2 || r.host.lastProbe().gen != 2 {
			t.Fatalf("probes %v, want a second probe on generation 2", r.host.probes)
		}
	})
	t.Run("lost on the stream the client is still on, condemns", func(t *testing.T) {
		r.clock.Advance(30 * time.Second)
		r.in(t).mustBeReaped("a", KindProbeUnanswered)
	})
}

func TestSessionWithoutAStreamIsNeverProbed(t *testing.T) {
	r := newRig(t, func(c *Config) { c.StreamlessIdleTimeout = After(10 * time.Minute) })
	r.host.add("a")
	r.clock.Advance(9 * time.Minute)
	if n := r.host.probeCount(); n != 0 {
		t.Fatalf("%d probes sent to a session with no stream", n)
	}
	r.mustLive("a")
}

func TestRequestAfterAProbeMakesItsSilenceMoot(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(2 * time.Minute)
	r.clock.Advance(5 * time.Second)
	r.host.touch(s)
	r.clock.Advance(40 * time.Second)
	r.mustLive("a")
}

func TestProbeThatCannotBeSentIsRetriedNotCounted(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.host.set(func() { r.host.probeErr = errors.New("stream busy") })
	r.clock.Advance(3 * time.Minute)
	r.mustLive("a")
	r.host.set(func() { r.host.probeErr = nil })
	r.clock.Advance(15 * time.Second)
	if n := r.host.probeCount(); n != 1 {
		t.Fatalf("%d probes once sending works again, want 1 (sent on the next pass)", n)
	}
}

func TestLatePassIsForgivenInsteadOfReapingEveryone(t *testing.T) {
	r := newRig(t, nil)
	r.host.add("a")
	r.host.add("b")
	c := r.host.add("c")
	r.host.set(func() { c.gen, c.open = 1, true })
	r.clock.Advance(20 * time.Second)
	r.clock.Jump(3 * time.Hour) // the laptop slept
	for _, id := range []string{"a", "b", "c"} {
		r.mustLive(id)
	}
	if st := r.eng.Stats(); st.Forgiven == 0 {
		t.Fatal("the late pass was not recorded as forgiven")
	}
	// The clocks restart at the resume: a full streamless interval from now, not from before.
	r.clock.Advance(45 * time.Second)
	r.mustLive("a")
	r.clock.Advance(30 * time.Second)
	r.mustBeReaped("a", KindStreamlessIdle)
	r.mustBeReaped("b", KindStreamlessIdle)
	r.mustLive("c")
}

func TestLateProbeVerdictIsForgiven(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Advance(2 * time.Minute) // probe sent
	r.clock.Jump(time.Hour)          // suspended before the verdict
	r.mustLive("a")
}

func TestMaxLifetimeIsNotForgivenAcrossASuspend(t *testing.T) {
	r := newRig(t, func(c *Config) { c.MaxLifetime = After(time.Hour) })
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.clock.Jump(2 * time.Hour)
	r.mustLive("a") // the late pass itself reaps nobody
	r.clock.Advance(15 * time.Second)
	r.mustBeReaped("a", KindMaxLifetime)
}

func TestASessionThatEndsTakesItsPendingGraceWithIt(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	r.host.set(func() { s.gen, s.open = 1, true })
	r.host.set(func() { s.open = false })
	r.eng.StreamClosed("a", 1)
	if s.memory.t.loss == nil {
		t.Fatal("no stream-loss grace started")
	}
	r.host.set(func() { delete(r.host.sessions, "a") }) // DELETE removed it
	s.memory.Close()
	grace := s.memory.t.loss.timer.(*fakeTimer)
	grace.c.mu.Lock()
	stopped := grace.stopped
	grace.c.mu.Unlock()
	if !stopped {
		t.Fatal("the ended session's grace timer still runs")
	}
	r.clock.Advance(11 * time.Second)
	if _, ok := r.host.reapedFor("a"); ok {
		t.Fatal("a forgotten session was reaped")
	}
}

func TestAStatelessRevisionSessionWaitsForNoStreamButStillIdlesOut(t *testing.T) {
	r := newRig(t, func(c *Config) { c.IdleTimeout = After(10 * time.Minute); c.ProbeInterval = Off() })
	s := r.host.add("a")
	r.host.set(func() { s.stateless = true })
	r.clock.Advance(5 * time.Minute)
	r.mustLive("a") // long past MCP_STREAMLESS_IDLE_TIMEOUT: no stream is coming, none is waited for
	r.clock.Advance(5*time.Minute + 15*time.Second)
	r.mustBeReaped("a", KindIdle)
}

// A session can end between the host's lookup and the engine's use of it: End unmaps it and
// then drops its parts, the Memory among them. Every entry of the engine must take that.
func TestASessionThatEndedWhileTheEngineLooksAtItIsPassedOver(t *testing.T) {
	r := newRig(t, nil)
	s := r.host.add("a")
	s.dropped = true
	r.eng.StreamClosed("a", 1)
	r.eng.ProbeAnswered("a", 1)
	r.clock.Advance(16 * time.Second) // a pass
	r.clock.Advance(2 * time.Minute)  // the grace and the streamless deadline
	r.eng.Stop()
}

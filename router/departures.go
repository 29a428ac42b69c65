package router

import "time"

// departureSweep is how often the calls running on their own request's goroutine are checked
// for a client that left: the longest a departure goes unnoticed while such a call runs.
const departureSweep = 25 * time.Millisecond

// watchDepartures counts a call about to run on its HTTP/1 request's goroutine and makes sure a
// sweep will look for its client leaving; the caller uncounts it (heldCalls) when the call ends.
//
// The request's goroutine is busy running the call, so something else must notice the client
// leave. Watching each request's context (context.AfterFunc) would make its Done channel and
// its list of children, and take them down again, on every call: benchmark 6 measured that at
// about 2-3 us of router CPU a call. One timer polling the few requests that hold a call costs
// the calls nothing, and a departure (a cancellation on this revision) is noticed within
// departureSweep.
func (s *statelessServer) watchDepartures() {
	s.heldCalls.Add(1)
	s.armSweep()
}

// armSweep arms a sweep after departureSweep unless one is armed already.
func (s *statelessServer) armSweep() {
	if s.sweepArmed.CompareAndSwap(false, true) {
		time.AfterFunc(departureSweep, s.sweepDepartures)
	}
}

// sweepDepartures starts serving every call whose request's client has left, while it still
// runs on that request's goroutine: serveFlight then sees the request's context done and cancels
// the call. It sweeps again after departureSweep while any such call runs.
func (s *statelessServer) sweepDepartures() {
	s.flightsMu.Lock()
	for _, f := range s.flights {
		f.mu.Lock()
		if f.held != nil && f.held.Context().Err() != nil {
			f.startServingLocked()
		}
		f.mu.Unlock()
	}
	s.flightsMu.Unlock()
	if s.heldCalls.Load() > 0 {
		time.AfterFunc(departureSweep, s.sweepDepartures)
		return
	}
	s.sweepArmed.Store(false)
	// A call counted after the load above found the sweep still armed and armed none itself.
	if s.heldCalls.Load() > 0 {
		s.armSweep()
	}
}

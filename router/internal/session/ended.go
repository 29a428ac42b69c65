package session

import (
	"sync"
	"time"
)

// Bounds of the memory of ended sessions: enough to answer a client that comes back after
// its session expired (a streamless session ends a minute after its last request), small and
// short enough that it never grows with traffic.
const (
	endedMemory    = 1024
	endedRemembers = 30 * time.Minute
)

// endedRecord is why one session ended, and whose it was.
type endedRecord struct {
	id     string
	reason Reason
	owner  Owner
	at     time.Time
}

// endedSessions remembers the last endedMemory ended sessions for endedRemembers each, so a
// request naming one can be told why it ended instead of only that it is unknown.
type endedSessions struct {
	mu    sync.Mutex
	now   func() time.Time
	byID  map[string]endedRecord
	order []string // oldest first
}

func (e *endedSessions) remember(id string, reason Reason, owner Owner) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.byID == nil {
		e.byID = make(map[string]endedRecord)
	}
	if _, seen := e.byID[id]; !seen {
		e.order = append(e.order, id)
	}
	e.byID[id] = endedRecord{id: id, reason: reason, owner: owner, at: e.clock()}
	for len(e.order) > endedMemory {
		delete(e.byID, e.order[0])
		e.order = e.order[1:]
	}
}

func (e *endedSessions) recall(id string) (endedRecord, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.clock()
	for len(e.order) > 0 && now.Sub(e.byID[e.order[0]].at) > endedRemembers {
		delete(e.byID, e.order[0])
		e.order = e.order[1:]
	}
	r, ok := e.byID[id]
	return r, ok
}

func (e *endedSessions) clock() time.Time {
	if e.now != nil {
		return e.now()
	}
	return time.Now()
}

// Ended answers why the session id named ended and whose it was, while the table still
// remembers it (the last 1024 ended sessions, each for 30 minutes). The caller must check the
// owner before saying anything: another principal's session is answered as unknown.
func (t *Table) Ended(id string) (Reason, Owner, bool) {
	r, ok := t.endedIDs.recall(id)
	return r.reason, r.owner, ok
}

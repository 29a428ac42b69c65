package session

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
)

// LimitError refuses a new session because the cap is reached. It names the limit so the
// client's message can say what to change.
type LimitError struct{ Limit int }

func (e *LimitError) Error() string {
	return fmt.Sprintf("the server is at its session limit (%d, MCP_MAX_SESSIONS); end an unused session or raise the limit", e.Limit)
}

// Hooks let the lifetime policy and the metrics follow sessions without the table knowing them.
type Hooks struct {
	Opened func(*Session)
	Ended  func(*Session, Reason)
}

// Table maps MCP-Session-Id values to sessions and enforces the session cap. A slot is taken
// before a login is attempted and comes back only when the gem is logged out again, so
// concurrent initializes can never overshoot the cap and the cap counts GemStone logins.
type Table struct {
	limit int // 0: no cap
	hooks Hooks

	mu   sync.Mutex
	used int
	byID map[string]*Session

	endedIDs endedSessions
}

// NewTable makes a table; limit 0 means no cap.
func NewTable(limit int, hooks Hooks) *Table {
	return &Table{limit: limit, hooks: hooks, byID: make(map[string]*Session)}
}

// Slot is a place under the cap, taken before a login and held until the gem is logged out.
type Slot struct {
	t    *Table
	once sync.Once
}

// Release gives the slot back (once; later calls do nothing).
func (s *Slot) Release() {
	s.once.Do(func() {
		s.t.mu.Lock()
		s.t.used--
		s.t.mu.Unlock()
	})
}

// Reserve takes a slot, or answers *LimitError without waiting.
func (t *Table) Reserve() (*Slot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.limit > 0 && t.used >= t.limit {
		return nil, &LimitError{Limit: t.limit}
	}
	t.used++
	return &Slot{t: t}, nil
}

// Add maps a session that holds slot; from now on End unmaps it and frees the slot.
func (t *Table) Add(s *Session, slot *Slot) {
	t.mu.Lock()
	s.table, s.slot = t, slot
	t.byID[s.id] = s
	t.mu.Unlock()
	if t.hooks.Opened != nil {
		t.hooks.Opened(s)
	}
}

// Get finds a live session by id.
func (t *Table) Get(id string) (*Session, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.byID[id]
	return s, ok
}

// All is a snapshot of the mapped sessions.
func (t *Table) All() []*Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*Session, 0, len(t.byID))
	for _, s := range t.byID {
		out = append(out, s)
	}
	return out
}

// Len is how many sessions are mapped.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}

// Used is how many slots are taken: mapped sessions, logins in progress, and sessions whose
// gems are still logging out.
func (t *Table) Used() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.used
}

// Limit is the cap (0: none).
func (t *Table) Limit() int { return t.limit }

// unmap removes an ending session and remembers why it ended (End set its reason first).
func (t *Table) unmap(s *Session) {
	t.mu.Lock()
	mapped := t.byID[s.id] == s
	if mapped {
		delete(t.byID, s.id)
	}
	t.mu.Unlock()
	if mapped {
		t.endedIDs.remember(s.id, s.reason, s.owner)
	}
}

func (t *Table) ended(s *Session, r Reason) {
	if t.hooks.Ended != nil {
		t.hooks.Ended(s, r)
	}
}

// NewID makes a session id: prefix (a router id and "-", or "") then 128 bits from the
// system CSPRNG in lower-case hex, so every byte is visible ASCII as MCP requires and a
// proxy can route on the prefix.
func NewID(prefix string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("session id: reading the CSPRNG: %w", err)
	}
	return prefix + hex.EncodeToString(b[:]), nil
}

// Package pending is the table of requests the server has sent a client and not yet had
// answered: a liveness ping on the session's stream, and each request a worker sends its
// client over the channel (router/channel: elicitation, sampling). Each gets an id in the
// server's own namespace ("srv-1", "srv-2", ...), so it can never collide with an id the
// client chose, and each is given up after a timeout (30 s by default) so an unanswered
// request decides something instead of hanging a session.
//
// The router resolves entries when a client POSTs a JSON-RPC response; whoever sent the
// request waits on the Call.
package pending

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is how long a server-sent request waits for its answer.
const DefaultTimeout = 30 * time.Second

// IDPrefix starts every id this table hands out.
const IDPrefix = "srv-"

var (
	// ErrTimeout: the client did not answer within the timeout.
	ErrTimeout = errors.New("pending: no answer within the timeout")
	// ErrAbandoned: the table was closed (the session ended) before an answer came.
	ErrAbandoned = errors.New("pending: the session ended before an answer came")
	// ErrAnswerTooLarge: the client's answer is larger than whoever waits for it can take.
	ErrAnswerTooLarge = errors.New("pending: the client's answer is larger than the limit")
	// ErrNotPending: no outstanding request has the answer's id (not ours, or a duplicate).
	ErrNotPending = errors.New("pending: no outstanding request has this id")
)

// Call is one outstanding server-sent request.
type Call struct {
	// ID is the JSON-RPC id to put on the request (a JSON string).
	ID     json.RawMessage
	Method string
	Sent   time.Time

	done   chan struct{}
	answer json.RawMessage
	err    error
}

// Done is closed when the call is answered, timed out or abandoned.
func (c *Call) Done() <-chan struct{} { return c.done }

// Result is the client's complete response message, or ErrTimeout / ErrAbandoned. Valid
// after Done is closed.
func (c *Call) Result() (json.RawMessage, error) {
	<-c.done
	return c.answer, c.err
}

// Table holds one session's outstanding server-sent requests. The zero value is not usable;
// use New.
type Table struct {
	timeout   time.Duration
	byMethod  map[string]time.Duration // per-method waits (SetTimeout), under mu
	maxAnswer int                      // 0: no limit
	expired   []Expired                // the last requests given up on, oldest first, under mu

	mu     sync.Mutex
	next   int
	calls  map[string]*entry
	closed bool
}

type entry struct {
	call  *Call
	timer *time.Timer
}

// Expired is a request given up on: an answer for it that still comes is late, not unknown.
type Expired struct {
	ID     string
	Method string
	Sent   time.Time
	Waited time.Duration
}

// LateError reports an answer that came after its request was given up on.
type LateError struct{ Expired }

func (e *LateError) Error() string {
	return "pending: the answer to " + e.ID + " (" + e.Method + ") came after its request had been given up on (waited " +
		e.Waited.String() + ")"
}

// keepExpired is how many given-up requests are remembered to tell a late answer from a stray.
const keepExpired = 32

// SetTimeout makes requests of method wait d (<= 0: the table's default) for their answer. A
// person answering an elicitation form needs longer than a client answering by itself.
func (t *Table) SetTimeout(method string, d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byMethod == nil {
		t.byMethod = make(map[string]time.Duration)
	}
	if d <= 0 {
		delete(t.byMethod, method)
		return
	}
	t.byMethod[method] = d
}

// New makes a table whose calls time out after timeout (DefaultTimeout when zero).
func New(timeout time.Duration) *Table {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Table{timeout: timeout, calls: make(map[string]*entry)}
}

// Start registers a new server-sent request and gives its id. The caller writes the
// request with that id and waits on the Call. A closed table answers a call that is
// already abandoned.
func (t *Table) Start(method string) *Call {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	id := IDPrefix + strconv.Itoa(t.next)
	raw, _ := json.Marshal(id)
	c := &Call{ID: raw, Method: method, Sent: time.Now(), done: make(chan struct{})}
	if t.closed {
		c.err = ErrAbandoned
		close(c.done)
		return c
	}
	e := &entry{call: c}
	wait := t.timeout
	if d, ok := t.byMethod[method]; ok {
		wait = d
	}
	e.timer = time.AfterFunc(wait, func() {
		// Given up on and remembered as such in one lock section: an answer that comes in the
		// instant after finds it late, never a stray.
		t.mu.Lock()
		e, ok := t.removeLocked(id)
		if ok {
			t.expired = append(t.expired, Expired{ID: id, Method: method, Sent: c.Sent, Waited: wait})
			if len(t.expired) > keepExpired {
				t.expired = t.expired[len(t.expired)-keepExpired:]
			}
		}
		t.mu.Unlock()
		if ok {
			e.complete(nil, ErrTimeout)
		}
	})
	t.calls[id] = e
	return c
}

// SetMaxAnswer bounds the size of an answer the table delivers (0: no bound): whoever waits
// for it (the worker, over a channel with a frame limit) could not take more.
func (t *Table) SetMaxAnswer(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.maxAnswer = n
}

// MaxAnswer is the bound SetMaxAnswer set (0: none).
func (t *Table) MaxAnswer() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.maxAnswer
}

// Resolve delivers a client's response (the whole message) to the call with that id. It
// reports false when it was not delivered (see Deliver).
func (t *Table) Resolve(id json.RawMessage, response json.RawMessage) bool {
	return t.Deliver(id, response) == nil
}

// Deliver is Resolve with the reason: a *LateError for an answer to a request recently given
// up on, ErrNotPending when no such call is outstanding (an id not ours, or a duplicate),
// ErrAnswerTooLarge when the answer is over the bound; the call then ends with
// ErrAnswerTooLarge, so its waiter learns why at once.
func (t *Table) Deliver(id json.RawMessage, response json.RawMessage) error {
	var s string
	if json.Unmarshal(id, &s) != nil || !strings.HasPrefix(s, IDPrefix) {
		return ErrNotPending
	}
	t.mu.Lock()
	for _, e := range t.expired {
		if e.ID == s {
			t.mu.Unlock()
			return &LateError{e}
		}
	}
	t.mu.Unlock()
	if limit := t.MaxAnswer(); limit > 0 && len(response) > limit {
		if !t.finish(s, nil, ErrAnswerTooLarge) {
			return ErrNotPending
		}
		return ErrAnswerTooLarge
	}
	if !t.finish(s, response, nil) {
		return ErrNotPending
	}
	return nil
}

func (t *Table) finish(id string, answer json.RawMessage, err error) bool {
	t.mu.Lock()
	e, ok := t.removeLocked(id)
	t.mu.Unlock()
	if ok {
		e.complete(answer, err)
	}
	return ok
}

// removeLocked takes the call with that id out of the table; whoever took it completes it.
func (t *Table) removeLocked(id string) (*entry, bool) {
	e, ok := t.calls[id]
	if ok {
		delete(t.calls, id)
	}
	return e, ok
}

func (e *entry) complete(answer json.RawMessage, err error) {
	e.timer.Stop()
	e.call.answer, e.call.err = answer, err
	close(e.call.done)
}

// Len is how many calls are outstanding.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.calls)
}

// Close abandons every outstanding call; later Starts are abandoned at once.
func (t *Table) Close() {
	t.mu.Lock()
	t.closed = true
	ids := make([]string, 0, len(t.calls))
	for id := range t.calls {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	for _, id := range ids {
		t.finish(id, nil, ErrAbandoned)
	}
}

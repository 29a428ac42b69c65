package session

import "sync"

// fifo admits one holder at a time, in the order turns were taken. sync.Mutex is not used
// because it does not promise order, and a client that sends A then B must see A run first.
type fifo struct {
	mu      sync.Mutex
	busy    bool
	waiters []*turn
}

type turn struct {
	ready   chan struct{}
	granted bool
	then    func(*turn) // run on a goroutine of its own when granted (joinThen)
}

// join takes a place in the line at once; the turn is ready when it is this one's go.
func (q *fifo) join() *turn {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := &turn{ready: make(chan struct{})}
	if !q.busy {
		q.busy = true
		t.granted = true
		close(t.ready)
		return t
	}
	q.waiters = append(q.waiters, t)
	return t
}

// joinThen takes a place in the line for then, which runs on a new goroutine when it is this
// one's go and must leave the turn when done. Nothing waits meanwhile, so a long line costs a
// small struct per place, not a goroutine.
func (q *fifo) joinThen(then func(*turn)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := &turn{ready: make(chan struct{}), then: then}
	if !q.busy {
		q.busy = true
		t.granted = true
		close(t.ready)
		go then(t)
		return
	}
	q.waiters = append(q.waiters, t)
}

// tryJoin takes the turn only if nobody holds it and nobody waits.
func (q *fifo) tryJoin() (*turn, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.busy {
		return nil, false
	}
	q.busy = true
	t := &turn{ready: make(chan struct{}), granted: true}
	close(t.ready)
	return t, true
}

// leave gives the turn to the next in line, or, for a turn never granted, steps out of line.
func (q *fifo) leave(t *turn) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !t.granted {
		for i, w := range q.waiters {
			if w == t {
				q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
				break
			}
		}
		return
	}
	t.granted = false
	if len(q.waiters) == 0 {
		q.busy = false
		return
	}
	next := q.waiters[0]
	q.waiters = q.waiters[1:]
	next.granted = true
	close(next.ready)
	if next.then != nil {
		go next.then(next)
	}
}

// waiting is how many turns are in line behind the holder.
func (q *fifo) waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiters)
}

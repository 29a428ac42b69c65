package gsmodel

import (
	"slices"
	"sync/atomic"
)

// Session is one logged-in gem of the model: its view of the stone, its uncommitted changes,
// its session temps and its running Smalltalk. A Session is used by one goroutine at a time.
type Session struct {
	img       *Image
	id        int
	user      *Object // the UserProfile
	view      int     // the commit this session's view shows
	dirty     map[*Object]*State
	base      map[*Object]int // the view each dirty object was first copied at
	failed    bool            // a commit failed; continueTransaction refuses until abort
	conflicts map[string][]*Object
	lastRes   string // commitResult of transactionConflicts
	mcache    map[cacheKey]*Method
	temps     *Object // SessionTemps current
	handlers  *handler
	depth     int
	interrupt atomic.Bool // a soft break is pending
	hard      atomic.Bool // a hard break is pending
	gil       bool        // running under the image's interpreter lock (stone mode)
	sends     int
	memTick   int // sends since the live heap was last read (checkMemory)
	cacheName string
	env       map[string]string // gem environment variables this session set (gemEnvironmentVariable:put:)
	out       func(string)      // where GsFile stdout and gciLogServer: lines go
	sigEnv    map[*Object]*signalEnv
	stack     []*frame   // the running process's activations, innermost last (frames.go)
	sched     *scheduler // the session's GsProcesses, made on first use (process.go)
	ending    bool       // logging out: unwinding processes run no ensure: blocks
	// notify is the session's notify set and signaled what commits changed in it since the
	// last System signaledObjects; both are read and written only under img.mu, since another
	// session's commit fills signaled.
	notify   map[*Object]bool
	signaled []*Object

	// cacheEpoch changes whenever the method cache is flushed; a send site's cached lookup is
	// good only for the session and epoch it was made in.
	cacheEpoch uint64
	freeFrames []*frame // released frames, for reuse (newFrame)
	restartAt  *frame   // the frame a trimmed process unwinds to and runs again (frames.go)

	// breaks are the gem's method breakpoints, by method and step point offset; breakCount and
	// steppers (processes with a step set) make every send check for a stop (steps.go).
	breaks     map[*Method]map[int]bool
	breakCount int
	steppers   int
	frameSeq   uint64 // numbers activations, so a reused frame is told from the one it was
}

// rd answers the state of o that this session sees.
func (s *Session) rd(o *Object) *State {
	if o.st != nil {
		return o.st
	}
	if d, ok := s.dirty[o]; ok {
		return d
	}
	return o.at(s.view)
}

// at answers the newest committed state no newer than view.
func (o *Object) at(view int) *State {
	for i := len(o.vers) - 1; i >= 0; i-- {
		if o.vers[i].commit <= view {
			return o.vers[i].st
		}
	}
	return o.vers[0].st
}

// wr answers the state of o that this session may change: the object itself while it is
// transient, else the session's own copy of the committed state it sees.
func (s *Session) wr(o *Object) *State {
	if o.st != nil {
		return o.st
	}
	if d, ok := s.dirty[o]; ok {
		return d
	}
	d := o.at(s.view).clone()
	s.dirty[o] = d
	s.base[o] = s.view
	if d.class != nil || (s.img.k != nil && o.cls == s.img.k.GsMethodDictionary) {
		s.flushMethodCache()
	}
	return d
}

// flushMethodCache forgets every lookup: the session's map and, through the epoch, the caches of
// the send sites (sendSite).
func (s *Session) flushMethodCache() {
	s.mcache = map[cacheKey]*Method{}
	s.cacheEpoch++
}

// needsCommit is GemStone's `System needsCommit`: has this session changed a persistent object.
func (s *Session) needsCommit() bool { return len(s.dirty) > 0 }

// commit installs this session's changes as a new commit, unless another session committed a
// change to one of the same objects after this session's view of it (write-write conflict).
func (s *Session) commit() bool {
	img := s.img
	img.mu.Lock()
	defer img.mu.Unlock()
	if s.failed {
		return false
	}
	conflicts := s.writeWriteConflicts()
	if len(conflicts) > 0 {
		s.failed = true
		s.conflicts = map[string][]*Object{"Write-Write": conflicts}
		s.lastRes = "retryFailure"
		return false
	}
	img.commit++
	n := img.commit
	for o, st := range s.dirty {
		o.vers = append(o.vers, version{n, st})
	}
	for _, st := range s.dirty {
		img.persist(st, n)
	}
	img.signalNotifySets(s.dirty)
	s.dirty = map[*Object]*State{}
	s.base = map[*Object]int{}
	s.view = n
	s.conflicts = nil
	s.lastRes = "success"
	s.flushMethodCache()
	return true
}

func (s *Session) writeWriteConflicts() []*Object {
	var out []*Object
	for o := range s.dirty {
		last := o.vers[len(o.vers)-1].commit
		if last > s.base[o] {
			out = append(out, o)
		}
	}
	return out
}

// abort discards this session's changes and refreshes its view.
func (s *Session) abort() {
	s.img.mu.Lock()
	defer s.img.mu.Unlock()
	s.dirty = map[*Object]*State{}
	s.base = map[*Object]int{}
	s.view = s.img.commit
	s.failed = false
	s.conflicts = nil
	s.lastRes = ""
	s.flushMethodCache()
}

// continueTransaction refreshes the view and keeps the uncommitted changes. It answers false
// (and keeps the old view) when a change another session committed meets one of them.
func (s *Session) continueTransaction() bool {
	s.img.mu.Lock()
	defer s.img.mu.Unlock()
	if len(s.writeWriteConflicts()) > 0 {
		s.lastRes = "failure"
		return false
	}
	s.view = s.img.commit
	for o := range s.dirty {
		s.base[o] = s.view
	}
	s.lastRes = "readOnly"
	s.flushMethodCache()
	return true
}

// persist makes every transient object reachable from st persistent as of commit n.
func (img *Image) persist(st *State, n int) {
	var visit func(v Value)
	visit = func(v Value) {
		o, ok := v.(*Object)
		if !ok || o == nil || o.st == nil || o.vers != nil {
			return
		}
		if o.cls != nil && img.k != nil && o.cls == img.k.Symbol {
			return // symbols are canonical and never change
		}
		o.vers = []version{{n, o.st}}
		inner := o.st
		o.st = nil
		img.visitState(inner, visit)
		if m, ok := o.ext.(*Method); ok {
			visitEach(visit, m.literals)
			visitEach(visit, m.globals)
		}
	}
	img.visitState(st, visit)
}

func (img *Image) visitState(st *State, visit func(Value)) {
	visitEach(visit, st.iv)
	visitEach(visit, st.ix)
	if st.dict != nil {
		for i := range st.dict.keys {
			if st.dict.live[i] {
				visit(st.dict.keys[i])
				visit(st.dict.vals[i])
			}
		}
	}
	if c := st.class; c != nil {
		visit(c.thisClass)
		visit(c.superclass)
		visit(c.inDictionary)
		visitEach(visit, c.classHistory)
		visitEach(visit, c.pools)
		visit(c.comment)
		visit(c.category)
		for _, a := range c.classVars {
			visit(a)
		}
		visitEach(visit, c.civValues)
		visit(c.methodDict)
		visit(c.selectorSet)
	}
}

func visitEach[T any](visit func(Value), vs []T) {
	for _, v := range vs {
		visit(v)
	}
}

// CommitNow commits the session's work, as System commitTransaction does.
func (s *Session) CommitNow() bool { return s.commit() }

// signalNotifySets tells every session whose notify set holds an object of a commit that it
// changed: every session, the committing one included (the Programmer's Guide, "Signals and
// Notifiers", Object Change Notification: a session is notified of all changes to an object in
// its notify set, including the changes it commits itself). The caller holds img.mu.
func (img *Image) signalNotifySets(changed map[*Object]*State) {
	for _, other := range img.sessions {
		for o := range changed {
			if other.notify[o] && !slices.Contains(other.signaled, o) {
				other.signaled = append(other.signaled, o)
			}
		}
	}
}

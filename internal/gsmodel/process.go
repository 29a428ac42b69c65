package gsmodel

import "time"

// GsProcess and Semaphore: a session's Smalltalk processes, as debuggers that run on real
// stones use them. Evidence (feenkcom/gt4gemstone, src-gs/gt4gemstone.gs,
// GtGemStoneEvaluationContext>>evaluateBlock:from: and its handlerBlock:): a block's
// `newProcess` is resumed while the caller waits on a `Semaphore`; the process's handler
// signals the semaphore and `suspend`s its own process, which stays suspended, its frames
// readable, until it is resumed or `terminate`d. GemTalk/Grail (docs, "Capture at raise time")
// measured on a stone that frames are readable only for a suspended process.
//
// The model runs each process in its own goroutine and hands the session from one to another,
// so exactly one runs at a time, as in a gem: `resume` makes a process ready without running
// it, and the running process gives the session up only when it waits on a semaphore, suspends
// itself or ends. Priorities are not modelled (nothing here sets one).

type procStatus int

const (
	procNew        procStatus = iota // made by newProcess, never run
	procReady                        // resumed, waiting for the session
	procRunning                      // the active process
	procSuspended                    // suspended itself, or was suspended while ready
	procWaiting                      // waiting on a semaphore
	procTerminated                   // ended, or terminated
)

// gsProcess is one GsProcess. The main process is the one the session's calls run in.
type gsProcess struct {
	obj     *Object
	body    *Block
	status  procStatus
	started bool
	isMain  bool
	wake    chan procWake
	saved   procState
	sem     *semaphore // while waiting
	ended   any        // the panic that ended it, when it did not return
	done    chan struct{}
	trim    *frame // the frame _trimStackToLevel: left on top, run again on resume (frames.go)

	breakLevel int       // breakpointLevel:, 0 unless set: stops at breakpoints and steps only when set (steps.go)
	step       *stepMode // the step set for its next run
	breaking   bool      // signalling a Breakpoint: its handler's code is not stopped in
}

// procState is what the session holds for the running process and keeps for the others.
type procState struct {
	handlers *handler
	depth    int
	sigEnv   map[*Object]*signalEnv
	stack    []*frame
}

// procWake is how a process is handed the session: to run on, to unwind (terminate), or to
// fail with what ended the process it waited for.
type procWake struct {
	terminate bool
	raise     func()
}

type semaphore struct {
	signals int
	waiting []*gsProcess
}

// scheduler is a session's processes.
type scheduler struct {
	main  *gsProcess
	cur   *gsProcess
	ready []*gsProcess
	live  map[*gsProcess]bool // started and not yet ended: the goroutines to end at logout
}

// terminateProcess unwinds a process's goroutine (running its ensure: blocks), as terminate
// does.
type terminateProcess struct{ p *gsProcess }

// sessionEnded unwinds a process's goroutine at logout, running nothing: the gem is gone.
type sessionEnded struct{}

func (s *Session) scheduler() *scheduler {
	if s.sched == nil {
		main := &gsProcess{status: procRunning, started: true, isMain: true, wake: make(chan procWake)}
		s.sched = &scheduler{main: main, cur: main, live: map[*gsProcess]bool{}}
		main.obj = s.processObject(main)
	}
	return s.sched
}

func (s *Session) processObject(p *gsProcess) *Object {
	return &Object{cls: s.img.byName["GsProcess"], st: &State{}, id: s.img.newObjectID(), ext: p}
}

func (s *Session) processOf(v Value) *gsProcess {
	if o, ok := v.(*Object); ok {
		if p, ok := o.ext.(*gsProcess); ok {
			return p
		}
	}
	s.signalNew("ArgumentTypeError", 2094, "a GsProcess expected, got "+s.printString(v), nil)
	return nil
}

func (s *Session) saveProc() procState {
	return procState{handlers: s.handlers, depth: s.depth, sigEnv: s.sigEnv, stack: s.stack}
}

func (s *Session) loadProc(st procState) {
	s.handlers, s.depth, s.sigEnv, s.stack = st.handlers, st.depth, st.sigEnv, st.stack
}

// newProcess is ExecBlock>>newProcess: a process that runs the block once resumed.
func (s *Session) newProcess(b *Block) Value {
	sc := s.scheduler()
	if b.code.nargs != 0 {
		return s.signalNew("ArgumentError", 2101, "newProcess needs a block of no arguments", nil)
	}
	p := &gsProcess{body: b, status: procNew, wake: make(chan procWake), done: make(chan struct{})}
	p.obj = s.processObject(p)
	_ = sc
	return p.obj
}

// handTo makes p the running process and blocks the calling one until it is handed back.
func (s *Session) handTo(p *gsProcess, w procWake) {
	sc := s.sched
	me := sc.cur
	me.saved = s.saveProc()
	s.start(p, w)
	s.awaitTurn(me)
}

// start gives the session to p (its goroutine runs from here); the caller must not touch the
// session afterwards until it is handed back.
func (s *Session) start(p *gsProcess, w procWake) {
	sc := s.sched
	sc.cur = p
	s.loadProc(p.saved)
	p.status = procRunning
	if !p.started {
		p.started = true
		sc.live[p] = true
		go s.runProcess(p)
		return
	}
	p.wake <- w
}

func (s *Session) awaitTurn(me *gsProcess) {
	w, ok := <-me.wake
	if !ok {
		// Logout: unwind this goroutine on its own state (endProcesses waits for it).
		s.loadProc(me.saved)
		panic(sessionEnded{})
	}
	if w.terminate {
		panic(&terminateProcess{me})
	}
	if f := me.trim; f != nil {
		me.trim = nil
		s.restartAt = f
		panic(&restartFrame{f})
	}
	if w.raise != nil {
		w.raise()
	}
}

// runProcess is a process's goroutine: the block, then the session to the next process.
func (s *Session) runProcess(p *gsProcess) {
	defer func() {
		r := recover()
		if _, gone := r.(sessionEnded); gone {
			close(p.done)
			return
		}
		close(p.done)
		if t, ok := r.(*terminateProcess); !ok || t.p != p {
			p.ended = r
		}
		s.clearStep(p) // a step it never reached: the session's sends stop checking for it
		p.status = procTerminated
		delete(s.sched.live, p)
		next, w := s.next(p)
		s.start(next, w)
	}()
	s.callBlock(p.body, nil)
}

// next picks the process to run when p gives the session up: the first ready one. When none
// is ready, no process could ever wake the main one, which waits for its call to end; a gem
// would wait for an event that never comes, so the model ends the main process's call
// instead: with what ended p, when p ended by an error or a break (so that a break of the
// call still ends it), else with a refusal naming the deadlock.
func (s *Session) next(p *gsProcess) (*gsProcess, procWake) {
	sc := s.sched
	if len(sc.ready) > 0 {
		n := sc.ready[0]
		sc.ready = sc.ready[1:]
		return n, procWake{}
	}
	main := sc.main
	if main.sem != nil {
		main.sem.remove(main)
		main.sem = nil
	}
	ended := p.ended
	return main, procWake{raise: func() {
		if ended != nil {
			panic(ended)
		}
		s.refuse("the main process waits and no process is ready to run (a deadlock GemStone would sit in)")
	}}
}

// giveUp hands the session on from the running process, which has just been made to wait or
// suspend, and returns when it is resumed. The main process with nothing else to run gets the
// deadlock refusal at once.
func (s *Session) giveUp() {
	sc := s.sched
	me := sc.cur
	next, w := s.next(me)
	if next == me {
		me.status = procRunning
		w.raise()
		return
	}
	s.handTo(next, w)
}

func (sem *semaphore) remove(p *gsProcess) {
	for i, q := range sem.waiting {
		if q == p {
			sem.waiting = append(sem.waiting[:i], sem.waiting[i+1:]...)
			return
		}
	}
}

func (s *Session) semaphoreOf(v Value) *semaphore {
	o := s.argObj(v)
	if o.ext == nil {
		o.ext = &semaphore{}
	}
	sem, ok := o.ext.(*semaphore)
	if !ok {
		s.signalNew("ArgumentTypeError", 2094, "a Semaphore expected", nil)
	}
	return sem
}

func (s *Session) semWait(v Value) Value {
	sem := s.semaphoreOf(v)
	sc := s.scheduler()
	if sem.signals > 0 {
		sem.signals--
		return v
	}
	me := sc.cur
	me.status = procWaiting
	me.sem = sem
	sem.waiting = append(sem.waiting, me)
	s.giveUp()
	return v
}

func (s *Session) semSignal(v Value) Value {
	sem := s.semaphoreOf(v)
	sc := s.scheduler()
	if len(sem.waiting) == 0 {
		sem.signals++
		return v
	}
	p := sem.waiting[0]
	sem.waiting = sem.waiting[1:]
	p.sem = nil
	p.status = procReady
	sc.ready = append(sc.ready, p)
	return v
}

func (s *Session) procResume(v Value) Value {
	p := s.processOf(v)
	sc := s.scheduler()
	if p.status != procNew && p.status != procSuspended {
		return s.refuse("resume of a GsProcess that is not suspended (%s)", p.statusName())
	}
	p.status = procReady
	sc.ready = append(sc.ready, p)
	return v
}

func (s *Session) procSuspend(v Value) Value {
	p := s.processOf(v)
	sc := s.scheduler()
	switch p.status {
	case procRunning:
		if p.isMain {
			return s.refuse("suspending the process the session's call runs in")
		}
		p.status = procSuspended
		s.giveUp()
	case procReady:
		sc.removeReady(p)
		p.status = procSuspended
	case procSuspended, procNew:
	default:
		return s.refuse("suspend of a GsProcess that is %s", p.statusName())
	}
	return v
}

func (sc *scheduler) removeReady(p *gsProcess) {
	for i, q := range sc.ready {
		if q == p {
			sc.ready = append(sc.ready[:i], sc.ready[i+1:]...)
			return
		}
	}
}

// procTerminate ends p. A process that has run unwinds in its own goroutine, running its
// ensure: blocks (McpKernelFactsTest pins that terminate runs them), and the session comes
// back to the caller.
func (s *Session) procTerminate(v Value) Value {
	p := s.processOf(v)
	sc := s.scheduler()
	switch {
	case p.isMain:
		return s.refuse("terminating the process the session's call runs in")
	case p.status == procTerminated:
		return v
	case !p.started:
		p.status = procTerminated
		return v
	case p == sc.cur:
		panic(&terminateProcess{p})
	}
	sc.removeReady(p)
	if p.sem != nil {
		p.sem.remove(p)
		p.sem = nil
	}
	me := sc.cur
	me.status = procReady
	sc.ready = append([]*gsProcess{me}, sc.ready...)
	s.handTo(p, procWake{terminate: true})
	return v
}

func (p *gsProcess) statusName() string {
	return [...]string{"new", "ready", "running", "suspended", "waiting", "terminated"}[p.status]
}

// endProcesses ends every process's goroutine at logout without running any Smalltalk.
func (s *Session) endProcesses() {
	if s.sched == nil {
		return
	}
	s.ending = true
	for p := range s.sched.live {
		if p != s.sched.cur {
			close(p.wake)
			<-p.done // one at a time: their unwinding touches the session
		}
	}
	s.sched.live = nil
}

func (img *Image) processPrims(s *Session) {
	img.prim(s, "ExecBlock", "newProcess", func(s *Session, a Value, x []Value) Value { return s.newProcess(a.(*Block)) })
	img.prim(s, "GsProcess", "resume", func(s *Session, a Value, x []Value) Value { return s.procResume(a) })
	img.prim(s, "GsProcess", "suspend", func(s *Session, a Value, x []Value) Value { return s.procSuspend(a) })
	img.prim(s, "GsProcess", "terminate", func(s *Session, a Value, x []Value) Value { return s.procTerminate(a) })
	img.prim(s, "GsProcess", "_isTerminated", func(s *Session, a Value, x []Value) Value {
		return s.processOf(a).status == procTerminated
	})
	img.prim(s, "GsProcess", "_isSuspended", func(s *Session, a Value, x []Value) Value {
		return s.processOf(a).status == procSuspended
	})
	// GemTalk/Grail docs (measured a call's cost with System _timeMs on a stone): milliseconds.
	img.prim(s, "System class", "_timeMs", func(s *Session, a Value, x []Value) Value { return time.Now().UnixMilli() })
	img.prim(s, "Semaphore", "wait", func(s *Session, a Value, x []Value) Value { return s.semWait(a) })
	img.prim(s, "Semaphore", "signal", func(s *Session, a Value, x []Value) Value { return s.semSignal(a) })
}

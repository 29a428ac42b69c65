package wiring

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// GCHeapFloor is the heap the collector may let the front end grow to before it collects, however
// little of it is live. The router's live heap under load is well under a megabyte (sessions,
// their queues, a few buffers), and everything a call allocates is garbage when its answer is
// written; with Go's default pacing (collect when the heap doubles, 4 MiB at least) it collected
// about 27 times a second at 7,000 calls/s, each cycle stopping the world and scanning every
// goroutine's stack, about a fifth of the router's CPU per call (docs/performance.md, benchmark
// 5). 32 MiB of heap is little beside a gem, which is a process of its own with a cache of
// its own: the floor costs at most that much resident memory, and nothing once the live heap
// is past half of it (a thousand sessions with open streams), where the default pacing holds.
const GCHeapFloor = 32 << 20

// FloorGCHeap paces the collector so that its heap goal is never below floor: after each
// collection it sets the GC percentage to what makes the goal max(floor, twice the live heap),
// never below Go's default of 100. It is for a program's main, once: the percentage is the
// process's. A program whose operator set GOGC should not call it (Go's pacing is what they
// asked for). The answer stops it (it then leaves the percentage at 100).
func FloorGCHeap(floor uint64) (stop func()) {
	f := &gcFloor{floor: floor}
	f.adjust()
	f.arm()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped = true
		debug.SetGCPercent(100)
	}
}

type gcFloor struct {
	floor uint64

	mu      sync.Mutex // the stop and the adjustments after collections
	stopped bool
	percent int
}

// arm hooks the end of the next collection: a finalizer runs once the collector has found its
// object unreachable, so it runs once per cycle, on the finalizer goroutine, and costs nothing
// while nothing allocates.
func (f *gcFloor) arm() {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		if f.adjust() {
			f.arm()
		}
	})
}

// adjust sets the percentage for the live heap the last collection found; false once stopped.
func (f *gcFloor) adjust() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return false
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return true
	}
	if p := gcPercentFor(s[0].Value.Uint64(), f.floor); p != f.percent {
		f.percent = p
		debug.SetGCPercent(p)
	}
	return true
}

// gcPercentFor is the GC percentage whose heap goal is floor for a heap with live bytes live,
// or Go's default of 100 when twice live is already past floor. The runtime's goal is the larger
// of live*(1+p/100) and its minimum heap, 4 MiB*p/100, so p is the smaller of the two that give
// floor. Rounded down to tens, so that a live heap that moves a little does not reset the pacer
// after every cycle.
func gcPercentFor(live, floor uint64) int {
	const goMinimumHeap = 4 << 20 // the runtime's minimum heap at GOGC=100 (runtime/mgcpacer.go)
	if live == 0 {
		live = 1
	}
	if live*2 >= floor {
		return 100
	}
	p := min((floor-live)*100/live, floor*100/goMinimumHeap)
	return int(max(p/10*10, 100))
}

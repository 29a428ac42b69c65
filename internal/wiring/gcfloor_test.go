package wiring

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The goal the runtime computes for a percentage p: the larger of live*(1+p/100) and its
// minimum heap, 4 MiB*p/100.
func goalFor(live uint64, p int) uint64 {
	return max(live+live*uint64(p)/100, 4<<20*uint64(p)/100)
}

func TestGCPercentForKeepsTheGoalAtTheFloor(t *testing.T) {
	const floor = 32 << 20
	for _, live := range []uint64{0, 100 << 10, 1 << 20, 3 << 20, 5 << 20, 10 << 20, 15 << 20} {
		p := gcPercentFor(live, floor)
		if goal := goalFor(live, p); goal > floor || goal < floor*9/10 {
			t.Errorf("live %d KiB: percent %d gives a goal of %d KiB, want about the floor, %d KiB", live>>10, p, goal>>10, floor>>10)
		}
	}
}

func TestGCPercentForIsGosDefaultPastHalfTheFloor(t *testing.T) {
	for _, live := range []uint64{16 << 20, 20 << 20, 1 << 30} {
		if p := gcPercentFor(live, 32<<20); p != 100 {
			t.Errorf("live %d MiB: percent %d, want 100", live>>20, p)
		}
	}
}

// After every collection the percentage follows the live heap: above 100 while the heap is
// small, Go's 100 once it is past half the floor, and 100 again after stop.
func TestFloorGCHeapFollowsTheLiveHeap(t *testing.T) {
	stop := FloorGCHeap(GCHeapFloor)
	defer stop()
	if p := currentGCPercent(); p <= 100 {
		t.Fatalf("with the test's small live heap the percent is %d, want above 100", p)
	}
	ballast := make([]byte, GCHeapFloor*3/4)
	awaitPercent(t, "a live heap of 3/4 of the floor", func(p int) bool { return p == 100 })
	runtime.KeepAlive(ballast)
	ballast = nil
	awaitPercent(t, "the heap freed again", func(p int) bool { return p > 100 })
	stop()
	if p := currentGCPercent(); p != 100 {
		t.Fatalf("after stop the percent is %d, want 100", p)
	}
}

// awaitPercent collects until the percentage satisfies want (the finalizer that sets it runs
// after the collection, on its own goroutine), failing after a generous 10 s.
func awaitPercent(t *testing.T, what string, want func(int) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !want(currentGCPercent()) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the percent is still %d after 10 s of collections", what, currentGCPercent())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

func currentGCPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

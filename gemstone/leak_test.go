package gemstone

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestThousandLoginLogoutCyclesLeakNoGoroutineThreadOrDescriptor(t *testing.T) {
	lib := openStandin(t)
	params := standinLogin(t)
	cycle := func(i int) {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		s, err := lib.Login(ctx, params)
		if err != nil {
			t.Fatalf("cycle %d: login: %v", i, err)
		}
		if _, err := s.Perform(ctx, "System", "session"); err != nil {
			t.Fatalf("cycle %d: call: %v", i, err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatalf("cycle %d: logout: %v", i, err)
		}
	}
	// Warm up: the runtime and the library create their long-lived threads on first use.
	for i := range 20 {
		cycle(i)
	}
	fd0, task0, g0 := resourceCounts(t)
	const cycles = 1000
	start := time.Now()
	for i := range cycles {
		cycle(i)
	}
	elapsed := time.Since(start)
	var fd1, task1, g1 int
	for deadline := time.Now().Add(3 * time.Second); ; {
		fd1, task1, g1 = resourceCounts(t)
		if (fd1 <= fd0+2 && task1 <= task0+4 && g1 <= g0+2) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%d login/call/logout cycles in %v (%v each)", cycles, elapsed, elapsed/cycles)
	t.Logf("file descriptors %d -> %d, OS threads %d -> %d, goroutines %d -> %d", fd0, fd1, task0, task1, g0, g1)
	if fd1 > fd0+2 {
		t.Errorf("file descriptors grew from %d to %d", fd0, fd1)
	}
	if task1 > task0+4 {
		t.Errorf("OS threads grew from %d to %d", task0, task1)
	}
	if g1 > g0+2 {
		t.Errorf("goroutines grew from %d to %d", g0, g1)
	}
	if gems := gemChildren(t); len(gems) != 0 {
		t.Errorf("%d stand-in gem processes outlived their logout: %v", len(gems), gems)
	}
}

// resourceCounts counts this process's open descriptors and OS threads (from /proc) and its
// goroutines.
func resourceCounts(t *testing.T) (fds, threads, goroutines int) {
	t.Helper()
	runtime.GC()
	count := func(dir string) int {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("reading %s: %v", dir, err)
		}
		return len(entries)
	}
	return count("/proc/self/fd"), count("/proc/self/task"), runtime.NumGoroutine()
}

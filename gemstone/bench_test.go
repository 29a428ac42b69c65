package gemstone

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSmallPerformRoundTrip measures one mcpHandle: of a tiny echo through the binding
// and the stand-in gem, next to a raw socketpair echo of the same request bytes between two
// goroutines in the same run. ns/op is the binding; socketpair-ns/op the baseline;
// x-socketpair their ratio.
func BenchmarkSmallPerformRoundTrip(b *testing.B) {
	lib := openStandin(b)
	s := loginPrepared(b, lib)
	msg := toolCall(1, "echo", map[string]any{"text": "hi"})
	if _, err := s.Perform(callCtx(b), "McpServer", "mcpHandle:", String(msg)); err != nil {
		b.Fatal(err)
	}
	baseline := socketpairEcho(b, msg, b.N)
	ctx := callCtx(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := s.Perform(ctx, "McpServer", "mcpHandle:", String(msg)); err != nil {
			b.Fatal(err)
		}
	}
	perOp := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	b.ReportMetric(baseline, "socketpair-ns/op")
	b.ReportMetric(perOp/baseline, "x-socketpair")
}

// socketpairEcho answers the mean ns of writing msg to a socketpair and reading it back from
// an echoing goroutine, over n round trips. The descriptors stay blocking, outside Go's
// netpoller, like the binding's GCI socket.
func socketpairEcho(b *testing.B, msg []byte, n int) float64 {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	near, far := os.NewFile(uintptr(fds[0]), "near"), os.NewFile(uintptr(fds[1]), "far")
	defer near.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer far.Close()
		buf := make([]byte, len(msg))
		for {
			if _, err := io.ReadFull(far, buf); err != nil {
				return
			}
			if _, err := far.Write(buf); err != nil {
				return
			}
		}
	}()
	reply := make([]byte, len(msg))
	start := time.Now()
	for range n {
		if _, err := near.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(near, reply); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	syscall.Shutdown(fds[0], syscall.SHUT_RDWR)
	<-done
	return float64(elapsed.Nanoseconds()) / float64(n)
}

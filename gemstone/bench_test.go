package gemstone

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSmallPerformRoundTrip measures one small perform round trip through the binding
// and the stand-in gem, next to a raw socketpair echo of the same request bytes between two
// goroutines in the same run: ns/op is the binding, socketpair-ns/op the baseline and
// x-socketpair their ratio. "mcpHandle-echo" is the contract's entry with a tiny echo (the
// stand-in gem parses and answers JSON-RPC); "System-session" a trivial selector, the floor of
// binding plus stand-in transport.
func BenchmarkSmallPerformRoundTrip(b *testing.B) {
	lib := openStandin(b)
	s := loginPrepared(b, lib)
	echo := toolCall(1, "echo", map[string]any{"text": "hi"})
	b.Run("mcpHandle-echo", func(b *testing.B) {
		benchPerform(b, s, echo, "McpServer", "mcpHandle:", String(echo))
	})
	b.Run("System-session", func(b *testing.B) {
		benchPerform(b, s, []byte("System session"), "System", "session")
	})
}

func benchPerform(b *testing.B, s *Session, request []byte, receiver, selector string, args ...Arg) {
	ctx := callCtx(b)
	if _, err := s.Perform(ctx, receiver, selector, args...); err != nil {
		b.Fatal(err)
	}
	baseline := socketpairEcho(b, request, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := s.Perform(ctx, receiver, selector, args...); err != nil {
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

package gemstone

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkSmallPerformRoundTrip measures one small perform round trip through the binding
// and the stand-in gem, next to a raw socketpair echo of the same request bytes between two
// goroutines in the same run: ns/op is the binding, socketpair-ns/op the baseline and
// x-socketpair their ratio. process-echo-ns/op and x-process-echo are the same echo with the
// far end in a child process, as the stand-in's gem is. "mcpHandle-echo" is the contract's entry with a tiny echo (the
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
	processBaseline := processEcho(b, request, b.N)
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
	b.ReportMetric(processBaseline, "process-echo-ns/op")
	b.ReportMetric(perOp/processBaseline, "x-process-echo")
}

// echoChildEnv makes the test binary, started by processEcho, echo on descriptor 3.
const echoChildEnv = "GEMSTONE_TEST_ECHO_CHILD"

// echoChild echoes whatever arrives on descriptor 3 until EOF.
func echoChild() int {
	conn := os.NewFile(3, "echo")
	buf := make([]byte, 64<<10)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return 0
		}
		if _, err := conn.Write(buf[:n]); err != nil {
			return 0
		}
	}
}

// processEcho is socketpairEcho with the far end in a child process (this test binary).
func processEcho(b *testing.B, msg []byte, n int) float64 {
	near, far := socketpair(b)
	defer near.Close()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), echoChildEnv+"=1")
	child.ExtraFiles = []*os.File{far}
	if err := child.Start(); err != nil {
		b.Fatal(err)
	}
	far.Close()
	defer child.Wait()
	reply := make([]byte, len(msg))
	roundTrips(b, near, msg, reply, 1) // so the child's start-up is not timed
	elapsed := roundTrips(b, near, msg, reply, n)
	syscall.Shutdown(int(near.Fd()), syscall.SHUT_RDWR)
	return float64(elapsed.Nanoseconds()) / float64(n)
}

// socketpair answers the two ends of a Unix stream socketpair, left blocking.
func socketpair(b *testing.B) (near, far *os.File) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		b.Fatal(err)
	}
	return os.NewFile(uintptr(fds[0]), "near"), os.NewFile(uintptr(fds[1]), "far")
}

// roundTrips times n writes of msg to conn, each followed by reading the echo into reply.
func roundTrips(b *testing.B, conn io.ReadWriter, msg, reply []byte, n int) time.Duration {
	start := time.Now()
	for range n {
		if _, err := conn.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(conn, reply); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// socketpairEcho answers the mean ns of writing msg to a socketpair and reading it back from
// an echoing goroutine, over n round trips. The descriptors stay blocking, outside Go's
// netpoller, like the binding's GCI socket.
func socketpairEcho(b *testing.B, msg []byte, n int) float64 {
	near, far := socketpair(b)
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
	elapsed := roundTrips(b, near, msg, reply, n)
	syscall.Shutdown(int(near.Fd()), syscall.SHUT_RDWR)
	<-done
	return float64(elapsed.Nanoseconds()) / float64(n)
}

package wiring

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// BenchmarkIdleStreamCost opens b.N GET streams on an assembled router and reports what each
// costs while idle: goroutines and stack bytes (the part of benchmark 3's RSS that the depth
// of the handler chain decides; docs/performance.md). Run it with a fixed count:
//
//	go test -run '^$' -bench IdleStreamCost -benchtime 500x ./internal/wiring
func BenchmarkIdleStreamCost(b *testing.B) {
	ts := served(b)
	sids := make([]string, b.N)
	for i := range sids {
		sids[i] = initialize(b, ts.URL+"/mcp", "2025-06-18")
	}
	runtime.GC()
	g0, s0 := runtime.NumGoroutine(), stackBytes()
	addr := strings.TrimPrefix(ts.URL, "http://")
	b.ResetTimer()
	for _, sid := range sids {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\nMcp-Protocol-Version: 2025-06-18\r\n\r\n", addr, sid)
		if line, _ := bufio.NewReader(c).ReadString('\n'); !strings.Contains(line, " 200 ") {
			b.Fatalf("GET /mcp answered %q", line)
		}
	}
	b.StopTimer()
	time.Sleep(200 * time.Millisecond) // every stream parked in its wait
	runtime.GC()
	g1, s1 := runtime.NumGoroutine(), stackBytes()
	b.ReportMetric(float64(g1-g0)/float64(b.N), "goroutines/stream")
	b.ReportMetric(float64(s1-s0)/float64(b.N), "stack-bytes/stream")
}

// reportCPU resets the timer and answers what reports the process's CPU time per operation
// (server, fake worker and client together) as cpu-us/op: on a shared machine it moves much
// less with other load than ns/op does.
func reportCPU(b *testing.B) func() {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	return func() {
		b.StopTimer()
		b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-us/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkEchoThroughTheAssembly is benchmark 5's server side in process: tools/call of the
// fake worker's echo through the binary's assembly (metrics, lifetime policy, channel) over
// loopback TCP, one session per parallel client. Profile the router's own path with
//
//	go test -run '^$' -bench EchoThroughTheAssembly -cpuprofile cpu.out ./internal/wiring
func BenchmarkEchoThroughTheAssembly(b *testing.B) {
	ts := served(b)
	url := ts.URL + "/mcp"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.SetParallelism(4)
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		sid := initialize(b, url, "2025-11-25")
		for i := 0; pb.Next(); i++ {
			body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"hi"`) {
				b.Fatalf("echo: %d %s", resp.StatusCode, answer)
			}
		}
	})
}

// served is the binary's assembly, with metrics and the fake worker, on a loopback server
// that lives as long as the benchmark.
func served(b *testing.B) *httptest.Server {
	l := workertest.New()
	asm, err := Assemble(options(l), Parts{Metrics: true, Lifetime: lifetime.Defaults(), Stone: &workertest.Control{L: l}, Log: zerolog.New(io.Discard)})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(asm.Server.Handler())
	b.Cleanup(func() {
		ts.Close()
		asm.Server.Close(context.Background())
		asm.CloseChannel()
	})
	return ts
}

// BenchmarkHandleEchoThroughTheAssembly is BenchmarkEchoThroughTheAssembly on the 2026-07-28
// wire, each parallel client in a GemStone session it opened with open_session and every call
// naming it in its session argument: benchmark 6's router side in process. Compare the two
// profiles (the fake worker's own frames left out) to see what the session argument's path
// costs over a session's:
//
//	go test -run '^$' -bench 'EchoThroughTheAssembly' -cpuprofile cpu.out ./internal/wiring
func BenchmarkHandleEchoThroughTheAssembly(b *testing.B) {
	ts := served(b)
	url := ts.URL + "/mcp"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	call := func(id int, tool, args string) string {
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d %s", tool, resp.StatusCode, answer)
		}
		return string(answer)
	}
	b.SetParallelism(4)
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		opened := call(1, "open_session", `{}`)
		_, rest, _ := strings.Cut(opened, `"session":"`)
		handle, _, _ := strings.Cut(rest, `"`)
		if handle == "" {
			b.Fatalf("open_session answered %s", opened)
		}
		args := `{"session":"` + handle + `","text":"hi"}`
		for i := 0; pb.Next(); i++ {
			if answer := call(i+2, "echo", args); !strings.Contains(answer, `"hi"`) {
				b.Fatalf("echo: %s", answer)
			}
		}
	})
}

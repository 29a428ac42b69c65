// Command benchserver serves one side of a make bench comparison on a loopback port, as its own
// process so that every side is measured the same way (and its RSS and CPU read from /proc):
//
//	-mode standin the real router with the GCI binding and gems of the library GEMSTONE names
//	             (the stand-in: GEMSTONE=build/standin): what bin/mcp-gemstone runs, with -pprof
//	             available for profiling the binding's per-call cost
//	-mode fake   the router assembled as bin/mcp-gemstone assembles it (internal/wiring:
//	             metrics, router/internal/sse streams, the lifetime policy at its defaults, the channel)
//	             with the in-process fake worker (worker/workertest: the stand-in's fixture
//	             worker, no GCI, no gem process)
//	-mode sdk    the Go SDK v1.8.0 stateful streamable server with an in-process echo tool
//	-mode bare   a bare net/http handler answering a fixed JSON-RPC result (the ceiling)
//
// It prints "listening URL" on stdout once it accepts connections, and serves until SIGTERM.
// It is a benchmark fixture: no authentication, loopback only.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func main() {
	mode := flag.String("mode", "fake", "standin | fake | sdk | bare")
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	pprofAddr := flag.String("pprof", "", "serve net/http/pprof on this loopback address (profiling a benchmark)")
	flag.Parse()
	if *pprofAddr != "" {
		go func() { _ = http.ListenAndServe(*pprofAddr, nil) }() // the default mux holds pprof
	}
	if (*mode == "fake" || *mode == "standin") && os.Getenv("GOGC") == "" {
		// The front end's sides run with the collector pacing bin/mcp-gemstone sets; the SDK's
		// and the bare handler's with Go's default, as a program built on them gets.
		wiring.FloorGCHeap(wiring.GCHeapFloor)
	}
	handler, closer, err := build(*mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
		os.Exit(1)
	}
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: router.MaxHeaderBytes}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("listening http://%s/mcp\n", ln.Addr())

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	<-sigs
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = hs.Shutdown(ctx)
	closer(ctx)
}

func build(mode string) (http.Handler, func(context.Context), error) {
	log := zerolog.New(os.Stderr).Level(zerolog.WarnLevel)
	switch mode {
	case "fake":
		// Assembled as bin/mcp-gemstone assembles it (metrics, router/internal/sse streams under the
		// default lifetime policy, the channel), with the fake worker in place of the binding.
		launcher := workertest.New()
		asm, err := wiring.Assemble(router.Options{
			Launcher: launcher,
			Prepare:  worker.PrepareConfig{WorkerClass: "McpServer", FrontEnd: worker.FrontEnd{Name: "benchserver", Version: "bench"}},
			RouterID: "bench",
			Log:      log,
		}, wiring.Parts{
			Metrics:  true,
			Lifetime: lifetime.Defaults(),
			Stone:    &workertest.Control{L: launcher, Stone: worker.StoneStatus{SignalAbortBacklog: -1}},
			Log:      log,
		})
		if err != nil {
			return nil, nil, err
		}
		return asm.Server.Handler(), func(ctx context.Context) {
			asm.Engine.Stop()
			asm.Server.Close(ctx)
			asm.CloseChannel()
		}, nil
	case "standin":
		lib, err := gemstone.Open(gemstone.LibraryConfigFromEnv(os.Getenv))
		if err != nil {
			return nil, nil, err
		}
		srv := router.New(router.Options{
			Launcher: gciworker.NewLauncher(lib, gciworker.Options{}),
			Login:    worker.LoginSpec{StoneNRS: "!tcp@localhost#server!gs64stone", User: "DataCurator", Password: os.Getenv("GS_PASS")},
			Prepare:  worker.PrepareConfig{WorkerClass: "McpServer", FrontEnd: worker.FrontEnd{Name: "benchserver", Version: "bench"}},
			RouterID: "bench",
			Log:      log,
		})
		return srv.Handler(), srv.Close, nil
	case "sdk":
		s := mcp.NewServer(&mcp.Implementation{Name: "go-sdk-echo", Version: "v1.8.0"}, nil)
		type echoArgs struct {
			Text string `json:"text"`
		}
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Answers the text it is given."},
			func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
			})
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		return h, func(context.Context) {}, nil
	case "bare":
		body := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"fixed"}]}}`)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			in, _ := io.ReadAll(r.Body)
			if r.Header.Get("Mcp-Session-Id") == "" {
				w.Header().Set("Mcp-Session-Id", "bare")
			}
			if !bytes.Contains(in, []byte(`"id"`)) { // a notification: 202, as MCP says
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}), func(context.Context) {}, nil
	}
	return nil, nil, fmt.Errorf("unknown -mode %q (standin, fake, sdk or bare)", mode)
}

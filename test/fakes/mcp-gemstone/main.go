// Command mcp-gemstone (test/fakes) is a stand-in for the server binary in the script tests: it
// answers /healthz and /readyz on MCP_HOST:MCP_PORT, and on SIGTERM waits FAKE_STOP_DELAY and exits 0, as the
// real server does after logging its workers out. FAKE_IGNORE_TERM=1 makes it ignore SIGTERM, so
// stop-server.sh's SIGKILL path can be exercised; FAKE_FAIL_START=1 makes it exit 1 at once;
// FAKE_LOGIN_FAIL=1 makes /readyz and its log report that its control session could not log in.
// It logs which MCP_* and GemStone variables it was given (names only for secrets), so a test can
// check what run-server.sh passed through. It is not the server and speaks no MCP.
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	if os.Getenv("FAKE_FAIL_START") == "1" {
		fmt.Println("fake mcp-gemstone: login failed (FAKE_FAIL_START)")
		os.Exit(1)
	}
	logEnvironment()
	addr := net.JoinHostPort(envOr("MCP_HOST", "127.0.0.1"), envOr("MCP_PORT", "8000"))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Println("fake mcp-gemstone: listen:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if os.Getenv("FAKE_LOGIN_FAIL") == "1" {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, `{"status":"notReady","reason":"the router's own GemStone login (its control session) failed (fake)"}`)
			return
		}
		fmt.Fprintln(w, `{"status":"ready","version":"fake"}`)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println("fake mcp-gemstone: listening on", addr)
	// The two lines run-server.sh shows from the log when the start fails, as the real server's
	// JSON log writes them.
	if os.Getenv("FAKE_LOGIN_FAIL") == "1" {
		fmt.Println(`{"level":"warn","component":"control","error":"login refused (fake)","message":"control session not logged in yet; it will be tried again when needed"}`)
	} else {
		fmt.Println(`{"level":"info","component":"control","message":"control session logged in (transactionless)"}`)
	}

	signals := make(chan os.Signal, 1)
	if os.Getenv("FAKE_IGNORE_TERM") == "1" {
		signal.Ignore(syscall.SIGTERM)
		signal.Notify(signals, syscall.SIGINT)
	} else {
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	}
	<-signals
	fmt.Println("fake mcp-gemstone: SIGTERM, logging workers out")
	if d, err := time.ParseDuration(envOr("FAKE_STOP_DELAY", "0s")); err == nil {
		time.Sleep(d)
	}
	_ = srv.Close()
	fmt.Println("fake mcp-gemstone: stopped")
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func logEnvironment() {
	var seen []string
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "GS_PASS":
			seen = append(seen, "GS_PASS=<set>")
		case strings.HasPrefix(name, "MCP_"), strings.HasPrefix(name, "GS_"), name == "GEMSTONE",
			name == "GEMSTONE_GLOBAL_DIR", name == "GCI_LIBRARY":
			seen = append(seen, name+"="+value)
		}
	}
	sort.Strings(seen)
	fmt.Println("fake mcp-gemstone: env", strings.Join(seen, " "))
	fmt.Println("fake mcp-gemstone: args", strings.Join(os.Args[1:], " "))
}

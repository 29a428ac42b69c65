// Command mcp-gemstone (test/fakes) is a stand-in for the server binary in the script tests: it
// answers /healthz and /readyz on MCP_HOST:MCP_PORT, and on SIGTERM waits FAKE_STOP_DELAY and
// exits 0, as the real server does after logging its workers out. /readyz keeps the real one's
// contract: 503 with a reason while the control session's login is under way (FAKE_READY_DELAY,
// default none) or after it failed (FAKE_LOGIN_FAIL=1), then 200 ready. FAKE_IGNORE_TERM=1 makes
// it ignore SIGTERM, so stop-server.sh's SIGKILL path can be exercised; FAKE_FAIL_START=1 makes it
// exit 1 at once. With MCP_AUTH=oidc, /mcp refuses every request as the real one refuses a token
// it cannot verify: 401, or 503 while the issuer's discovery fails (FAKE_DISCOVERY_FAIL=1). Like
// the real binary it refuses to start when given a setting under a name it does not read
// (MCP_STONE for GS_STONE, ...). It logs which MCP_* and GemStone variables it was given (names
// only for secrets), so a test can check what run-server.sh passed through. It is not the server,
// speaks no MCP, and writes none of the real server's log lines.
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
	for old, name := range map[string]string{"MCP_STONE": "GS_STONE", "MCP_CONTROL_USER": "GS_USER", "MCP_PASSWORD_FILE": "GS_PASS_FILE"} {
		if _, set := os.LookupEnv(old); set {
			fmt.Printf("fake mcp-gemstone: refusing to start: %s is not a setting; the name is %s\n", old, name)
			os.Exit(2)
		}
	}
	readyAfter := time.Now()
	if d, err := time.ParseDuration(envOr("FAKE_READY_DELAY", "0s")); err == nil {
		readyAfter = readyAfter.Add(d)
	}
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
		switch {
		case os.Getenv("FAKE_LOGIN_FAIL") == "1":
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, `{"status":"notReady","reason":"the router's own GemStone login (its control session) failed (fake)"}`)
			return
		case time.Now().Before(readyAfter):
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, `{"status":"notReady","reason":"the router's own GemStone login (its control session) is under way (fake)"}`)
			return
		}
		fmt.Fprintln(w, `{"status":"ready","version":"fake"}`)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, _ *http.Request) {
		if os.Getenv("MCP_AUTH") == "oidc" && os.Getenv("FAKE_DISCOVERY_FAIL") == "1" {
			http.Error(w, `{"error":"temporarily_unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Println("fake mcp-gemstone: listening on", addr)

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

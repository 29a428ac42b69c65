package gemstone

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The stand-in is the GCI test stand-in built by `make standin` (test/standin): a libgcits
// with the real C ABI whose gems are OS processes. It is not GemStone.
const standinVersion = "3.7.5"

// callTimeout bounds every call a test makes, so a hang fails the test instead of the run.
const callTimeout = 60 * time.Second

// standinHome answers the stand-in's product directory: GEMSTONE_STANDIN, else build/standin
// beside go.mod. Its absence fails the test: the stand-in is part of the build.
func standinHome(t testing.TB) string {
	t.Helper()
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		home = filepath.Join(moduleRoot(t), "build", "standin")
	}
	requireLibrary(t, home)
	return home
}

// brokenStandinHome is the stand-in built without GciTsNbPerform, beside the stand-in.
func brokenStandinHome(t testing.TB) string {
	t.Helper()
	home := filepath.Join(filepath.Dir(standinHome(t)), "standin-broken")
	requireLibrary(t, home)
	return home
}

func requireLibrary(t testing.TB, home string) {
	t.Helper()
	lib := filepath.Join(home, "lib", "libgcits-"+standinVersion+"-64.so")
	if _, err := os.Stat(lib); err != nil {
		t.Fatalf("build the stand-in: make standin (%s is missing)", lib)
	}
}

func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

func openStandin(t testing.TB) *Library {
	t.Helper()
	lib, err := Open(LibraryConfig{Home: standinHome(t)})
	if err != nil {
		t.Fatalf("opening the stand-in: %v", err)
	}
	return lib
}

func standinLogin(t testing.TB) LoginParams {
	t.Helper()
	stone, err := StoneNRS("localhost", "gs64stone")
	if err != nil {
		t.Fatal(err)
	}
	gem, err := GemNRS("localhost", "gs64ldi", "GEM_TEMPOBJ_CACHE_SIZE=50000;")
	if err != nil {
		t.Fatal(err)
	}
	return LoginParams{StoneNRS: stone, GemNRS: gem, User: "DataCurator", Password: "swordfish"}
}

func callCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	return ctx
}

// loginPrepared logs in and prepares the fixture worker, closing the session at cleanup.
func loginPrepared(t testing.TB, lib *Library) *Session {
	t.Helper()
	s, err := lib.Login(callCtx(t), standinLogin(t))
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	prepare(t, s)
	return s
}

func prepare(t testing.TB, s *Session) {
	t.Helper()
	config := `{"contract":1,"workerClass":"McpServer","protocolVersions":["2025-06-18"],` +
		`"cacheName":"McpServer:test:00000000","resultCap":0,"frontEnd":{"name":"gemstone-test","version":"0","routerId":"test"}}`
	answer, err := s.Perform(callCtx(t), "McpServer", "mcpPrepare:", String([]byte(config)))
	if err != nil {
		t.Fatalf("mcpPrepare: %v", err)
	}
	var reply struct {
		OK bool `json:"ok"`
	}
	if json.Unmarshal(answer, &reply) != nil || !reply.OK {
		t.Fatalf("mcpPrepare: answered %s", answer)
	}
}

// toolCall is a tools/call request for a fixture tool.
func toolCall(id int, tool string, args any) []byte {
	b, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// refusedLogin logs in with p under ctx, which must fail (failure is the message when it does
// not), and answers the login's error.
func refusedLogin(ctx context.Context, t *testing.T, lib *Library, p LoginParams, failure string) error {
	t.Helper()
	s, err := lib.Login(ctx, p)
	if err == nil {
		s.Close(context.Background())
		t.Fatal(failure)
	}
	return err
}

// sleepPast runs tool on a fresh prepared session with a deadline d from now and answers the
// session, how long it took from the moment the deadline was set, and how it ended.
func sleepPast(t *testing.T, d time.Duration, tool string) (*Session, time.Duration, error) {
	t.Helper()
	s := loginPrepared(t, openStandin(t))
	// Timed from before the deadline is set: timed from the call's start, a call that began a
	// few milliseconds after it (a loaded machine, -race) undercounts the time past the deadline.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := timedSleep(ctx, s, tool)
	return s, time.Since(start), err
}

// timedSleep calls a 30-second sleep fixture (sleep, sleep_soft_immune, sleep_immune) under
// ctx and answers how long the call took and its error.
func timedSleep(ctx context.Context, s *Session, tool string) (time.Duration, error) {
	start := time.Now()
	_, err := callTool(ctx, s, tool, map[string]any{"ms": 30000})
	return time.Since(start), err
}

// requireGone checks that a session whose gem is gone (after what) fails the next call with a
// fatal error at once and still closes cleanly.
func requireGone(t *testing.T, s *Session, after string) {
	t.Helper()
	if _, err := callTool(callCtx(t), s, "echo", map[string]any{"text": "x"}); !IsFatal(err) {
		t.Fatalf("a call after %s = %v, want a fatal error at once", after, err)
	}
	if err := s.Close(callCtx(t)); err != nil {
		t.Fatalf("Close after %s: %v", after, err)
	}
}

// callTool runs a fixture tool through mcpHandle: and answers its text contents.
func callTool(ctx context.Context, s *Session, tool string, args any) ([]string, error) {
	reply, err := s.Perform(ctx, "McpServer", "mcpHandle:", String(toolCall(1, tool, args)))
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result *struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(reply, &resp); err != nil {
		return nil, fmt.Errorf("reply is not JSON (%d bytes): %w", len(reply), err)
	}
	if resp.Result == nil || resp.Result.IsError {
		return nil, fmt.Errorf("tool %s failed: %.300s", tool, reply)
	}
	var out []string
	for _, c := range resp.Result.Content {
		out = append(out, c.Text)
	}
	return out, nil
}

package e2elifetime

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest/ssetest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

var (
	libOnce sync.Once
	lib     *gemstone.Library
	libErr  error
)

// standin loads the stand-in library once per run. Absent, the test FAILS: these tests are
// the proof that the policy reaches real gem processes.
func standin(t *testing.T) *gemstone.Library {
	t.Helper()
	libOnce.Do(func() {
		home := os.Getenv("GEMSTONE_STANDIN")
		if home == "" {
			home = filepath.Join(moduleRoot(), "build", "standin")
		}
		if _, err := os.Stat(filepath.Join(home, "lib", "libgcits-3.7.5-64.so")); err != nil {
			libErr = fmt.Errorf("the GCI stand-in is not built (run `make standin`): %w", err)
			return
		}
		lib, libErr = gemstone.Open(gemstone.LibraryConfig{Home: home})
	})
	if libErr != nil {
		t.Fatalf("stand-in: %v", libErr)
	}
	return lib
}

func moduleRoot() string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
		dir = filepath.Dir(dir)
	}
}

func loginSpec() worker.LoginSpec {
	return worker.LoginSpec{
		StoneNRS: "!tcp@localhost#server!gs64stone",
		GemNRS:   "!tcp@localhost#netldi:gs64ldi#task!gemnetobject",
		User:     "DataCurator", Password: "swordfish",
	}
}

// fixture is the front end as the server runs it (wiring.Assemble), on the stand-in.
type fixture struct {
	t   *testing.T
	ts  *httptest.Server
	srv *router.Server
	eng *lifetime.Engine
}

// fast is the production policy scaled down: every rule not under test is far away.
func fast() lifetime.Config {
	c := lifetime.Defaults()
	c.PassInterval = 50 * time.Millisecond
	c.IdleTimeout = lifetime.After(time.Hour)
	c.StreamlessIdleTimeout = lifetime.After(time.Hour)
	c.StreamLossGrace = lifetime.After(time.Hour)
	c.ProbeInterval = lifetime.Off()
	c.ProbeTimeout = 400 * time.Millisecond
	c.MaxCommitsBehind = 0
	c.StuckViewGrace = lifetime.Off()
	c.PinnedViewGrace = lifetime.Off()
	return c
}

func newFixture(t *testing.T, cfg lifetime.Config, sseOpts router.StreamOptions) *fixture {
	t.Helper()
	l := standin(t)
	setReadings(t, "0 -1")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	control, err := gciworker.NewControl(ctx, l, loginSpec())
	if err != nil {
		t.Fatalf("control session: %v", err)
	}
	asm, err := wiring.Assemble(router.Options{
		Launcher:    gciworker.NewLauncher(l, gciworker.Options{Control: control}),
		Login:       loginSpec(),
		Prepare:     worker.PrepareConfig{WorkerClass: "McpServer"},
		RouterID:    "e2e",
		MaxSessions: 4,
		Stream:      sseOpts,
		Log:         zerolog.Nop(),
	}, wiring.Parts{Lifetime: cfg, Stone: control, Log: zerolog.Nop()})
	if err != nil {
		t.Fatalf("wiring.Assemble: %v", err)
	}
	ts := httptest.NewServer(asm.Server.Handler())
	f := &fixture{t: t, ts: ts, srv: asm.Server, eng: asm.Engine}
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		asm.Server.Close(ctx) // stops the lifetime engine first
		asm.CloseChannel()
		control.Close(ctx)
		mcptest.Eventually(t, 5*time.Second, "every stand-in gem gone after shutdown", func() bool { return len(gemProcesses()) == 0 })
	})
	return f
}

// in is f for the subtest t: its helpers report to, and stop, t. A subtest that failed through
// its parent's *testing.T would stop the parent's goroutine from its own, which the testing
// package reports as a misuse instead of the failure.
func (f *fixture) in(t *testing.T) *fixture {
	g := *f
	g.t = t
	return &g
}

// mapped answers a live session's record, from Sessions().Get (the record's stream is where
// the router puts what it sends unasked).
func mapped[T any](s T, ok bool) T {
	if !ok {
		panic("the session is not mapped")
	}
	return s
}

func setReadings(t *testing.T, s string) {
	t.Helper()
	if err := os.WriteFile(readingsFile, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// gemProcesses answers the live (not zombie) stand-in gem processes this test process started.
func gemProcesses() []int {
	pids, _ := mcptest.Children("standin")
	return pids
}

// gemPID answers the pid of a session's gem from the stand-in's session directory.
func (f *fixture) gemPID(sid string) int {
	f.t.Helper()
	n := f.gemSession(sid)
	b, err := os.ReadFile(filepath.Join(os.Getenv("GCI_STANDIN_DIR"), strconv.Itoa(n)))
	if err != nil {
		f.t.Fatalf("session file of gem %d: %v", n, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		f.t.Fatalf("session file of gem %d: %q", n, b)
	}
	return pid
}

func (f *fixture) gemSession(sid string) int {
	f.t.Helper()
	s, ok := f.srv.Sessions().Get(sid)
	if !ok {
		f.t.Fatalf("session %s not mapped", sid)
	}
	return s.Gem().Prepared().GemSession
}

type rpcReply = mcptest.Answer

func (f *fixture) post(sid, body string) rpcReply {
	f.t.Helper()
	return (&mcptest.Client{URL: f.ts.URL + "/mcp"}).Send(f.t, http.MethodPost, sid, body)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`

func (f *fixture) open(version string) string {
	f.t.Helper()
	return (&mcptest.Client{URL: f.ts.URL + "/mcp"}).Initialize(f.t, fmt.Sprintf(initBody, version))
}

// statusCode of a request that proves nothing about liveness (it is itself activity): use it
// only for the final 404 check.
func (f *fixture) answers(sid string) int {
	return f.post(sid, `{"jsonrpc":"2.0","id":77,"method":"tools/list"}`).Status
}

// get opens GET /mcp and reads its frames on a goroutine.
func (f *fixture) get(sid, lastEventID string) *ssetest.Stream {
	f.t.Helper()
	return ssetest.Open(f.t, f.ts.URL+"/mcp", sid, lastEventID, 256)
}

package gciworker

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// These tests drive the GCI test stand-in (test/standin, built by `make standin`): a libgcits
// with GemStone's C ABI whose gems are OS processes running the fixture worker. Not GemStone.

const callTimeout = 60 * time.Second

func standinLibrary(t *testing.T) *gemstone.Library {
	t.Helper()
	home := os.Getenv("GEMSTONE_STANDIN")
	if home == "" {
		dir, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			if filepath.Dir(dir) == dir {
				t.Fatal("no go.mod above the test directory")
			}
			dir = filepath.Dir(dir)
		}
		home = filepath.Join(dir, "build", "standin")
	}
	if _, err := os.Stat(filepath.Join(home, "lib", "libgcits-3.7.5-64.so")); err != nil {
		t.Fatalf("build the stand-in: make standin (%v)", err)
	}
	lib, err := gemstone.Open(gemstone.LibraryConfig{Home: home})
	if err != nil {
		t.Fatalf("opening the stand-in: %v", err)
	}
	return lib
}

func loginSpec() worker.LoginSpec {
	return worker.LoginSpec{
		StoneNRS: "!tcp@localhost#server!gs64stone",
		GemNRS:   "!tcp@localhost#netldi:gs64ldi#task!gemnetobject",
		User:     "DataCurator", Password: "swordfish",
	}
}

func prepareConfig() worker.PrepareConfig {
	return worker.PrepareConfig{
		Contract: worker.ContractVersion, WorkerClass: "McpServer",
		ProtocolVersions: []string{"2025-06-18", "2025-03-26"},
		CacheName:        "McpServer:test:0badcafe",
		FrontEnd:         worker.FrontEnd{Name: "gciworker-test", Version: "0", RouterID: "test"},
	}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	return ctx
}

func launch(t *testing.T, l *Launcher) worker.Gem {
	t.Helper()
	g, err := l.Launch(ctxFor(t), loginSpec(), prepareConfig())
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { g.Close(context.Background()) })
	return g
}

func TestLaunchPreparesTheWorker(t *testing.T) {
	g := launch(t, NewLauncher(standinLibrary(t), Options{}))
	if p := g.Prepared(); p.GemSession <= 0 || p.WorkerClass != "McpServer" || p.Tools == 0 {
		t.Fatalf("Prepared() = %+v", p)
	}
}

func TestHandleRelaysTheWorkersBytes(t *testing.T) {
	g := launch(t, NewLauncher(standinLibrary(t), Options{}))
	t.Run("a request's answer", func(t *testing.T) {
		reply, err := g.Handle(ctxFor(t), []byte(`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			ID     int `json:"id"`
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if err := json.Unmarshal(reply, &resp); err != nil || resp.ID != 7 || resp.Result.ProtocolVersion != "2025-03-26" {
			t.Fatalf("initialize answered %s (%v)", reply, err)
		}
	})
	t.Run("nothing for a notification", func(t *testing.T) {
		none, err := g.Handle(ctxFor(t), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		if err != nil || none != nil {
			t.Fatalf("a notification answered %q, %v; want nil, nil", none, err)
		}
	})
	t.Run("the worker's error for an unknown method", func(t *testing.T) {
		bad, err := g.Handle(ctxFor(t), []byte(`{"jsonrpc":"2.0","id":8,"method":"no/such"}`))
		if err != nil || !json.Valid(bad) {
			t.Fatalf("an unknown method answered %q, %v", bad, err)
		}
	})
}

// behindGem is a launched gem whose fixture worker says its view is 4 commits behind, holds
// uncommitted work and can move.
func behindGem(t *testing.T) worker.Gem {
	t.Helper()
	g := launch(t, NewLauncher(standinLibrary(t), Options{}))
	if _, err := g.Handle(ctxFor(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_view_status","arguments":{"commitsBehind":4,"uncommitted":true,"movable":true}}}`)); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestViewStatusDecodesTheWorkersAnswer(t *testing.T) {
	v, err := behindGem(t).ViewStatus(ctxFor(t))
	if err != nil || v != (worker.ViewStatus{CommitsBehind: 4, Uncommitted: true, Movable: true}) {
		t.Fatalf("ViewStatus = %+v, %v", v, err)
	}
}

func TestRefreshViewDecodesTheWorkersAnswer(t *testing.T) {
	r, err := behindGem(t).RefreshView(ctxFor(t))
	if err != nil || !r.Refreshed {
		t.Fatalf("RefreshView = %+v, %v", r, err)
	}
}

func TestAPrepareRefusal(t *testing.T) {
	l := NewLauncher(standinLibrary(t), Options{})
	before := liveGems(t)
	cfg := prepareConfig()
	cfg.Toolsets = []string{"AcmeToolset"}
	g, err := l.Launch(ctxFor(t), loginSpec(), cfg)
	t.Run("is a prepareRefused failure naming what was refused", func(t *testing.T) {
		if f := worker.FailureOf(err); f.Kind != worker.PrepareRefused || f.Refusal != errkind.ToolsetNotFound || !strings.Contains(f.Safe, "AcmeToolset") {
			if g != nil {
				g.Close(context.Background())
			}
			t.Fatalf("Launch with an unknown toolset = %v; want a refused prepare of kind toolsetNotFound", err)
		}
	})
	t.Run("logs the gem out", func(t *testing.T) {
		for deadline := time.Now().Add(5 * time.Second); ; {
			var left []string
			for name := range liveGems(t) {
				if !before[name] {
					left = append(left, name)
				}
			}
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("stand-in sessions %v are still registered after the failed launch", left)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// liveGems names the stand-in sessions registered in this run's session directory.
func liveGems(t *testing.T) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(os.Getenv("GCI_STANDIN_DIR"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		out[e.Name()] = true
	}
	return out
}

func TestLaunchWithAWrongPasswordIsLoginDenied(t *testing.T) {
	l := NewLauncher(standinLibrary(t), Options{})
	spec := loginSpec()
	spec.Password = "wrong"
	_, err := l.Launch(ctxFor(t), spec, prepareConfig())
	if f := worker.FailureOf(err); f.Kind != worker.LoginRefused || f.Number != gemstone.ErrNumLoginDenied {
		t.Fatalf("Launch = %v (%+v), want login denied", err, f)
	}
}

func TestEscalationStopsAnImmuneCallThroughTheControlSession(t *testing.T) {
	lib := standinLibrary(t)
	control, err := NewControl(ctxFor(t), lib, loginSpec())
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close(context.Background())
	g := launch(t, NewLauncher(lib, Options{Control: control}))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = g.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep_immune","arguments":{"ms":30000}}}`))
	f := worker.FailureOf(err)
	if f.Ending != worker.EndedByStop || !f.Fatal || f.Kind != worker.GemGone || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Handle = %v (%+v); want ended by stop, fatal, deadline", err, f)
	}
	t.Logf("the stop ended the call %v after it started", time.Since(start))
	if err := g.Close(ctxFor(t)); err != nil {
		t.Fatalf("Close after the stop: %v", err)
	}
	if _, err := control.ReadStone(ctxFor(t)); err != nil {
		t.Fatalf("the control session after the stop: %v", err)
	}
}

func TestReadStoneAnswersTheStandInReadings(t *testing.T) {
	t.Setenv("GCI_STANDIN_STONE_READINGS", "17 20000 3 8")
	control, err := NewControl(ctxFor(t), standinLibrary(t), loginSpec())
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close(context.Background())
	got, err := control.ReadStone(ctxFor(t))
	if err != nil || got.CommitRecordBacklog != 17 || got.SignalAbortBacklog != 20000 || len(got.OldestCRSessions) != 2 || got.OldestCRSessions[1] != 8 {
		t.Fatalf("ReadStone = %+v, %v", got, err)
	}
	if err := control.Close(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	if err := control.Close(ctxFor(t)); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if _, err := control.ReadStone(ctxFor(t)); !errors.Is(err, gemstone.ErrSessionClosed) {
		t.Fatalf("ReadStone after Close = %v, want ErrSessionClosed", err)
	}
}

func TestGemCloseIsIdempotent(t *testing.T) {
	g := launch(t, NewLauncher(standinLibrary(t), Options{}))
	if err := g.Close(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(ctxFor(t)); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	_, err := g.Handle(ctxFor(t), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if f := worker.FailureOf(err); !f.Fatal || f.Kind != worker.GemGone {
		t.Fatalf("Handle after Close = %v (%+v), want a fatal (closed) failure", err, f)
	}
}

func TestControlLogsInAgainAfterItsGemDied(t *testing.T) {
	lib := standinLibrary(t)
	dir := os.Getenv("GCI_STANDIN_DIR")
	before := liveGems(t)
	control, err := NewControl(ctxFor(t), lib, loginSpec())
	if err != nil {
		t.Fatal(err)
	}
	defer control.Close(context.Background())
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var mine []os.DirEntry
	for _, e := range entries {
		if !before[e.Name()] {
			mine = append(mine, e)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("the control login registered %d gems, want 1", len(mine))
	}
	entries = mine
	pidText, err := os.ReadFile(filepath.Join(dir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err != nil {
		t.Fatalf("session entry %q: %v", pidText, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !processDead(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("gem %d survived SIGKILL", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	got, err := control.ReadStone(ctxFor(t))
	if err != nil || got.SignalAbortBacklog != -1 {
		t.Fatalf("ReadStone after the control gem was killed = %+v, %v; want a fresh login's readings", got, err)
	}
}

// processDead reports whether pid has exited (gone, or a zombie not yet reaped).
func processDead(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	rest := string(stat)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		fields := strings.Fields(rest[i+1:])
		return len(fields) > 0 && fields[0] == "Z"
	}
	return false
}

func TestLaunchWithoutALibraryNamesThePathTried(t *testing.T) {
	path := filepath.Join(t.TempDir(), "libgcits-3.7.5-64.so")
	lib, _ := gemstone.Open(gemstone.LibraryConfig{Path: path})
	_, err := NewLauncher(lib, Options{}).Launch(ctxFor(t), loginSpec(), prepareConfig())
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), gemstone.EnvLibrary) {
		t.Fatalf("Launch without a library = %v; want the path %s and %s named", err, path, gemstone.EnvLibrary)
	}
	if f := worker.FailureOf(err); f.Kind != worker.LibraryMissing || strings.Contains(f.Safe, path) {
		t.Fatalf("the failure %+v is not a missing library, or its client text carries the path", f)
	}
}

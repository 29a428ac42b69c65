package workertest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

func launch(t *testing.T, l *Launcher) worker.Gem {
	t.Helper()
	g, err := l.Launch(context.Background(), worker.LoginSpec{}, worker.PrepareConfig{
		Contract: 1, WorkerClass: "McpServer", ProtocolVersions: []string{"2025-11-25"}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sleepCall(tool string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"ms":10000}}}`)
}

func TestCancellationEscalatesToTheStepThatEndsTheCall(t *testing.T) {
	for tool, want := range map[string]worker.Failure{
		"sleep":             {Kind: worker.CallBroken, Number: 6003, Ending: worker.EndedBySoftBreak},
		"sleep_soft_immune": {Kind: worker.CallBroken, Number: 6004, Ending: worker.EndedByHardBreak},
		"sleep_immune":      {Kind: worker.GemGone, Number: 4137, Ending: worker.EndedByStop, Fatal: true},
	} {
		l := New()
		g := launch(t, l)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err := g.Handle(ctx, sleepCall(tool))
		cancel()
		var f *worker.Failure
		if !errors.As(err, &f) {
			t.Fatalf("%s: %v is no worker.Failure", tool, err)
		}
		if f.Kind != want.Kind || f.Number != want.Number || f.Ending != want.Ending || f.Fatal != want.Fatal {
			t.Errorf("%s: %+v, want %+v", tool, *f, want)
		}
		if wantSafe := fmt.Sprintf("GemStone error %d (", want.Number); !strings.HasPrefix(f.Safe, wantSafe) {
			t.Errorf("%s: client text %q, want the binding's form %q...", tool, f.Safe, wantSafe)
		}
	}
}

// How a fake gem ends; each subtest is one step, in order, on the same launcher.
func TestAFakeGemsEnd(t *testing.T) {
	l := New()
	g := launch(t, l)
	g2 := launch(t, l)
	t.Run("die leaves it dead", func(t *testing.T) {
		_, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"die","arguments":{}}}`))
		if f := worker.FailureOf(err); !f.Fatal || f.Kind != worker.GemGone || f.Ending != worker.NotEnded {
			t.Fatalf("die: %v", err)
		}
		if _, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); !worker.FailureOf(err).Fatal {
			t.Fatalf("a call on a dead gem: %v", err)
		}
	})
	t.Run("kill mid-call leaves it dead", func(t *testing.T) {
		done := make(chan error, 1)
		go func() { _, err := g2.Handle(context.Background(), sleepCall("sleep_immune")); done <- err }()
		time.Sleep(20 * time.Millisecond)
		l.Kill(g2.Prepared().GemSession)
		if err := <-done; !worker.FailureOf(err).Fatal {
			t.Fatalf("killed mid-call: %v", err)
		}
	})
	t.Run("a call after Close finds it gone", func(t *testing.T) {
		_ = g.Close(context.Background())
		if _, err := g.ViewStatus(context.Background()); worker.FailureOf(err).Kind != worker.GemGone {
			t.Fatalf("a call after Close: %v", err)
		}
	})
	t.Run("Close leaves none live", func(t *testing.T) {
		_ = g.Close(context.Background())
		_ = g2.Close(context.Background())
		if l.Live() != 0 {
			t.Fatalf("%d live after Close", l.Live())
		}
	})
}

func TestARefusedPrepareIsAPrepareRefusedFailure(t *testing.T) {
	_, err := New().Launch(context.Background(), worker.LoginSpec{}, worker.PrepareConfig{
		Contract: 1, WorkerClass: "McpServer", ProtocolVersions: []string{"2025-11-25"}, Toolsets: []string{"Nope"}})
	f := worker.FailureOf(err)
	if f.Kind != worker.PrepareRefused || f.Refusal != errkind.ToolsetNotFound || !strings.Contains(f.Safe, "Nope") || f.Fatal {
		t.Fatalf("err %v: %+v", err, f)
	}
}

func TestASecondConcurrentCallIsRefused(t *testing.T) {
	g := launch(t, New())
	go g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":300}}}`))
	time.Sleep(30 * time.Millisecond)
	if _, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); worker.FailureOf(err).Kind != worker.CallInProgress {
		t.Fatalf("second call: %v", err)
	}
}

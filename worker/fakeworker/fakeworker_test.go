package fakeworker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
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
	for tool, want := range map[string]gemstone.Ending{
		"sleep": gemstone.EndedBySoftBreak, "sleep_soft_immune": gemstone.EndedByHardBreak, "sleep_immune": gemstone.EndedByStop,
	} {
		l := New()
		g := launch(t, l)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err := g.Handle(ctx, sleepCall(tool))
		cancel()
		if got := gemstone.EndingOf(err); got != want {
			t.Errorf("%s: ended by %v, want %v (%v)", tool, got, want, err)
		}
		if fatal := gemstone.IsFatal(err); fatal != (want == gemstone.EndedByStop) {
			t.Errorf("%s: fatal %v", tool, fatal)
		}
	}
}

func TestDieAndKillLeaveTheGemDead(t *testing.T) {
	l := New()
	g := launch(t, l)
	_, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"die","arguments":{}}}`))
	if !gemstone.IsFatal(err) {
		t.Fatalf("die: %v", err)
	}
	if _, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); !gemstone.IsFatal(err) {
		t.Fatalf("a call on a dead gem: %v", err)
	}
	g2 := launch(t, l)
	done := make(chan error, 1)
	go func() { _, err := g2.Handle(context.Background(), sleepCall("sleep_immune")); done <- err }()
	time.Sleep(20 * time.Millisecond)
	l.Kill(g2.Prepared().GemSession)
	if err := <-done; !gemstone.IsFatal(err) {
		t.Fatalf("killed mid-call: %v", err)
	}
	_ = g.Close(context.Background())
	_ = g2.Close(context.Background())
	if l.Live() != 0 {
		t.Fatalf("%d live after Close", l.Live())
	}
}

func TestARefusedPrepareIsAGciworkerPrepareError(t *testing.T) {
	_, err := New().Launch(context.Background(), worker.LoginSpec{}, worker.PrepareConfig{
		Contract: 1, WorkerClass: "McpServer", ProtocolVersions: []string{"2025-11-25"}, Toolsets: []string{"Nope"}})
	var pe *gciworker.PrepareError
	if !errors.As(err, &pe) || pe.Kind != "toolsetNotFound" || !strings.Contains(pe.ClientMessage(), "Nope") {
		t.Fatalf("err %v", err)
	}
}

func TestASecondConcurrentCallIsRefused(t *testing.T) {
	g := launch(t, New())
	go g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":300}}}`))
	time.Sleep(30 * time.Millisecond)
	if _, err := g.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); !errors.Is(err, gemstone.ErrCallInProgress) {
		t.Fatalf("second call: %v", err)
	}
}

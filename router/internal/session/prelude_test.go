package session

import (
	"context"
	"errors"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

func TestAPreludeRunsInTheCallsTurnRightBeforeItsMessage(t *testing.T) {
	g := &recorderGem{release: make(chan struct{})}
	s, _ := newSession(g, Options{})
	blocked := make(chan Outcome)
	go func() { blocked <- s.Do(context.Background(), req(1, "block")) }()
	for {
		if _, ok := s.InFlight(); ok {
			break
		}
	}
	done := make(chan Outcome)
	go func() {
		done <- s.DoAfter(context.Background(), req(2, "second"), func(_ context.Context, gem worker.Gem) error {
			gem.(*recorderGem).mu.Lock()
			defer gem.(*recorderGem).mu.Unlock()
			g.order = append(g.order, "prelude")
			return nil
		})
	}()
	for s.Queued() == 0 {
	}
	close(g.release)
	<-blocked
	if out := <-done; string(out.Reply) != "ok:second" {
		t.Fatalf("outcome %+v", out)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.order) != 3 || g.order[0] != "block" || g.order[1] != "prelude" || g.order[2] != "second" {
		t.Fatalf("order %v: the prelude must run after the earlier call and before its own message", g.order)
	}
}

func TestAFailedPrelude(t *testing.T) {
	g := &recorderGem{}
	s, _ := newSession(g, Options{})
	boom := errors.New("grant refused")
	out := s.DoAfter(context.Background(), req(1, "never"), func(context.Context, worker.Gem) error { return boom })
	t.Run("ends the call with its error", func(t *testing.T) {
		if !errors.Is(out.Err, boom) || out.Reply != nil {
			t.Fatalf("outcome %+v", out)
		}
	})
	t.Run("sends the gem nothing", func(t *testing.T) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if len(g.order) != 0 {
			t.Fatalf("the gem ran %v after a failed prelude", g.order)
		}
	})
}

//go:build proof

package load

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// The server built with -race, under checked load on some sessions while others are cancelled
// mid-call, lose their gem mid-call (the die tool), hang up mid-call and are deleted mid-call:
// the load loses nothing, every fault is answered as the transport promises, and the race
// detector reports nothing (it would print DATA RACE and make the exit code 66).
func TestARaceBuiltServerUnderLoadWithFaultsHasNoDataRace(t *testing.T) {
	dir := t.TempDir()
	raceBin, err := harness.BuildServer(dir, "-race")
	if err != nil {
		t.Fatal(err)
	}
	s, err := harness.Start(harness.Options{Binary: raceBin, Dir: t.TempDir(),
		Env: []string{"MCP_MAX_SESSIONS=none", "GORACE=halt_on_error=0"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			s.Kill()
		}
		if left := s.LiveGems(); len(left) > 0 {
			harness.KillGems(left)
			t.Errorf("gems left alive: %v", left)
		}
		if t.Failed() {
			log := s.Log()
			if len(log) > 30000 {
				log = log[:30000] + "\n..."
			}
			t.Logf("server log:\n%s", log)
		}
	})
	ctx := bounded(t, 2*time.Minute)
	c := client(s)
	const rounds = 15
	var wg sync.WaitGroup
	var load harness.LoadResult
	wg.Add(1)
	go func() {
		defer wg.Done()
		load, _ = harness.RunLoad(ctx, harness.LoadOptions{URL: s.URL, Sessions: 6, Workers: 6, Duration: 8 * time.Second})
	}()
	fault := func(name string, f func(round int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				if err := f(round); err != nil {
					t.Errorf("%s, round %d: %v", name, round, err)
					return
				}
			}
		}()
	}
	fault("cancelled mid-call", func(round int) error {
		sid, err := c.Open(ctx)
		if err != nil {
			return err
		}
		id := int64(500 + round)
		done := make(chan harness.Answer, 1)
		go func() {
			a, _ := c.Post(ctx, sid, harness.CallBody(id, "sleep", `{"ms":5000}`))
			done <- a
		}()
		time.Sleep(50 * time.Millisecond)
		n, err := c.Post(ctx, sid, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+strconv.FormatInt(id, 10)+`}}`))
		if err != nil || n.Status != http.StatusAccepted {
			return fmt.Errorf("notifications/cancelled: %d %s %v", n.Status, n.Body, err)
		}
		if a := <-done; a.Status != http.StatusAccepted || len(a.Body) != 0 {
			return fmt.Errorf("the cancelled call was answered %d %s, want 202 and no body", a.Status, a.Body)
		}
		return echoThenDelete(ctx, c, sid)
	})
	fault("gem died mid-call", func(round int) error {
		sid, err := c.Open(ctx)
		if err != nil {
			return err
		}
		a, err := c.Post(ctx, sid, harness.CallBody(7, "die", `{}`))
		if err != nil {
			return err
		}
		if r, err := a.Decode(); err != nil || r.Kind() != errkind.SessionGone {
			return fmt.Errorf("die answered %d %s", a.Status, a.Body)
		}
		if a, _ := c.Post(ctx, sid, harness.CallBody(8, "echo", `{"text":"x"}`)); a.Status != http.StatusNotFound {
			return fmt.Errorf("after the gem died: %d, want 404", a.Status)
		}
		return nil
	})
	fault("hung up mid-call", func(round int) error {
		sid, err := c.Open(ctx)
		if err != nil {
			return err
		}
		short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		_, _ = c.Post(short, sid, harness.CallBody(9, "sleep", `{"ms":200}`))
		cancel()
		return echoThenDelete(ctx, c, sid)
	})
	fault("deleted mid-call", func(round int) error {
		sid, err := c.Open(ctx)
		if err != nil {
			return err
		}
		done := make(chan harness.Answer, 1)
		go func() {
			a, _ := c.Post(ctx, sid, harness.CallBody(10, "sleep", `{"ms":5000}`))
			done <- a
		}()
		time.Sleep(50 * time.Millisecond)
		if code, err := c.Delete(ctx, sid); err != nil || code != http.StatusNoContent {
			return fmt.Errorf("DELETE mid-call: %d %v", code, err)
		}
		a := <-done
		if r, err := a.Decode(); err != nil || r.Kind() != errkind.SessionGone {
			return fmt.Errorf("the call of a deleted session was answered %d %s, want sessionGone", a.Status, a.Body)
		}
		return nil
	})
	wg.Wait()
	if load.Failed != 0 || load.OK == 0 {
		t.Errorf("the load beside the faults: %v (%s)", load, load.FirstProblem)
	}
	t.Logf("beside the faults: %v", load)
	code := s.Stop(30 * time.Second)
	stopped = true
	if strings.Contains(s.Log(), "DATA RACE") {
		t.Errorf("the race detector reported a data race in the server")
	}
	if code != 0 {
		t.Errorf("the race-built server exited %d (66: a race was reported)", code)
	}
	_ = os.RemoveAll(dir)
}

func echoThenDelete(ctx context.Context, c *harness.Client, sid string) error {
	a, err := c.Post(ctx, sid, harness.CallBody(99, "echo", `{"text":"still serving"}`))
	if err != nil {
		return err
	}
	r, err := a.Decode()
	if err != nil || r.Error != nil {
		return fmt.Errorf("the session's next call: %d %s", a.Status, a.Body)
	}
	if code, err := c.Delete(ctx, sid); err != nil || code != http.StatusNoContent {
		return fmt.Errorf("DELETE: %d %v", code, err)
	}
	return nil
}

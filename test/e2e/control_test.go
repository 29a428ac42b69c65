package e2e

import (
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// controlGem waits for the control session's gem (the server's first login) and answers its
// session number and pid.
func controlGem(t *testing.T, s *server) (string, int) {
	t.Helper()
	mcptest.Eventually(t, 10*time.Second, "the control session is logged in", func() bool { return len(s.gemFiles()) == 1 })
	for n, pid := range s.gemFiles() {
		return n, pid
	}
	return "", 0
}

func TestACallIgnoringBothBreaksIsStoppedFromTheControlSession(t *testing.T) {
	s := start(t)
	ctlNumber, ctlPid := controlGem(t, s)
	sid := s.open()
	done := s.started(sid, call(1, "sleep_immune", `{"ms":60000}`))
	wantStatus(t, s.post(sid, cancelOf("1")), http.StatusAccepted)
	select {
	case a := <-done:
		if a.Err != nil {
			t.Fatal(a.Err)
		}
		wantStatus(t, a, http.StatusAccepted)
		t.Logf("sleep_immune ended by the escalation in %v", a.Took)
	case <-time.After(15 * time.Second):
		t.Fatal("a call ignoring both breaks was not stopped")
	}
	mcptest.Eventually(t, 5*time.Second, "the stopped gem is gone", func() bool { return len(s.gemFiles()) == 1 })
	if pid := s.gemFiles()[ctlNumber]; pid != ctlPid {
		t.Fatalf("the control session's gem changed (%d → %d): it must outlive the stop", ctlPid, pid)
	}
	mcptest.Eventually(t, 5*time.Second, "the log says the stop ended the call", func() bool {
		return strings.Contains(s.log.String(), "ended by stopping the session")
	})
	wantError(t, s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`), http.StatusNotFound, -32001, errkind.SessionNotFound)
}

// A lost control session is replaced, and stops still work meanwhile.
func TestALostControlSession(t *testing.T) {
	s := start(t)
	_, ctlPid := controlGem(t, s)
	// Its gem exists before its login has finished; killed then, the login itself fails.
	mcptest.Eventually(t, 10*time.Second, "the control session's login has finished", func() bool {
		return strings.Contains(s.log.String(), "control session logged in")
	})
	if err := syscall.Kill(ctlPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	mcptest.Eventually(t, 5*time.Second, "the killed control gem is gone", func() bool { return len(s.ourGems()) == 0 })
	// The first stop finds the control session dead; the second uses a new one.
	for i, name := range []string{"a stop finding it dead still ends the call", "a stop on its replacement ends the call"} {
		t.Run(name, func(t *testing.T) {
			s := s.in(t)
			sid := s.open()
			done := s.started(sid, call(i, "sleep_immune", `{"ms":60000}`))
			s.post(sid, cancelOf(string(rune('0'+i))))
			select {
			case a := <-done:
				if a.Err != nil || a.Status != http.StatusAccepted {
					t.Fatalf("round %d: %v %d %s", i, a.Err, a.Status, a.Body)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("round %d: the call was not ended", i)
			}
			wantStatus(t, s.post(sid, `{"jsonrpc":"2.0","id":9,"method":"ping"}`), http.StatusNotFound)
		})
	}
	t.Run("is replaced by a new login, logged", func(t *testing.T) {
		s := s.in(t)
		mcptest.Eventually(t, 10*time.Second, "a new control session is logged in", func() bool {
			for _, pid := range s.gemFiles() {
				if pid != ctlPid {
					return true
				}
			}
			return false
		})
		if !strings.Contains(s.log.String(), "control session lost (its gem is gone); logged in again") {
			t.Fatalf("the control session's re-login is not in the log:\n%s", s.log)
		}
	})
}

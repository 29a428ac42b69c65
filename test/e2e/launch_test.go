package e2e

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

func TestADeniedLogin(t *testing.T) {
	// No GS_USER: the control user is then the worker user, which logs in with the
	// configured password (a different control user would mint one-time passwords instead).
	s := start(t, "MCP_WORKER_USER=baduser", "MCP_MAX_SESSIONS=1", "GS_STONE=secretstone")
	// The second login is refused the same way: the first failure gave the only slot back.
	for _, name := range []string{"names the number and what to fix, leaking no NRS", "gives its slot back"} {
		t.Run(name, func(t *testing.T) {
			s := s.in(t)
			a := s.post("", initBody)
			if !wantError(t, a, http.StatusOK, -32001, errkind.LoginDenied) {
				return
			}
			if n, _ := a.RPC.Error.Data["number"].(float64); n != 4051 {
				t.Errorf("data.number %v, want 4051", a.RPC.Error.Data["number"])
			}
			for _, want := range []string{"4051", "MCP_WORKER_USER"} {
				if !strings.Contains(a.RPC.Error.Message, want) {
					t.Errorf("message %q lacks %q", a.RPC.Error.Message, want)
				}
			}
			for _, secret := range []string{"secretstone", "!tcp", "baduser", "localhost"} {
				if strings.Contains(string(a.Body), secret) {
					t.Errorf("the answer leaks %q: %s", secret, a.Body)
				}
			}
		})
	}
}

func TestARefusedPrepare(t *testing.T) {
	s := start(t, "MCP_TOOLSETS=AcmeToolset", "MCP_MAX_SESSIONS=1")
	refused := func(t *testing.T) {
		a := s.post("", initBody)
		if wantError(t, a, http.StatusOK, -32001, errkind.ToolsetNotFound) && !strings.Contains(a.RPC.Error.Message, "MCP_TOOLSETS") {
			t.Fatalf("message %q should point at MCP_TOOLSETS", a.RPC.Error.Message)
		}
	}
	t.Run("names the kind and the setting", refused)
	t.Run("gives its slot back, and its gem", func(t *testing.T) {
		s := s.in(t)
		refused(t) // the only slot is free again
		mcptest.Eventually(t, 5*time.Second, "no worker gem is left from the refused prepares", func() bool { return len(s.gemFiles()) <= 1 })
	})
}

func TestTheGETStream(t *testing.T) {
	s := start(t)
	sid := s.open()
	resp := s.stream(sid)
	rd := bufio.NewReader(resp.Body)
	t.Run("opens as an event stream with a comment", func(t *testing.T) {
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("GET /mcp: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if line, err := rd.ReadString('\n'); err != nil || !strings.HasPrefix(line, ":") {
			t.Fatalf("first frame %q %v, want a comment", line, err)
		}
	})
	t.Run("ends with its session", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.do(http.MethodDelete, sid, ""), http.StatusNoContent)
		if !mcptest.EndsWithin(rd, 5*time.Second) {
			t.Fatal("the stream outlived its session")
		}
	})
}

func getMetrics(t *testing.T, s *server) (int, string) {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestMetricsAreServed(t *testing.T) {
	on := start(t)
	sid := on.open()
	on.post(sid, call(1, "echo", `{"text":"x"}`))
	code, text := getMetrics(t, on)
	if code != http.StatusOK || !strings.Contains(text, "mcp_sessions_open 1") ||
		!strings.Contains(text, `mcp_calls_total{method="tools/call",outcome="ok"} 1`) {
		t.Fatalf("/metrics %d:\n%s", code, text)
	}
	if strings.Contains(text, sid) {
		t.Fatal("a session id reached /metrics")
	}
}

func TestMetricsCanBeSwitchedOff(t *testing.T) {
	off := start(t, "MCP_METRICS=0")
	if code, _ := getMetrics(t, off); code != http.StatusNotFound {
		t.Fatalf("/metrics with MCP_METRICS=0: %d", code)
	}
}

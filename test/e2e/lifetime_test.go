package e2e

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// The binary wires the lifetime policy: a session that opens no stream is released after
// MCP_STREAMLESS_IDLE_TIMEOUT (not before), its gem is logged out, and its id then meets 404.
func TestAStreamlessSession(t *testing.T) {
	t.Parallel()
	s := start(t, "MCP_STREAMLESS_IDLE_TIMEOUT=2s", "MCP_REAPER_INTERVAL=1s", "MCP_IDLE_TIMEOUT=10m")
	sid := s.open()
	opened := time.Now()
	gems := len(s.ourGems()) // the session's gem and the control session's
	lastRequest := time.Now()
	t.Run("serves before its interval is over", func(t *testing.T) {
		s := s.in(t)
		wantStatus(t, s.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), http.StatusOK)
		lastRequest = time.Now()
	})
	t.Run("is reaped after its interval, not before", func(t *testing.T) {
		s := s.in(t)
		mcptest.Eventually(t, 15*time.Second, "the streamless session is reaped", func() bool {
			return s.post(sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`).Status == http.StatusNotFound
		})
		if held := time.Since(lastRequest); held < 2*time.Second {
			t.Fatalf("released %v after its last request, sooner than the 2 s interval (opened %v ago)", held, time.Since(opened))
		}
	})
	t.Run("has its gem logged out", func(t *testing.T) {
		s := s.in(t)
		mcptest.Eventually(t, 10*time.Second, "the reaped session's gem is gone", func() bool { return len(s.ourGems()) == gems-1 })
	})
	t.Run("is logged with why", func(t *testing.T) {
		if !strings.Contains(s.log.String(), "streamlessIdle") {
			t.Fatalf("the log does not say why the session was released:\n%s", s.log)
		}
	})
	t.Run("is counted in /metrics", func(t *testing.T) {
		resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), `mcp_reaps_total{reason="streamlessIdle"} 1`) {
			t.Fatalf("/metrics does not count the reap:\n%s", body)
		}
	})
}

// The binary's GET stream is router/internal/sse's: on 2025-11-25 it opens with a priming event that
// carries an id and a retry field, so a client can resume with Last-Event-ID.
func TestTheBinarysGetStreamPrimesAResumableStream(t *testing.T) {
	s := start(t)
	sid := s.open()
	resp := s.stream(sid)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /mcp: %d", resp.StatusCode)
	}
	rd := bufio.NewReader(resp.Body)
	var sawID, sawRetry bool
	for !(sawID && sawRetry) {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before a priming event with id and retry (id %v, retry %v): %v", sawID, sawRetry, err)
		}
		sawID = sawID || strings.HasPrefix(line, "id:")
		sawRetry = sawRetry || strings.HasPrefix(line, "retry:")
	}
}

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// readyz answers /readyz's status and body, and fails the test if /healthz is not 200: a server
// that is not ready is still alive.
func (s *server) readyz() (int, map[string]string) {
	s.t.Helper()
	base := strings.TrimSuffix(s.url, "/mcp")
	health, err := client.Get(base + "/healthz")
	if err != nil {
		s.t.Fatal(err)
	}
	health.Body.Close()
	if health.StatusCode != http.StatusOK {
		s.t.Fatalf("/healthz %d", health.StatusCode)
	}
	resp, err := client.Get(base + "/readyz")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out map[string]string
	if err := json.Unmarshal(body, &out); err != nil {
		s.t.Fatalf("/readyz %d: %q is not JSON: %v", resp.StatusCode, body, err)
	}
	return resp.StatusCode, out
}

func TestReadyOnceTheControlSessionIsLoggedIn(t *testing.T) {
	s := start(t)
	var body map[string]string
	mcptest.Eventually(t, 10*time.Second, "/readyz answers 200", func() bool {
		var code int
		code, body = s.readyz()
		return code == http.StatusOK
	})
	if body["status"] != "ready" || body["version"] == "" {
		t.Fatalf("/readyz %v", body)
	}
	s.open() // ready means a session can be opened
}

// Without the client library the server is not ready, and says why.
func TestNotReadyWithoutTheClientLibrary(t *testing.T) {
	s := start(t, "GEMSTONE=", "GCI_LIBRARY=")
	code, body := s.readyz()
	if code != http.StatusServiceUnavailable || body["status"] != "notReady" || !strings.Contains(body["reason"], "GCI_LIBRARY or GEMSTONE") {
		t.Fatalf("/readyz %d %v", code, body)
	}
}

// While the router's own login fails the server is not ready, and says why without detail.
func TestNotReadyWhileTheRoutersOwnLoginFails(t *testing.T) {
	t.Parallel()
	s := start(t, "GS_STONE=nostone", "GS_PASS=not-the-password") // the stand-in refuses stone "nostone" (4065)
	// However long it waits, a login that fails never makes the server ready.
	for range 3 {
		code, body := s.readyz()
		if code != http.StatusServiceUnavailable || !strings.Contains(body["reason"], "control session") {
			t.Fatalf("/readyz %d %v", code, body)
		}
		if strings.Contains(body["reason"], "not-the-password") || strings.Contains(body["reason"], "nostone") {
			t.Fatalf("the reason names a secret or a user: %q", body["reason"])
		}
		time.Sleep(300 * time.Millisecond)
	}
}

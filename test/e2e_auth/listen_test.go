package e2eauth

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/auth/authtest"
)

// listen opens a subscriptions/listen stream for token's subject and answers the response
// with its headers read.
func (s *server) listen(token string) (*http.Response, error) {
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, s.resource(), strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", "Authorization": "Bearer " + token} {
		req.Header.Set(k, v)
	}
	return s.client.Do(req)
}

// One subject holds at most 8 listen streams; another subject is not refused because of them.
func TestOneSubjectsListenStreamsTakeOnlyItsShare(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL())
	alice := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	bob := is.Sign(is.Claims(s.resource(), "bob", "mcp:use"))
	for i := range 9 {
		resp, err := s.listen(alice)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if want := map[bool]int{true: http.StatusOK, false: http.StatusTooManyRequests}[i < 8]; resp.StatusCode != want {
			t.Fatalf("alice's listen stream %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	resp, err := s.listen(bob)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bob's listen stream while alice holds her share: %d", resp.StatusCode)
	}
}

// A subscriptions/listen stream lasts no longer than its token, as a GET stream does, and is
// torn down with notifications/cancelled naming the listen request; a list change that another
// subject's call announced never reaches it.
func TestAListenStreamUnderAToken(t *testing.T) {
	is := authtest.NewIssuer(t)
	s := startAuth(t, is.URL(), "MCP_OIDC_CLOCK_SKEW=1s")
	short := is.Claims(s.resource(), "alice", "mcp:use")
	short["exp"] = time.Now().Add(4 * time.Second).Unix()
	aliceShort := is.Sign(short)
	alice := is.Sign(is.Claims(s.resource(), "alice", "mcp:use"))
	bob := is.Sign(is.Claims(s.resource(), "bob", "mcp:use"))

	start := time.Now()
	streamed := make(chan string, 1)
	go func() {
		resp, err := s.listen(aliceShort)
		if err != nil {
			streamed <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			b = append(b, err.Error()...)
		}
		streamed <- string(b)
	}()
	time.Sleep(time.Second)
	for _, token := range []string{bob, alice} {
		if a := s.ownedCall(token, "tools/call", `"name":"test_trigger_tool_change","arguments":{}`, `{}`, ""); a.Status != 200 {
			t.Fatalf("trigger: %d %s", a.Status, a.Body)
		}
	}
	var body string
	select {
	case body = <-streamed:
	case <-time.After(25 * time.Second):
		t.Fatal("the listen stream was still open 25 s after its token expired")
	}
	took := time.Since(start)
	t.Run("ends with the token, cancelled", func(t *testing.T) {
		if took > 20*time.Second || !strings.Contains(body, `"notifications/cancelled"`) || !strings.Contains(body, "token") {
			t.Fatalf("the listen stream ended after %v with %s; want it ended at the token's expiry with notifications/cancelled", took, body)
		}
	})
	t.Run("hears only its own subject's list changes", func(t *testing.T) {
		if n := strings.Count(body, "notifications/tools/list_changed"); n != 1 {
			t.Fatalf("the listen stream carried %d tools/list_changed, want 1 (alice's own, not bob's): %s", n, body)
		}
	})
}

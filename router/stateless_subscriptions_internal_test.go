package router

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/sse"
)

// pumpFor runs a listen stream's pump with bounds b over what out already holds, and answers
// what the client received.
func pumpFor(t *testing.T, b listenBounds, out ...string) string {
	t.Helper()
	s := &statelessServer{Server: &Server{closing: t.Context()}}
	ln := &listener{out: make(chan []byte, len(out))}
	for _, m := range out {
		ln.out <- []byte(m)
	}
	rec := httptest.NewRecorder()
	stream := sse.NewEventWriter(rec, 0)
	if err := stream.StartStream(); err != nil {
		t.Fatal(err)
	}
	req := statelessRequest{m: jsonrpc.Message{ID: []byte(`7`)}}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	s.pumpListen(ctx, stream, req, ln, b)
	if ctx.Err() != nil {
		t.Fatalf("the stream was still open after 10 s; it carried:\n%s", rec.Body)
	}
	return rec.Body.String()
}

// A listen stream nobody reads no longer lives for ever: at its deadline (its life, or its
// token's expiry) the client is told why, naming the listen request, and the stream ends.
func TestAListenStreamEndsAtItsDeadlineNamingWhy(t *testing.T) {
	got := pumpFor(t, listenBounds{end: time.Now().Add(50 * time.Millisecond), why: "the stream reached its lifetime", maxBytes: 1 << 20})
	if !strings.Contains(got, `"method":"notifications/cancelled"`) || !strings.Contains(got, `"requestId":7`) ||
		!strings.Contains(got, "the stream reached its lifetime") {
		t.Fatalf("at its deadline the stream sent:\n%s\nwant notifications/cancelled naming request 7 and the reason", got)
	}
}

// A listen stream carries at most its bytes: past them it ends with the reason, so a flood of
// notifications cannot pin memory behind it.
func TestAListenStreamEndsPastItsBytesNamingWhy(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"pad":"` + strings.Repeat("x", 100) + `"}}`
	got := pumpFor(t, listenBounds{end: time.Now().Add(time.Hour), why: "unused", maxBytes: 3 * len(msg)}, msg, msg, msg, msg, msg)
	if n := strings.Count(got, "notifications/tools/list_changed"); n != 3 {
		t.Errorf("the stream carried %d notifications of %d bytes under a bound of %d bytes, want 3", n, len(msg), 3*len(msg))
	}
	if !strings.Contains(got, `"method":"notifications/cancelled"`) || !strings.Contains(got, "bytes; listen again") {
		t.Fatalf("past its bytes the stream sent:\n%s\nwant notifications/cancelled saying so", got)
	}
}

// A list_changed notification comes from one subject's call: only that subject's listen
// streams get it, in the network-facing mode where subjects are told apart.
func TestAListChangedNotificationReachesOnlyItsOwnSubjectsListenStreams(t *testing.T) {
	alice, mallory := session.Owner{Issuer: "idp", Subject: "alice"}, session.Owner{Issuer: "idp", Subject: "mallory"}
	mine := &listener{id: "sub-a", owner: alice, kinds: map[string]bool{"toolsListChanged": true}, out: make(chan []byte, 1)}
	theirs := &listener{id: "sub-m", owner: mallory, kinds: map[string]bool{"toolsListChanged": true}, out: make(chan []byte, 1)}
	l := &listenerSet{set: map[*listener]struct{}{mine: {}, theirs: {}}}
	l.offer(alice, "notifications/tools/list_changed", []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`))
	if len(theirs.out) != 0 {
		t.Errorf("another subject's stream got %s", <-theirs.out)
	}
	if len(mine.out) != 1 || !strings.Contains(string(<-mine.out), `"sub-a"`) {
		t.Error("the subject's own stream did not get its notification tagged with its subscription id")
	}
}

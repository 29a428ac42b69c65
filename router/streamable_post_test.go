package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

func TestRequestWithoutSessionIdIs400(t *testing.T) {
	f := newFixture(t)
	wantError(t, f.post("", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`), http.StatusBadRequest, -32600, errkind.SessionRequired)
	wantError(t, f.do(http.MethodGet, "", ""), http.StatusBadRequest, -32600, errkind.SessionRequired)
}

func TestUnknownSessionIdIs404OnEveryVerb(t *testing.T) {
	f := newFixture(t)
	for _, verb := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		t.Run(verb, func(t *testing.T) {
			r := f.in(t).do(verb, "feedfacefeedfacefeedfacefeedface", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			wantError(t, r, http.StatusNotFound, -32001, errkind.SessionNotFound)
		})
	}
}

func TestBodyBytesMakeTheRoundTripUnchanged(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	// Astral characters, escapes and odd spacing survive the trip both ways.
	body := `{ "jsonrpc":"2.0", "id":"a\u00e9", "method":"tools/call",
	  "params":{"name":"unicode","arguments":{"text":"𝄞 smile 😀 \"q\""}}}`
	r := f.post(sid, body)
	wantStatus(t, r, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if string(r.RPC.ID) != `"a\u00e9"` && string(r.RPC.ID) != `"aé"` {
		t.Fatalf("id %s did not come back", r.RPC.ID)
	}
	if !strings.Contains(string(r.Body), "𝄞 smile 😀") {
		t.Fatalf("astral text lost: %s", r.Body)
	}
}

func TestANotificationGets202WithNoBody(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	r := f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	wantStatus(t, r, http.StatusAccepted)
	if len(r.Body) != 0 {
		t.Fatalf("a notification got a body: %s", r.Body)
	}
}

func TestAPostedResponseAnswersThePendingServerRequest(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	sess, ok := f.srv.Sessions().Get(sid)
	if !ok {
		t.Fatal("session not in the table")
	}
	c := sess.Pending().Start("ping")
	if !strings.HasPrefix(strings.Trim(string(c.ID), `"`), "srv-") {
		t.Fatalf("pending id %s is not srv-N", c.ID)
	}
	r := f.post(sid, `{"jsonrpc":"2.0","id":`+string(c.ID)+`,"result":{}}`)
	wantStatus(t, r, http.StatusAccepted)
	if len(r.Body) != 0 {
		t.Fatalf("a posted response got a body: %s", r.Body)
	}
	select {
	case <-c.Done():
		if ans, err := c.Result(); err != nil || !strings.Contains(string(ans), `"result":{}`) {
			t.Fatalf("pending call got %s, %v", ans, err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the posted response did not resolve the pending request")
	}
	// A response nobody waits for is still 202.
	wantStatus(t, f.post(sid, `{"jsonrpc":"2.0","id":"srv-999","result":{}}`), http.StatusAccepted)
}

func TestPingIsAnsweredByTheFrontEndWhileTheSessionIsBusy(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	done := make(chan reply, 1)
	go func() { done <- f.post(sid, call(10, "sleep", `{"ms":3000}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the sleep is running", func() bool { s, _ := f.srv.Sessions().Get(sid); return s.Busy() })
	start := time.Now()
	r := f.post(sid, `{"jsonrpc":"2.0","id":"p1","method":"ping"}`)
	elapsed := time.Since(start)
	wantStatus(t, r, http.StatusOK)
	if string(r.RPC.ID) != `"p1"` || string(r.RPC.Result) != "{}" {
		t.Fatalf("ping answered %s", r.Body)
	}
	if elapsed > time.Second {
		t.Fatalf("ping took %v behind a running call", elapsed)
	}
	f.post(sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}}`)
	<-done
}

func TestSupportedProtocolVersionHeadersPass(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run(v, func(t *testing.T) {
			wantStatus(t, f.in(t).post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "Mcp-Protocol-Version", v), http.StatusOK)
		})
	}
}

func TestAnUnsupportedProtocolVersionHeaderIs400ListingTheSupportedOnes(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	r := f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "Mcp-Protocol-Version", "2024-11-05")
	wantError(t, r, http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
	if !strings.Contains(r.RPC.Error.Message, "2025-11-25") {
		t.Fatalf("the refusal should list the supported revisions: %s", r.RPC.Error.Message)
	}
	wantError(t, f.do(http.MethodGet, sid, "", "Mcp-Protocol-Version", "1999-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
}

func TestABatchUnder20250326IsAnsweredAsABatchInOrder(t *testing.T) {
	f := newFixture(t)
	r := f.post("", initWith("2025-03-26"))
	wantStatus(t, r, http.StatusOK)
	sid := r.Header.Get("Mcp-Session-Id")
	batch := `[{"jsonrpc":"2.0","method":"notifications/initialized"},
	  {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"one"}}},
	  {"jsonrpc":"2.0","id":2,"method":"ping"},
	  {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"three"}}}]`
	r = f.post(sid, batch, "Mcp-Protocol-Version", "2025-03-26")
	wantStatus(t, r, http.StatusOK)
	var answers []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.Body, &answers); err != nil {
		t.Fatalf("batch answer is not an array: %v: %s", err, r.Body)
	}
	if len(answers) != 3 || answers[0].ID != 1 || answers[1].ID != 2 || answers[2].ID != 3 {
		t.Fatalf("batch answers %s: want ids 1, 2, 3 in order", r.Body)
	}
	if !strings.Contains(string(answers[0].Result), "one") || !strings.Contains(string(answers[2].Result), "three") {
		t.Fatalf("batch answers carry the wrong results: %s", r.Body)
	}
	wantStatus(t, f.post(sid, `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`), http.StatusAccepted)
}

func TestBatchIsRefusedUnderTheNewerRevisions(t *testing.T) {
	f := newFixture(t)
	for _, v := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(v, func(t *testing.T) {
			f := f.in(t)
			r := f.post("", initWith(v))
			sid := r.Header.Get("Mcp-Session-Id")
			r = f.post(sid, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
			wantError(t, r, http.StatusBadRequest, -32600, errkind.BatchRefused)
			if !strings.Contains(r.RPC.Error.Message, v) {
				t.Errorf("refusal %q should name the session's revision %s", r.RPC.Error.Message, v)
			}
		})
	}
	t.Run("an initialize in a batch", func(t *testing.T) {
		wantError(t, f.in(t).post("", `[`+initBody+`]`), http.StatusBadRequest, -32600, errkind.BatchRefused)
	})
}

func TestServerDiscoverGetsAPromptErrorSoClientsFallBack(t *testing.T) {
	f := newFixture(t)
	start := time.Now()
	// The Go SDK sends the probe with the draft's version header; the answer must be the
	// probe's own, not the version gate's, whatever the header says.
	// (With the 2026-07-28 header and its _meta the probe is served: stateless_test.go.)
	for _, v := range []string{"", "2025-11-25", "1999-01-01"} {
		t.Run("version "+v, func(t *testing.T) {
			r := f.in(t).post("", `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}`, "Mcp-Protocol-Version", v)
			wantError(t, r, http.StatusBadRequest, -32601, errkind.MethodNotFound)
			if string(r.RPC.ID) != "0" || !strings.Contains(r.RPC.Error.Message, "initialize") {
				t.Errorf("id %s, message %q: want id 0 and initialize named as the way in", r.RPC.ID, r.RPC.Error.Message)
			}
		})
	}
	// The version gate still refuses everything else that carries a version it does not speak.
	wantError(t, f.post("", initBody, "Mcp-Protocol-Version", "2099-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
	wantError(t, f.post("", `{"jsonrpc":"2.0","id":0,"method":"tools/list"}`, "Mcp-Protocol-Version", "2099-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
	wantError(t, f.post("", `{not json`, "Mcp-Protocol-Version", "2099-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
	wantError(t, f.post("", `[{"jsonrpc":"2.0","id":0,"method":"server/discover"}]`, "Mcp-Protocol-Version", "2099-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
	if time.Since(start) > time.Second {
		t.Fatalf("server/discover took %v", time.Since(start))
	}
	if f.l.Launches() != 0 {
		t.Fatal("server/discover attempted a login")
	}
	// On a session the version gate answers first, as for every other message.
	sid := f.open()
	wantError(t, f.post(sid, `{"jsonrpc":"2.0","id":0,"method":"server/discover"}`, "Mcp-Protocol-Version", "2099-01-01"), http.StatusBadRequest, -32600, errkind.UnsupportedProtocolVersion)
}

func TestOtherVerbsAre405WithAllow(t *testing.T) {
	f := newFixture(t)
	for _, verb := range []string{http.MethodPut, http.MethodPatch, http.MethodOptions, "PROPFIND"} {
		t.Run(verb, func(t *testing.T) {
			r := f.in(t).do(verb, "", "")
			wantStatus(t, r, http.StatusMethodNotAllowed)
			if a := r.Header.Get("Allow"); a != "GET, POST, DELETE" {
				t.Errorf("Allow %q", a)
			}
		})
	}
}

func TestDuplicateInFlightIdIsRefused(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	done := make(chan reply, 1)
	go func() { done <- f.post(sid, call(7, "sleep", `{"ms":2000}`)) }()
	mcptest.Eventually(t, 2*time.Second, "the sleep is running", func() bool { s, _ := f.srv.Sessions().Get(sid); return s.Busy() })
	wantError(t, f.post(sid, call(7, "echo", `{"text":"x"}`)), http.StatusBadRequest, -32600, errkind.DuplicateID)
	f.post(sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	<-done
}

// The router's own ask of the worker (resourceUpdates) and the worker's notes to the router
// (becomeTask) are not a client's to send: a client's ask would consume the signals the
// router asks for on its behalf.
func TestAClientCannotSendTheFrontEndsPrivateMethods(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	r := f.post(sid, `{"jsonrpc":"2.0","id":7,"method":"io.github.gemstone-mcp/resourceUpdates"}`)
	wantError(t, r, http.StatusOK, -32601, errkind.MethodNotFound)
	if !strings.Contains(string(r.Body), "private") {
		t.Fatalf("the refusal does not say the method is private: %s", r.Body)
	}
	wantStatus(t, f.post(sid, `{"jsonrpc":"2.0","method":"notifications/io.github.gemstone-mcp/becomeTask"}`), http.StatusAccepted)
}

package e2echannel

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/internal/wiring/wiringtest"
	"github.com/gemstone-mcp/mcp-gemstone/test/load/harness"
)

// inProcess is the front end assembled as bin/mcp-gemstone assembles it, on in-process
// fixture workers that still reach the channel over TCP.
func inProcess(t *testing.T) *mcpSession {
	t.Helper()
	_, base := wiringtest.Serve(t)
	s := &mcpSession{t: t, srv: nil, n: 100}
	s.url = base + "/mcp"
	init := s.postTo(s.url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	s.sid = init.Header.Get("Mcp-Session-Id")
	if s.sid == "" {
		b, _ := io.ReadAll(init.Body)
		t.Fatalf("initialize: %d %s", init.StatusCode, b)
	}
	s.postTo(s.url, s.sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// get opens the session's GET stream, resuming after lastEventID when it is not "".
func (s *mcpSession) get(lastEventID string) *http.Response {
	s.t.Helper()
	return (&mcptest.Client{URL: s.url, Protocol: harness.ProtocolVersion}).Stream(s.t, s.sid, lastEventID)
}

func TestAResourceUpdateTheGemAnnouncesReachesTheGETStream(t *testing.T) {
	s := inProcess(t)
	stream := events(t, s.get("").Body)
	s.n++
	sub := s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"test://watched-resource"}}`, s.n))
	if b, _ := io.ReadAll(sub.Body); !strings.Contains(string(b), `"result":{}`) {
		t.Fatalf("subscribe: %s", b)
	}
	for {
		e := next(t, stream)
		if e.data == "" {
			continue // the GET stream's priming event
		}
		var m struct {
			Method string               `json:"method"`
			Params struct{ URI string } `json:"params"`
		}
		_ = json.Unmarshal([]byte(e.data), &m)
		if m.Method != "notifications/resources/updated" || m.Params.URI != "test://watched-resource" {
			t.Fatalf("GET stream carried %s", e.data)
		}
		return
	}
}

func TestACancelledCallWithAQuestion(t *testing.T) {
	s := inProcess(t)
	resp := s.call("test_elicitation", `{"message":"still there?"}`, "")
	id := s.n
	stream := events(t, resp.Body)
	next(t, stream) // priming
	if ask := decode(t, next(t, stream)); ask.Method != "elicitation/create" {
		t.Fatalf("want the question first, got %+v", ask)
	}
	start := time.Now()
	s.post(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, id))
	t.Run("ends with its question unanswered", func(t *testing.T) {
		for e := range stream {
			if m := decode(t, e); m.Result != nil {
				t.Fatalf("a cancelled call was answered: %s", e.data)
			}
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("the cancelled call's stream took %v to end", d)
		}
	})
	t.Run("leaves the session going on", func(t *testing.T) {
		defer s.as(t)()
		echo := s.call("echo", `{"text":"after"}`, "")
		if b, _ := io.ReadAll(echo.Body); !strings.Contains(string(b), "after") {
			t.Fatalf("the session did not go on: %s", b)
		}
	})
}

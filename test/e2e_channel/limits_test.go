package e2echannel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// An answer to an elicitation larger than the channel's frame limit would make the worker
// drop its channel (and the session lose progress, logging and elicitation for good): the
// router refuses it to the client, tells the worker the request failed, and keeps the channel.
func TestAnElicitationAnswerOverTheFrameLimit(t *testing.T) {
	s := open(t)
	ev := events(t, s.call("test_elicitation", `{"message":"who are you?"}`, "").Body)
	next(t, ev) // priming
	ask := decode(t, next(t, ev))
	if ask.Method != "elicitation/create" {
		t.Fatalf("request toward the client %+v", ask)
	}
	huge := strings.Repeat("a", 1536<<10)
	answer := s.post(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"action":"accept","content":{"username":"` + huge + `"}}}`)
	body, _ := io.ReadAll(answer.Body)
	var refusal struct {
		Error struct {
			Data struct{ Kind string } `json:"data"`
		} `json:"error"`
	}
	t.Run("is refused 413 responseTooLarge", func(t *testing.T) {
		if answer.StatusCode != http.StatusRequestEntityTooLarge || json.Unmarshal(body, &refusal) != nil || refusal.Error.Data.Kind != errkind.ResponseTooLarge {
			t.Fatalf("an answer over the frame limit got %d %.300s; want 413 responseTooLarge", answer.StatusCode, body)
		}
	})
	t.Run("leaves the call its answer", func(t *testing.T) {
		if m := decode(t, next(t, ev)); m.Result == nil {
			t.Fatalf("the call got no answer after its elicitation was refused: %+v", m)
		}
	})
	t.Run("never reaches the channel", func(t *testing.T) {
		if strings.Contains(s.srv.Log(), "frameTooLarge") {
			t.Fatalf("the oversized answer reached the channel:\n%s", s.srv.Log())
		}
	})
	t.Run("leaves the channel to the next tool's progress", func(t *testing.T) {
		defer s.as(t)()
		resp := s.call("test_tool_with_progress", `{}`, `{"progressToken":"tok-2"}`)
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("after the refusal a tool's progress no longer streams (content type %q):\n%s", ct, s.srv.Log())
		}
		pev := events(t, resp.Body)
		next(t, pev) // priming
		if m := decode(t, next(t, pev)); m.Method != "notifications/progress" {
			t.Fatalf("want progress, got %+v", m)
		}
	})
}

// The wait for an elicitation is MCP_ELICITATION_TIMEOUT; an answer after it is logged as late.
func TestTheElicitationWait(t *testing.T) {
	t.Parallel()
	s := openWith(t, "MCP_ELICITATION_TIMEOUT=2s")
	start := time.Now()
	ev := events(t, s.call("test_elicitation", `{"message":"who are you?"}`, "").Body)
	next(t, ev) // priming
	ask := decode(t, next(t, ev))
	if ask.Method != "elicitation/create" {
		t.Fatalf("request toward the client %+v", ask)
	}
	t.Run("is MCP_ELICITATION_TIMEOUT", func(t *testing.T) {
		m := decode(t, next(t, ev)) // nobody answers: the tool's result comes once the router gives up
		if took := time.Since(start); m.Result == nil || took < 2*time.Second || took > 10*time.Second {
			t.Fatalf("result %+v after %v; want it after the 2 s elicitation wait", m, took)
		}
	})
	t.Run("past it an answer is taken and logged as late", func(t *testing.T) {
		defer s.as(t)()
		late := s.post(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"action":"accept","content":{"username":"ada"}}}`)
		if late.StatusCode != http.StatusAccepted {
			t.Fatalf("a late answer got %d", late.StatusCode)
		}
		deadline := time.Now().Add(5 * time.Second) // the log is read from the process on its own goroutine
		for !strings.Contains(s.srv.Log(), "came after its request had been given up on") {
			if time.Now().After(deadline) {
				t.Fatalf("the late answer is not logged:\n%s", s.srv.Log())
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// A proxy that cuts a POST's event stream mid-call loses nothing: the client resumes with GET
// and the last event id it saw, and gets the rest and the response. Neither that GET nor one
// naming a POST stream with nothing left supersedes the session's standalone GET stream.
func TestACutPOSTStream(t *testing.T) {
	s := open(t)
	standalone := s.get("")
	if standalone.StatusCode != http.StatusOK {
		t.Fatalf("standalone GET: %d", standalone.StatusCode)
	}
	ended := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, standalone.Body); close(ended) }()

	ctx, cut := context.WithCancel(context.Background())
	defer cut()
	s.n++
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(fmt.Sprintf(
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_elicitation","arguments":{"message":"who?"}}}`, s.n)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", s.sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, resp.Body)
	next(t, ev) // priming
	askEvent := next(t, ev)
	ask := decode(t, askEvent)
	if ask.Method != "elicitation/create" {
		t.Fatalf("request toward the client %+v", ask)
	}
	cut() // the network drops the POST's stream while the call waits
	time.Sleep(300 * time.Millisecond)
	if a := s.post(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"action":"accept","content":{"username":"ada"}}}`); a.StatusCode != http.StatusAccepted {
		t.Fatalf("the answer to the elicitation got %d", a.StatusCode)
	}
	t.Run("is resumed by GET with the last event id, to its response", func(t *testing.T) {
		defer s.as(t)()
		resumed := s.get(askEvent.id)
		if resumed.StatusCode != http.StatusOK {
			t.Fatalf("resume from %s: %d", askEvent.id, resumed.StatusCode)
		}
		m := decode(t, next(t, events(t, resumed.Body)))
		if m.Result == nil || !strings.Contains(m.Result.Content[0].Text, "ada") {
			t.Fatalf("the resumed stream's response %+v", m)
		}
	})
	t.Run("with nothing left is a 409 to resume", func(t *testing.T) {
		defer s.as(t)()
		if again := s.get(askEvent.id); again.StatusCode != http.StatusConflict {
			t.Fatalf("a resume of a stream with nothing left: %d, want 409", again.StatusCode)
		}
	})
	t.Run("never supersedes the standalone stream", func(t *testing.T) {
		select {
		case <-ended:
			t.Fatal("a resuming GET ended the session's standalone stream")
		case <-time.After(time.Second):
		}
	})
}

// A call that says nothing for longer than MCP_PROGRESS_KEEPALIVE, from a client that sent a
// progressToken, is kept alive with progress for that token, so a client whose request
// timeout is reset by progress does not give up on it.
func TestASilentCallIsKeptAliveWithProgressForItsToken(t *testing.T) {
	t.Parallel()
	s := openWith(t, "MCP_PROGRESS_KEEPALIVE=1s")
	resp := s.call("sleep", `{"ms":3500}`, `{"progressToken":"keep-1"}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("a silent call with a progress token is answered %q, with nothing until it ends", ct)
	}
	ev := events(t, resp.Body)
	next(t, ev) // priming
	last, keepalives := -1.0, 0
	for {
		m := decode(t, next(t, ev))
		if m.Result != nil {
			break
		}
		if m.Method != "notifications/progress" || m.Params.ProgressToken != "keep-1" || m.Params.Progress <= last {
			t.Fatalf("want increasing progress for keep-1, got %+v after %v", m, last)
		}
		last = m.Params.Progress
		keepalives++
	}
	if keepalives < 2 {
		t.Fatalf("%d keepalives in a 3.5 s silent call at 1 s", keepalives)
	}
	plain := s.call("sleep", `{"ms":1500}`, "")
	if ct := plain.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("without a token the answer stays JSON: %q", ct)
	}
}

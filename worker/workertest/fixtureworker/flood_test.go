package fixtureworker

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// fakeRouter is the router's end of the channel, as little of it as the flood tool needs: it
// accepts one connection, acknowledges the hello, collects the message frames and answers
// flushes.
type fakeRouter struct {
	ln     net.Listener
	frames chan map[string]json.RawMessage
}

func newFakeRouter(t *testing.T) *fakeRouter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &fakeRouter{ln: ln, frames: make(chan map[string]json.RawMessage, 1024)}
	t.Cleanup(func() { ln.Close() })
	go r.serve()
	return r
}

func (r *fakeRouter) serve() {
	conn, err := r.ln.Accept()
	if err != nil {
		return
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	if _, err := readFrame(br, defaultMaxFrame); err != nil {
		return
	}
	if writeFrame(conn, []byte(`{"ok":true}`)) != nil {
		return
	}
	for {
		raw, err := readFrame(br, defaultMaxFrame)
		if err != nil {
			return
		}
		var f map[string]json.RawMessage
		if json.Unmarshal(raw, &f) != nil {
			return
		}
		if token, ok := f["flush"]; ok {
			_ = writeFrame(conn, []byte(`{"flushed":`+string(token)+`}`))
			continue
		}
		r.frames <- f
	}
}

func (r *fakeRouter) config() string {
	return strings.Replace(testConfig, `"resultCap":0,`,
		`"resultCap":0,"channel":{"version":1,"address":"`+r.ln.Addr().String()+`","secret":"s"},`, 1)
}

// collect reads n frames, failing the test when they do not come within 5 s.
func (r *fakeRouter) collect(t *testing.T, n int) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for len(out) < n {
		select {
		case f := <-r.frames:
			out = append(out, f)
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d frames reached the router", len(out), n)
		}
	}
	return out
}

func TestFloodSendsCountPaddedNotificationsBoundToTheCall(t *testing.T) {
	r := newFakeRouter(t)
	w := newWorker(t, r.config())
	res := handle(t, w, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"flood","arguments":{"kind":"progress","count":5,"size":1000},"_meta":{"progressToken":"tok"}}}`)
	if !strings.Contains(string(res.Result), "flood: 5 of 5 progress notifications sent") {
		t.Fatalf("flood answered %s", res.Result)
	}
	for i, f := range r.collect(t, 5) {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Token    string `json:"progressToken"`
				Progress int    `json:"progress"`
				Total    int    `json:"total"`
				Message  string `json:"message"`
			} `json:"params"`
		}
		if err := json.Unmarshal(f["message"], &msg); err != nil {
			t.Fatal(err)
		}
		if string(f["call"]) != "7" || msg.Method != "notifications/progress" || msg.Params.Token != "tok" ||
			msg.Params.Progress != i+1 || msg.Params.Total != 5 || len(msg.Params.Message) != 1000 {
			t.Fatalf("frame %d: call %s, %+v (message of %d bytes)", i, f["call"], msg, len(msg.Params.Message))
		}
	}
}

func TestFloodOfResourceUpdatesIsBoundToNoCall(t *testing.T) {
	r := newFakeRouter(t)
	w := newWorker(t, r.config())
	if tr := callTool(t, w, "flood", `{"kind":"resourceUpdated","count":3,"size":10}`); tr.IsError || !strings.Contains(tr.Content[0].Text, "3 of 3") {
		t.Fatalf("flood: %+v", tr)
	}
	for i, f := range r.collect(t, 3) {
		if _, bound := f["call"]; bound || !strings.Contains(string(f["message"]), `"uri":"test://flood/`+strconv.Itoa(i+1)+`"`) ||
			!strings.Contains(string(f["message"]), `"method":"notifications/resources/updated"`) {
			t.Fatalf("frame %d: %v", i, f)
		}
	}
}

func TestFloodRefusesWhatItCannotSend(t *testing.T) {
	if tr := callTool(t, newWorker(t, testConfig), "flood", `{"kind":"log","count":1,"size":1}`); !tr.IsError || tr.Kind() != "channelUnavailable" {
		t.Fatalf("flood without a channel: %+v", tr)
	}
	r := newFakeRouter(t)
	w := newWorker(t, r.config())
	if tr := callTool(t, w, "flood", `{"kind":"progress","count":1,"size":1}`); !tr.IsError || tr.Kind() != errkind.InvalidParams {
		t.Fatalf("progress flood without a progressToken: %+v", tr)
	}
	if tr := callTool(t, w, "flood", `{"kind":"shout","count":1,"size":1}`); !tr.IsError || tr.Kind() != errkind.InvalidParams {
		t.Fatalf("flood of an unknown kind: %+v", tr)
	}
	if tr := callTool(t, w, "flood", `{"kind":"log","count":1,"size":1048576}`); !tr.IsError || tr.Kind() != errkind.InvalidParams {
		t.Fatalf("flood larger than a channel frame: %+v", tr)
	}
}

func TestABreakEndsAFlood(t *testing.T) {
	r := newFakeRouter(t)
	w := newWorker(t, r.config())
	breaks := make(chan Break, 1)
	breaks <- SoftBreak
	_, err := w.HandleWithBreaks(context.Background(),
		[]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"flood","arguments":{"kind":"log","count":100000,"size":0}}}`), breaks)
	if be, ok := err.(*BreakError); !ok || be.Break != SoftBreak {
		t.Fatalf("flood after a soft break: %v, want the BreakError", err)
	}
}

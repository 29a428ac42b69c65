package router_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func traced(o *router.Options, _ *workertest.Launcher) { o.Trace, o.TraceLimit = true, 4096 }

func TestTheTraceOfARefusedRequest(t *testing.T) {
	f := newFixture(t, traced)
	f.post("", "{\"jsonrpc\":\"2.0\",\n\"id\":1,\t\"method\":\"initialize\"}", "Origin", "https://evil.example", "Authorization", "Bearer sekrit-token")
	log := f.log.String()
	t.Run("holds its body on one line", func(t *testing.T) {
		if !strings.Contains(log, `"dir":"in"`) || !strings.Contains(log, `{\"jsonrpc\":\"2.0\",\\n\"id\":1,\\t\"method\":\"initialize\"}`) {
			t.Errorf("the refused request's body is not traced one-line with escaped newline and tab:\n%s", log)
		}
	})
	t.Run("holds the refusal", func(t *testing.T) {
		if !strings.Contains(log, `"dir":"out"`) || !strings.Contains(log, `"status":403`) || !strings.Contains(log, "originRefused") {
			t.Errorf("the 403 answer is not traced:\n%s", log)
		}
	})
	t.Run("holds no header", func(t *testing.T) {
		if strings.Contains(log, "sekrit-token") || strings.Contains(log, "Authorization") {
			t.Errorf("a header reached the trace:\n%s", log)
		}
	})
}

func TestTraceCapsABodyCountingWhatItCut(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Trace, o.TraceLimit = true, 40 })
	sid := f.open()
	body := call(2, "echo", `{"text":"`+strings.Repeat("z", 200)+`"}`)
	f.post(sid, body)
	log := f.log.String()
	want := "...(+" + strconv.Itoa(len(body)-40) + " more)"
	if !strings.Contains(log, want) {
		t.Fatalf("no %q marker for the capped inbound body:\n%s", want, log)
	}
	if !strings.Contains(log, `"session":"`+sid+`"`) {
		t.Fatalf("the session id is not traced")
	}
}

func TestTraceOffLogsNoBodies(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	f.post(sid, call(2, "echo", `{"text":"private-argument"}`))
	if strings.Contains(f.log.String(), "private-argument") {
		t.Fatalf("a body was logged with the trace off")
	}
}

func TestTraceLinesIgnoreTheLogLevel(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) {
		o.Trace = true
		o.Log = o.Log.Level(zerolog.ErrorLevel)
	})
	f.post("", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)
	if !strings.Contains(f.log.String(), "server/discover") {
		t.Fatalf("a trace line was filtered by the log level:\n%s", f.log.String())
	}
}

func TestTraceKeepsTheBodyLimit(t *testing.T) {
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Trace, o.MaxBody = true, 1024 })
	sid := f.open()
	wantStatus(t, f.post(sid, call(1, "echo", `{"text":"`+strings.Repeat("x", 5000)+`"}`)), 413)
	wantStatus(t, f.post(sid, call(2, "echo", `{"text":"fits"}`)), 200)
	if !strings.Contains(f.log.String(), `"size":"over 1025 bytes"`) {
		t.Fatalf("the oversize body's trace line does not say it went on:\n%s", f.log.String())
	}
}

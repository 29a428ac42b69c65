package router_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

// Member names of the stateless envelope are read exactly: a capitalised "Extensions" declares
// no extension, so the tasks gate refuses it as a client without the tasks extension.
func TestCapabilityMembersAreReadExactly(t *testing.T) {
	f := newFixture(t)
	for _, caps := range []string{
		`{"Extensions":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"EXTENSIONS":{"io.modelcontextprotocol/tasks":{}}}`,
		`{"extensions":{"IO.MODELCONTEXTPROTOCOL/TASKS":{}}}`,
	} {
		t.Run(caps, func(t *testing.T) {
			body := strings.Replace(statelessBody(1, "tasks/get", `"taskId":"task-x"`),
				`"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":`+caps, 1)
			wantError(t, f.in(t).stateless(body), http.StatusBadRequest, -32021, errkind.MissingCapability)
		})
	}
	body := strings.Replace(statelessBody(1, "tasks/get", `"taskId":"task-x"`),
		`"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, 1)
	wantError(t, f.stateless(body), http.StatusBadRequest, -32602, errkind.UnknownTask)
}

// With tracing off, a client's own _meta.traceparent reaches the worker only when it is W3C trace
// context; one carrying a line break (which a worker would write into its log) is dropped.
func TestAForeignTraceparentThatIsNotTraceContextNeverReachesTheWorker(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	const good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for parent, kept := range map[string]bool{
		good: true,
		`00-4bf92f3577b34da6a3ce929d0e0\n4736-00f067aa0ba902b7-01`:          false,
		`00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nforged`: false,
		"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01":           false,
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01":           false,
		"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01":           false,
	} {
		r := f.post(sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"trace_context","arguments":{},`+
			`"_meta":{"traceparent":"`+parent+`","tracestate":"k=v","progressToken":"p"}}}`)
		wantStatus(t, r, http.StatusOK)
		saw := strings.Contains(string(r.Body), `"text":"`+strings.ReplaceAll(parent, `\`, `\\`)+`"`) ||
			strings.Contains(string(r.Body), `"text":"`+parent+`"`)
		if saw != kept || (!kept && !strings.Contains(string(r.Body), `"text":""`)) {
			t.Errorf("traceparent %q: worker answered %s; want it kept=%v", parent, r.Body, kept)
		}
	}
}

func TestATraceParentMemberOtherThanTraceparentIsNoParent(t *testing.T) {
	f, exp := tracedFixture(t)
	sid := f.open()
	f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"TraceParent":"00-`+clientTrace+`-00f067aa0ba902b7-01"}}}`)
	if got := spanNamed(t, exp, "tools/list").SpanContext.TraceID().String(); got == clientTrace {
		t.Fatalf("_meta.TraceParent was taken as the trace parent")
	}
}

// A pool gem that dies during a stateless call: the client is told to send the request again,
// never to initialize a session the revision does not have.
func TestAStatelessCallWhoseGemDiedSaysToSendItAgain(t *testing.T) {
	f := newFixture(t)
	answered := make(chan reply, 1)
	go func() {
		answered <- f.stateless(statelessBody(1, "tools/call", `"name":"sleep","arguments":{"ms":20000}`))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if g, ok := f.l.Gem(1); ok && g.Calls() > 1 {
			break // the pool gem's initialize, then the sleep
		}
		if time.Now().After(deadline) {
			t.Fatal("the sleep never reached a pool gem")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	f.l.Kill(1)
	r := <-answered
	if r.RPC.Error == nil || r.RPC.Error.Data["kind"] != errkind.SessionGone {
		t.Fatalf("die: %s, want a sessionGone error", r.Body)
	}
	if msg := r.RPC.Error.Message; strings.Contains(msg, "initialize") || !strings.Contains(msg, "send the request again") {
		t.Fatalf("die: message %q, want advice to send the request again and no initialize", msg)
	}
}

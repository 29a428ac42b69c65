package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// tracedFixture is a router whose spans go to an in-process exporter, synchronously.
func tracedFixture(t *testing.T) (*fixture, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.Tracer = tp.Tracer("test") })
	return f, exp
}

func attrsOf(s tracetest.SpanStub) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// spanNamed answers the span called name, waiting a moment for it: a span ends as its handler
// returns, which may be just after the client has read a complete (Content-Length) answer.
func spanNamed(t *testing.T, exp *tracetest.InMemoryExporter, name string) tracetest.SpanStub {
	t.Helper()
	var names []string
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		names = names[:0]
		for _, s := range exp.GetSpans() {
			if s.Name == name {
				return s
			}
			names = append(names, s.Name)
		}
		if time.Now().After(deadline) {
			break
		}
	}
	t.Fatalf("no span %q among %v", name, names)
	return tracetest.SpanStub{}
}

const clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"

func TestAToolsCallsSpan(t *testing.T) {
	f, exp := tracedFixture(t)
	sid := f.open()
	secret := "argument-text-never-in-a-span"
	r := f.post(sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"trace_context","arguments":{},`+
		`"_meta":{"traceparent":"00-`+clientTrace+`-00f067aa0ba902b7-01","progressToken":"p1"}}}`)
	wantStatus(t, r, http.StatusOK)
	span := spanNamed(t, exp, "tools/call trace_context")
	t.Run("is one span in the client's trace", func(t *testing.T) {
		if got := span.SpanContext.TraceID().String(); got != clientTrace {
			t.Errorf("span trace %s, want the client's %s", got, clientTrace)
		}
		if got := span.Parent.SpanID().String(); got != "00f067aa0ba902b7" {
			t.Errorf("span parent %s, want the client's span", got)
		}
		a := attrsOf(span)
		if a["mcp.method.name"] != "tools/call" || a["gen_ai.tool.name"] != "trace_context" || a["mcp.outcome"] != "ok" || a["jsonrpc.request.id"] != "7" {
			t.Errorf("attributes %v", a)
		}
	})
	t.Run("is the worker's parent", func(t *testing.T) {
		// params._meta.traceparent names the router's span, the rest of _meta kept.
		var answer struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.Body, &answer); err != nil || len(answer.Result.Content) != 1 {
			t.Fatalf("answer %s", r.Body)
		}
		want := "00-" + clientTrace + "-" + span.SpanContext.SpanID().String() + "-01"
		if got := answer.Result.Content[0].Text; got != want {
			t.Errorf("the worker saw traceparent %q, want the router's span %q", got, want)
		}
	})
	t.Run("carries no argument and no session id", func(t *testing.T) {
		f.in(t).post(sid, call(8, "echo", `{"text":"`+secret+`"}`))
		for _, s := range exp.GetSpans() {
			for _, kv := range s.Attributes {
				if v := kv.Value.String(); strings.Contains(v, secret) || strings.Contains(v, sid) {
					t.Errorf("span %s attribute %s carries %q", s.Name, kv.Key, v)
				}
			}
		}
	})
}

func TestEveryMessageHasItsSpanWithTheOutcomeTheClientGot(t *testing.T) {
	f, exp := tracedFixture(t)
	sid := f.open()
	f.post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	f.post(sid, call(3, "fail", `{"kind":"notFound"}`))
	f.post(sid, call(4, "no_such_tool", `{}`))
	f.post(sid, call(5, "die", `{}`))
	for name, want := range map[string]string{
		"initialize": "ok", "notifications/initialized": "ok", "ping": "ok",
		"tools/call fail": "toolError", "tools/call no_such_tool": "error-32602", "tools/call die": "sessionGone",
	} {
		s := spanNamed(t, exp, name)
		if got := attrsOf(s)["mcp.outcome"]; got != want {
			t.Errorf("%s: outcome %q, want %q", name, got, want)
		}
		if isErr := s.Status.Code == codes.Error; isErr != (want == "sessionGone" || want == "error-32602") {
			t.Errorf("%s: span status %v", name, s.Status)
		}
	}
	// No traceparent from the client: the router's span starts a trace of its own.
	if s := spanNamed(t, exp, "ping"); !s.SpanContext.IsValid() || s.Parent.IsValid() {
		t.Errorf("ping span %v parent %v", s.SpanContext, s.Parent)
	}
}

func TestAMessageRefusedAtTheGatesHasNoSpan(t *testing.T) {
	f, exp := tracedFixture(t)
	f.post("", initBody, "Origin", "http://evil.example")
	if n := len(exp.GetSpans()); n != 0 {
		t.Fatalf("%d spans for a request the Origin gate refused", n)
	}
}

func TestWithTracingOffTheWorkerSeesNoTraceparent(t *testing.T) {
	plain := newFixture(t)
	sid := plain.open()
	r := plain.post(sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"trace_context","arguments":{}}}`)
	if !strings.Contains(string(r.Body), `"text":""`) {
		t.Fatalf("without a tracer the worker saw a traceparent: %s", r.Body)
	}
}

func TestTheHeaderTraceparentIsTheParentWhenTheMessageHasNone(t *testing.T) {
	f, exp := tracedFixture(t)
	sid := f.open()
	f.post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "traceparent", "00-"+clientTrace+"-00f067aa0ba902b7-01")
	if got := spanNamed(t, exp, "tools/list").SpanContext.TraceID().String(); got != clientTrace {
		t.Fatalf("tools/list trace %s, want %s", got, clientTrace)
	}
}

package e2e

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

// collector is an OTLP/HTTP trace receiver: it keeps every span it is sent.
type collector struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	attrs map[string]string // resource attributes of the last export
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
		http.Error(w, "not an OTLP trace export", http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		c.attrs = map[string]string{}
		for _, kv := range rs.GetResource().GetAttributes() {
			c.attrs[kv.Key] = kv.GetValue().GetStringValue()
		}
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	c.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (c *collector) span(name string) *tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.spans {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// TestAToolsCallThroughTheBinaryIsTraced runs bin/mcp-gemstone with the standard OTEL_*
// variables pointing at an in-test collector: the call is traced to the collector and the gem log.
func TestAToolsCallThroughTheBinaryIsTraced(t *testing.T) {
	col := &collector{}
	ts := httptest.NewServer(col)
	defer ts.Close()
	s := start(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+ts.URL, "OTEL_BSP_SCHEDULE_DELAY=100", "OTEL_SERVICE_NAME=mcp-gemstone-e2e")
	mcptest.Eventually(t, 5*time.Second, "the startup log says tracing is on", func() bool {
		return strings.Contains(s.log.String(), "tracing: one OpenTelemetry span per MCP message")
	})
	sid := s.open()
	const clientTrace = "0af7651916cd43dd8448eb211c80319c"
	a := s.post(sid, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"not in any span"},`+
		`"_meta":{"traceparent":"00-`+clientTrace+`-b7ad6b7169203331-01"}}}`)
	if a.Status != http.StatusOK || !strings.Contains(string(a.Body), "not in any span") {
		t.Fatalf("echo: %d %s", a.Status, a.Body)
	}
	var span *tracepb.Span
	mcptest.Eventually(t, 10*time.Second, "the collector received the tools/call span", func() bool {
		span = col.span("tools/call echo")
		return span != nil
	})
	t.Run("to the collector, in the client's trace", func(t *testing.T) {
		if got := hex.EncodeToString(span.TraceId); got != clientTrace {
			t.Errorf("span trace %s, want the client's %s", got, clientTrace)
		}
		if got := hex.EncodeToString(span.ParentSpanId); got != "b7ad6b7169203331" {
			t.Errorf("span parent %s", got)
		}
	})
	attrs := map[string]string{}
	for _, kv := range span.Attributes {
		if v := kv.GetValue(); v.GetStringValue() != "" {
			attrs[kv.Key] = v.GetStringValue()
		} else {
			attrs[kv.Key] = strconv.FormatInt(v.GetIntValue(), 10)
		}
	}
	t.Run("with no argument and no session id", func(t *testing.T) {
		for _, kv := range span.Attributes {
			if strings.Contains(kv.GetValue().String(), "not in any span") || strings.Contains(kv.GetValue().String(), sid) {
				t.Errorf("attribute %s carries an argument or the session id", kv.Key)
			}
		}
	})
	t.Run("with the call's attributes", func(t *testing.T) {
		if attrs["mcp.method.name"] != "tools/call" || attrs["gen_ai.tool.name"] != "echo" || attrs["mcp.outcome"] != "ok" ||
			attrs["jsonrpc.request.id"] != "9" || attrs["http.response.status_code"] != "200" {
			t.Errorf("span attributes %v", attrs)
		}
	})
	t.Run("under OTEL_SERVICE_NAME", func(t *testing.T) {
		col.mu.Lock()
		service := col.attrs["service.name"]
		col.mu.Unlock()
		if service != "mcp-gemstone-e2e" {
			t.Errorf("service.name %q, want OTEL_SERVICE_NAME's", service)
		}
	})
	t.Run("to the gem log, naming the trace and the router's span", func(t *testing.T) {
		want := "tools/call echo in trace " + clientTrace + " (span " + hex.EncodeToString(span.SpanId) + ")"
		mcptest.Eventually(t, 5*time.Second, "the gem log names the trace", func() bool { return strings.Contains(s.log.String(), want) })
		for _, line := range strings.Split(s.log.String(), "\n") {
			if strings.Contains(line, want) {
				t.Logf("gem log: %s", line)
			}
		}
	})
	t.Logf("span %q trace %s span %s parent %s attributes %v", span.Name, clientTrace,
		hex.EncodeToString(span.SpanId), hex.EncodeToString(span.ParentSpanId), attrs)
}

func TestAnExporterThisBuildLacksRefusesTheStart(t *testing.T) {
	p, err := binserver.Start(binary, "GEMSTONE="+binserver.StandinHome(t), "MCP_PORT=0", "OTEL_TRACES_EXPORTER=zipkin")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the server started with OTEL_TRACES_EXPORTER=zipkin")
	}
	if code := p.Cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(p.Log.String(), "OTEL_TRACES_EXPORTER") {
		t.Fatalf("exit %d, log %s", code, p.Log)
	}
}

package router

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// Tracing (Options.Tracer) makes one span per MCP message POSTed to /mcp, after every gate has
// passed it. A span carries the method, the tool a tools/call names, the protocol revision and
// the outcome the client got (ok, toolError, the error's data.kind, noAnswer); never arguments,
// the session id or a token. Its parent is the W3C trace context the client put in the message's
// params._meta (traceparent, tracestate), else the request's traceparent header. The router hands
// its own span's context to the worker the same way, in params._meta.traceparent, so the worker's
// log line for the call names the trace: the one change the router makes to a forwarded message,
// and only while tracing is on.

// answerTail is how much of an answer the span keeps to read its outcome: the whole of any
// error answer, and the end of an SSE stream, where the final answer is.
const answerTail = 64 << 10

var traceContext = propagation.TraceContext{}

// traceMessages wraps next (the /mcp handler, after its gates) with the spans.
func (s *Server) traceMessages(next http.Handler) http.Handler {
	if s.o.Tracer == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		r.Body = replayBody{Reader: io.MultiReader(bytes.NewReader(body), errReader{err}), closer: r.Body}
		if err != nil {
			next.ServeHTTP(w, r) // post meets the same error and refuses the request
			return
		}
		msgs, _, perr := jsonrpc.Parse(body)
		if perr != nil {
			next.ServeHTTP(w, r) // not an MCP message: post refuses it
			return
		}
		spans := make([]trace.Span, len(msgs))
		for i, m := range msgs {
			spans[i] = s.startMessageSpan(r, m)
		}
		if len(msgs) == 1 {
			if rewritten, ok := withTraceparent(msgs[0], spans[0].SpanContext()); ok {
				body = rewritten
				r.ContentLength = int64(len(body))
			}
		}
		r.Body = replayBody{Reader: bytes.NewReader(body), closer: r.Body}
		rec := &answerRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		outcomes := rec.outcomes()
		for i, m := range msgs {
			endMessageSpan(spans[i], m, rec.status, outcomes)
		}
	})
}

// startMessageSpan starts the span of m, a child of the trace context the client sent.
func (s *Server) startMessageSpan(r *http.Request, m jsonrpc.Message) trace.Span {
	ctx := traceContext.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	if carrier := metaCarrier(m.Params); carrier != nil {
		if c := traceContext.Extract(context.Background(), carrier); trace.SpanContextFromContext(c).IsValid() {
			ctx = c
		}
	}
	method := boundedName(m.Method)
	attrs := []attribute.KeyValue{attribute.String("mcp.method.name", method)}
	name := method
	if m.Method == "tools/call" {
		if tool := toolNameOf(m.Params); tool != "" {
			attrs = append(attrs, attribute.String("gen_ai.tool.name", tool))
			name += " " + tool
		}
	}
	if v := r.Header.Get(VersionHeader); v != "" && len(v) <= 16 {
		attrs = append(attrs, attribute.String("mcp.protocol.version", v))
	}
	if m.Kind == jsonrpc.Request {
		attrs = append(attrs, attribute.String("jsonrpc.request.id", jsonrpc.Clip(string(m.ID))))
	}
	_, span := s.o.Tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return span
}

// endMessageSpan records what the client got for m and ends its span.
func endMessageSpan(span trace.Span, m jsonrpc.Message, status int, outcomes map[string]string) {
	outcome := "ok"
	switch {
	case m.Kind != jsonrpc.Request:
		if status >= 400 {
			outcome = outcomes[""]
		}
	case outcomes[m.IDKey()] != "":
		outcome = outcomes[m.IDKey()]
	case outcomes[""] != "":
		outcome = outcomes[""] // a refusal answers id null
	case status == http.StatusAccepted:
		outcome = "noAnswer" // cancelled, or its client went away
	}
	if outcome == "" {
		outcome = "error"
	}
	span.SetAttributes(attribute.String("mcp.outcome", outcome), attribute.Int("http.response.status_code", status))
	if outcome != "ok" && outcome != "toolError" && outcome != "noAnswer" {
		span.SetAttributes(attribute.String("error.type", outcome))
		span.SetStatus(codes.Error, outcome)
	}
	span.End()
}

// withTraceparent is m with params._meta.traceparent (and tracestate) set to sc, so the worker
// sees the trace it runs in. Every other member is kept as sent.
func withTraceparent(m jsonrpc.Message, sc trace.SpanContext) ([]byte, bool) {
	if !sc.IsValid() || (m.Kind != jsonrpc.Request && m.Kind != jsonrpc.Notification) {
		return nil, false
	}
	carrier := propagation.MapCarrier{}
	traceContext.Inject(trace.ContextWithSpanContext(context.Background(), sc), carrier)
	out, err := jsonrpc.WithMeta(m, func(meta map[string]json.RawMessage) bool {
		for k, v := range carrier {
			meta[k], _ = json.Marshal(v)
		}
		return true
	})
	if err != nil {
		return nil, false // params that are not an object are the worker's to refuse
	}
	return out.Raw, true
}

// metaCarrier reads the W3C trace context from params._meta, nil when there is none.
func metaCarrier(params json.RawMessage) propagation.MapCarrier {
	var parent, state string
	if json.Unmarshal(jsonrpc.MetaValue(params, "traceparent"), &parent) != nil || !validTraceparent(parent) {
		return nil
	}
	_ = json.Unmarshal(jsonrpc.MetaValue(params, "tracestate"), &state)
	return propagation.MapCarrier{"traceparent": parent, "tracestate": state}
}

func toolNameOf(params json.RawMessage) string {
	p, err := jsonrpc.Members(params)
	if err != nil {
		return ""
	}
	var name string
	_ = json.Unmarshal(p["name"], &name)
	return boundedName(name)
}

// validTraceparent holds a traceparent to the W3C Trace Context form of version 00: 2, 32, 16
// and 2 lower-case hex digits joined by dashes, the trace and parent ids not all zeros.
func validTraceparent(v string) bool {
	if len(v) != 55 || v[2] != '-' || v[35] != '-' || v[52] != '-' || v[:2] != "00" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i == 2 || i == 35 || i == 52 {
			continue
		}
		if c := v[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return strings.Trim(v[3:35], "0") != "" && strings.Trim(v[36:52], "0") != ""
}

// withoutForeignTraceparent is m without a params._meta.traceparent (and its tracestate) that is
// not W3C trace context: the worker names the trace in its gem log, and the value is the
// client's own whenever the router does not trace the call. m is returned as it is otherwise.
func withoutForeignTraceparent(m jsonrpc.Message) jsonrpc.Message {
	// A member name spelled with escapes is still that member once decoded.
	if !bytes.Contains(m.Params, []byte("traceparent")) && !bytes.Contains(m.Params, []byte(`\u`)) {
		return m
	}
	out, _ := jsonrpc.WithMeta(m, func(meta map[string]json.RawMessage) bool {
		raw, ok := meta["traceparent"]
		var parent string
		if !ok || (json.Unmarshal(raw, &parent) == nil && validTraceparent(parent)) {
			return false
		}
		delete(meta, "traceparent")
		delete(meta, "tracestate")
		return true
	})
	return out
}

// nameShape is what a method or tool name in a span looks like; a client sends any string, and
// a span name must stay a name.
var nameShape = regexp.MustCompile(`^[A-Za-z0-9_./:-]{1,64}$`)

func boundedName(s string) string {
	if nameShape.MatchString(s) {
		return s
	}
	return "other"
}

// answerRecorder passes an answer through and keeps its status and its last answerTail bytes.
type answerRecorder struct {
	http.ResponseWriter
	status int
	tail   []byte
	cut    bool // the answer was longer than the tail
}

func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	a.tail = append(a.tail, p...)
	if over := len(a.tail) - answerTail; over > 0 {
		a.tail, a.cut = append(a.tail[:0], a.tail[over:]...), true
	}
	return a.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (flushes, write deadlines).
func (a *answerRecorder) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Flush passes a flush on, for a writer that asks for http.Flusher rather than a controller.
func (a *answerRecorder) Flush() { _ = http.NewResponseController(a.ResponseWriter).Flush() }

// outcomes reads the answers the client got, by request id ("" for id null): "ok", "toolError"
// for a tool's isError result, else the error's data.kind (or "error" plus its code).
func (a *answerRecorder) outcomes() map[string]string {
	out := map[string]string{}
	for _, raw := range a.answers() {
		var ans struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
			Error *struct {
				Code int `json:"code"`
				Data struct {
					Kind string `json:"kind"`
				} `json:"data"`
			} `json:"error"`
		}
		if json.Unmarshal(raw, &ans) != nil || len(ans.ID) == 0 || ans.Method != "" {
			continue // not an answer: a notification or a request of the server's, on the stream
		}
		id := string(ans.ID)
		if id == "null" {
			id = ""
		}
		switch {
		case ans.Error != nil && ans.Error.Data.Kind != "":
			out[id] = boundedName(ans.Error.Data.Kind)
		case ans.Error != nil:
			out[id] = "error" + strconv.Itoa(ans.Error.Code)
		case ans.Result != nil && ans.Result.IsError:
			out[id] = "toolError"
		default:
			out[id] = "ok"
		}
	}
	return out
}

// answers are the JSON-RPC answers in what was kept: one object, a batch's array, or the data of
// an SSE stream's events. An answer cut by the tail is too long to be an error: it stays "ok".
func (a *answerRecorder) answers() []json.RawMessage {
	body := bytes.TrimSpace(a.tail)
	if !a.cut && len(body) > 0 && body[0] == '{' {
		return []json.RawMessage{body}
	}
	if !a.cut && len(body) > 0 && body[0] == '[' {
		var batch []json.RawMessage
		_ = json.Unmarshal(body, &batch)
		return batch
	}
	var out []json.RawMessage
	for _, event := range strings.Split(string(a.tail), "\n\n") {
		var data []string
		for _, line := range strings.Split(event, "\n") {
			if v, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(v, " "))
			}
		}
		if joined := strings.Join(data, "\n"); strings.HasPrefix(joined, "{") {
			out = append(out, json.RawMessage(joined))
		}
	}
	return out
}

// replayBody serves a body already read, then the error reading it met, and closes the original.
type replayBody struct {
	io.Reader
	closer io.Closer
}

func (b replayBody) Close() error { return b.closer.Close() }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

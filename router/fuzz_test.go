package router_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// FuzzPostBody drives arbitrary bodies through the whole request path (trace, gates,
// parsing, routing, the fake worker) on a live session and without one. Whatever the body,
// the answer is never a 5xx, a non-empty answer is JSON, and nothing panics.
func FuzzPostBody(f *testing.F) {
	seeds := []string{
		initBody,
		initWith("2025-03-26"),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}}`,
		call(3, "echo", `{"text":"hello"}`),
		call("s4", "unicode", `{"text":"𝄞😀"}`),
		call(5, "fail", `{"kind":"boom","message":"m"}`),
		call(6, "big", `{"n":100}`),
		call(7, "sleep", `{"ms":1}`),
		`{"jsonrpc":"2.0","id":8,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":"srv-1","result":{}}`,
		`{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"no"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}`,
		`[]`, `{}`, `null`, `"x"`, "\xff\xfe", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":7}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	l := workertest.New()
	srv := router.New(router.Options{
		Launcher: l, Prepare: worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "fz", RequestTimeout: 500 * time.Millisecond,
		Trace: true, TraceLimit: 64, MaxBody: 64 << 10, Log: zerolog.New(io.Discard),
	})
	h := srv.Handler()
	send := func(body []byte, sid string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	var sid string
	openSession := func(t *testing.T) {
		rec := send([]byte(initBody), "")
		sid = rec.Header().Get("Mcp-Session-Id")
		if sid == "" {
			t.Fatalf("cannot open a session: %d %s", rec.Code, rec.Body)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, onSession bool) {
		if sid == "" || (onSession && len(srv.Sessions().All()) == 0) {
			openSession(t)
		}
		use := ""
		if onSession {
			use = sid
		}
		rec := send(body, use)
		if rec.Code >= 500 {
			t.Fatalf("status %d for body %q: %s", rec.Code, body, rec.Body)
		}
		if out := rec.Body.Bytes(); len(out) > 0 && !json.Valid(out) {
			t.Fatalf("answer to %q is not JSON: %q", body, out)
		}
		if rec.Code == http.StatusNotFound && onSession {
			sid = "" // the fuzzer killed or ended the session (die, a stop): open another
		}
		if len(srv.Sessions().All()) > 20 {
			for _, s := range srv.Sessions().All() {
				if s.ID() != sid {
					s.End(t.Context(), sessionReasonFuzz)
				}
			}
		}
	})
}

var sessionReasonFuzz = sessionReason("fuzzCleanup")

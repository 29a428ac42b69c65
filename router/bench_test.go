package router_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

// BenchmarkEchoThroughTheHandler is the front end's own cost per tools/call (gates, parse,
// queue, fake worker) with no network, one session per parallel goroutine; the baseline is a
// handler that writes fixed JSON through the same httptest recorder.
func BenchmarkEchoThroughTheHandler(b *testing.B) {
	srv := router.New(router.Options{
		Launcher: workertest.New(), Prepare: worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "b", Log: zerolog.New(io.Discard),
	})
	h := srv.Handler()
	post := func(sid string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		sid := post("", []byte(initBody)).Header().Get("Mcp-Session-Id")
		i := 0
		for pb.Next() {
			i++
			rec := post(sid, []byte(`{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`))
			if rec.Code != http.StatusOK {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

func BenchmarkBaselineFixedJSONHandler(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"hi","type":"text"}]}}`))
	})
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
		}
	})
}

// BenchmarkStatelessEchoThroughTheHandler is BenchmarkEchoThroughTheHandler on the 2026-07-28
// wire: each tools/call stands alone (its _meta checked, a pool gem taken, its view checked, the
// result stamped), with a pool as large as the parallelism, so the two compare per call.
func BenchmarkStatelessEchoThroughTheHandler(b *testing.B) {
	srv := router.New(router.Options{
		Launcher: workertest.New(), Prepare: worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "b", Log: zerolog.New(io.Discard),
		StatelessPool: runtime.GOMAXPROCS(0),
	})
	h := srv.Handler()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader([]byte(
				`{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},`+
					`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)))
			req.Header.Set("Mcp-Protocol-Version", router.StatelessVersion)
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "echo")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("%d %s", rec.Code, rec.Body)
			}
		}
	})
}

// BenchmarkHandleEchoThroughTheHandler is BenchmarkStatelessEchoThroughTheHandler in GemStone
// sessions opened with open_session: each parallel goroutine opens one and every call carries
// its session argument, so the cost of routing by the argument shows against the pool's.
func BenchmarkHandleEchoThroughTheHandler(b *testing.B) {
	srv := router.New(router.Options{
		Launcher: workertest.New(), Prepare: worker.PrepareConfig{WorkerClass: "McpFixtureServer"},
		RouterID: "b", Log: zerolog.New(io.Discard),
	})
	h := srv.Handler()
	call := func(id int, name, args string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader([]byte(
			`{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`,`+
				`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)))
		req.Header.Set("Mcp-Protocol-Version", router.StatelessVersion)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return rec
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var opened struct {
			Result struct {
				StructuredContent struct{ Session string } `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(call(0, "open_session", `{}`).Body.Bytes(), &opened); err != nil || opened.Result.StructuredContent.Session == "" {
			b.Fatalf("open_session: %v", err)
		}
		args := `{"session":"` + opened.Result.StructuredContent.Session + `","text":"hi"}`
		i := 0
		for pb.Next() {
			i++
			call(i, "echo", args)
		}
	})
}

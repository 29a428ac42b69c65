package fixtureworker

import (
	"context"
	"testing"
)

// BenchmarkEcho is the worker's own cost per echo tools/call (the stand-in gem's JSON work in
// benchmarks 1, 4 and 6 of docs/performance.md), on each wire: a 2025-11-25 session's request,
// and a 2026-07-28 request carrying its _meta and a session argument.
func BenchmarkEcho(b *testing.B) {
	w, err := New([]byte(`{"contract":1,"workerClass":"McpFixtureServer","protocolVersions":["2026-07-28","2025-11-25"],"cacheName":"b","resultCap":100000}`))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, msg string }{
		{"session", `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"echo","arguments":{"text":"w3-c17 héllo wörld ✓ 😀"}}}`},
		{"handle", `{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"echo","arguments":{"session":"h-0123456789abcdef0123456789abcdef","text":"w3-c17 héllo wörld ✓ 😀"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			msg := []byte(c.msg)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.Handle(context.Background(), msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

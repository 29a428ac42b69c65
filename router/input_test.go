package router_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/worker/workertest"
)

func TestMalformedJSONIs400WithParseError(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	for _, c := range []struct{ name, sid, body string }{
		{"cut short", sid, `{"jsonrpc":"2.0","id":1,`},
		{"not JSON", sid, `not json`},
		{"empty", sid, ``},
		{"trailing text", sid, `{"jsonrpc":"2.0","id":1,"method":"x"} trailing`},
		{"cut short with no session", "", `{"jsonrpc":"2.0",`},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, f.in(t).post(c.sid, c.body), http.StatusBadRequest, -32700, "")
		})
	}
}

func TestInvalidJSONRPCIs400WithInvalidRequest(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	for _, c := range []struct{ name, body string }{
		{"empty batch", `[]`},
		{"a number", `42`},
		{"no jsonrpc member", `{"id":1,"method":"ping"}`},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`},
		{"no method, result or error", `{"jsonrpc":"2.0","id":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, f.in(t).post(sid, c.body), http.StatusBadRequest, -32600, "")
		})
	}
}

func TestInvalidUTF8(t *testing.T) {
	f := newFixture(t)
	sid := f.open()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ab` + "\xff" + `"}}}`
	off := strings.IndexByte(body, 0xff)
	r := f.post(sid, body)
	t.Run("is a parse error naming the byte offset", func(t *testing.T) {
		if !wantError(t, r, http.StatusBadRequest, -32700, "") {
			return
		}
		if got, _ := r.RPC.Error.Data["offset"].(float64); int(got) != off {
			t.Errorf("data.offset %v, want %d", r.RPC.Error.Data["offset"], off)
		}
		if !strings.Contains(r.RPC.Error.Message, "offset") {
			t.Errorf("message %q should name the offset", r.RPC.Error.Message)
		}
	})
	t.Run("never reaches the worker", func(t *testing.T) {
		g, _ := f.l.Gem(1)
		if n := g.Calls(); n != 1 { // initialize only
			t.Fatalf("the worker saw %d calls; the bad body must not reach it", n)
		}
	})
}

func TestBodyOverTheLimitIs413(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *router.Options, _ *workertest.Launcher) { o.MaxBody = 1024 })
	sid := f.open()
	big := call(1, "echo", `{"text":"`+strings.Repeat("x", 2000)+`"}`)
	wantStatus(t, f.post(sid, big), http.StatusRequestEntityTooLarge)
	// Without a Content-Length (chunked) the limit holds while reading.
	req, _ := http.NewRequest(http.MethodPost, f.ts.URL+"/mcp", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked oversize body: %d, want 413", resp.StatusCode)
	}
	wantStatus(t, f.post(sid, call(2, "echo", `{"text":"small"}`)), http.StatusOK)
}

// listen serves the router through its own http.Server settings (header timeout and size).
func listen(t *testing.T, o func(*router.Options)) (*router.Server, string) {
	t.Helper()
	f := newFixture(t, func(opts *router.Options, _ *workertest.Launcher) {
		if o != nil {
			o(opts)
		}
	})
	hs := f.srv.HTTPServer("")
	ts := httptest.NewUnstartedServer(hs.Handler)
	ts.Config = hs
	ts.Start()
	t.Cleanup(ts.Close)
	return f.srv, ts.Listener.Addr().String()
}

func TestAClientThatNeverFinishesItsBodyIsDropped(t *testing.T) {
	t.Parallel()
	_, addr := listen(t, func(o *router.Options) { o.ReadTimeout = 300 * time.Millisecond })
	sent := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":"
	if d := mcptest.HeldFor(t, addr, sent, 5*time.Second); d > 3*time.Second {
		t.Fatalf("a stalled body held its connection for %v", d)
	}
}

func TestAClientThatNeverFinishesItsHeadersIsDropped(t *testing.T) {
	t.Parallel()
	_, addr := listen(t, func(o *router.Options) { o.ReadTimeout = 300 * time.Millisecond })
	if d := mcptest.HeldFor(t, addr, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n", 5*time.Second); d > 3*time.Second {
		t.Fatalf("stalled headers held their connection for %v", d)
	}
}

func TestASilentConnectionIsDropped(t *testing.T) {
	t.Parallel()
	_, addr := listen(t, func(o *router.Options) { o.ReadTimeout = 300 * time.Millisecond })
	if d := mcptest.HeldFor(t, addr, "", 5*time.Second); d > 3*time.Second {
		t.Fatalf("a silent connection was held %v", d)
	}
}

func TestOversizedHeadersAreRefusedWith431(t *testing.T) {
	t.Parallel()
	_, addr := listen(t, nil)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "+strings.Repeat("a", router.MaxHeaderBytes+8192)+"\r\n\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to oversized headers: %v", err)
	}
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("oversized headers: %d, want 431", resp.StatusCode)
	}
}

func TestALongCallOutlivesTheBodyReadTimeout(t *testing.T) {
	t.Parallel()
	srv, addr := listen(t, func(o *router.Options) { o.ReadTimeout = 200 * time.Millisecond })
	_ = srv
	c := &mcptest.Client{URL: "http://" + addr + "/mcp"}
	sid := c.Send(t, http.MethodPost, "", initBody).Header.Get("Mcp-Session-Id")
	a := c.Send(t, http.MethodPost, sid, call(2, "sleep", `{"ms":700}`))
	if a.Status != http.StatusOK || !strings.Contains(string(a.Body), `"result"`) {
		t.Fatalf("a call longer than the read timeout was cut: %d %s", a.Status, a.Body)
	}
}

package router_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
)

func TestMirroredArgumentHeadersReachTheWorkerWhichHoldsThemToTheArguments(t *testing.T) {
	f := newFixture(t)
	call := statelessBody(1, "tools/call", `"name":"test_custom_header","arguments":{"region":"Hello"}`)
	for _, c := range []struct {
		header string
		status int
	}{
		{"Hello", http.StatusOK},
		{"=?base64?SGVsbG8=?=", http.StatusOK},
		{"=?base64?SGVsbG8?=", http.StatusBadRequest},     // bad padding
		{"=?base64?SGVs!!!bG8=?=", http.StatusBadRequest}, // not the alphabet
		{"Bye", http.StatusBadRequest},
	} {
		t.Run(c.header, func(t *testing.T) {
			r := f.in(t).stateless(call, "Mcp-Param-Region", c.header)
			if r.Status != c.status || (c.status == http.StatusBadRequest && (r.RPC.Error == nil || r.RPC.Error.Code != -32020)) {
				t.Errorf("%d %s, want %d (and -32020 when refused)", r.Status, r.Body, c.status)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		wantError(t, f.in(t).stateless(call), http.StatusBadRequest, -32020, "")
	})
}

// Mcp-Name carries a name that needs encoding in the revision's =?base64?...?= form; a raw value
// that is not printable ASCII, a malformed encoding, and an empty header standing for a missing
// name are refused.
func TestMcpNameIsHeldToTheBody(t *testing.T) {
	f := newFixture(t)
	b64 := func(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }
	echo := statelessBody(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`)
	unicode := statelessBody(2, "tools/call", `"name":"échö","arguments":{}`)
	t.Run("a name in its Base64 form is decoded", func(t *testing.T) {
		r := f.in(t).stateless(echo, "Mcp-Name", b64("echo"))
		wantStatus(t, r, http.StatusOK)
		if !strings.Contains(string(r.RPC.Result), `"hi"`) {
			t.Fatalf("echo named in Base64: %s", r.Body)
		}
	})
	t.Run("a non-ASCII name in its Base64 form matches", func(t *testing.T) {
		r := f.in(t).stateless(unicode, "Mcp-Name", b64("échö"))
		if r.RPC.Error != nil && r.RPC.Error.Code == -32020 {
			t.Fatalf("a non-ASCII name in its Base64 form was refused as a header mismatch: %s", r.Body)
		}
	})
	for _, c := range []struct {
		name, body, header string
		status, code       int
		kind               string
	}{
		{"a raw non-ASCII value is a mismatch", unicode, "échö", http.StatusBadRequest, -32020, errkind.HeaderMismatch},
		{"a malformed encoding is a mismatch", echo, "=?base64?ZWNob?=x?=", http.StatusBadRequest, -32020, errkind.HeaderMismatch},
		{"an encoding of invalid UTF-8 is a mismatch", echo, b64("ech\xff"), http.StatusBadRequest, -32020, errkind.HeaderMismatch},
		{"an empty header for a missing name is invalid params", statelessBody(3, "tools/call", `"arguments":{}`), "", http.StatusBadRequest, -32602, errkind.InvalidParams},
		{"a name that is a number is invalid params", statelessBody(4, "tools/call", `"name":7,"arguments":{}`), "7", http.StatusBadRequest, -32602, errkind.InvalidParams},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, f.in(t).stateless(c.body, "Mcp-Name", c.header), c.status, c.code, c.kind)
		})
	}
}

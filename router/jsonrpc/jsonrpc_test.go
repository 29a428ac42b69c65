package jsonrpc

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func parseErr(t *testing.T, body string) *Error {
	t.Helper()
	_, _, err := Parse([]byte(body))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Parse(%q) = %v, want a JSON-RPC error", body, err)
	}
	return e
}

func TestParseClassifiesRequestsNotificationsAndResponses(t *testing.T) {
	cases := map[string]Kind{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:              Request,
		`{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}`:      Request,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:      Notification,
		`{"jsonrpc":"2.0","id":"srv-1","result":{}}`:                  Response,
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":""}}`: Response,
	}
	for body, want := range cases {
		msgs, batch, err := Parse([]byte(body))
		if err != nil || batch || len(msgs) != 1 || msgs[0].Kind != want {
			t.Errorf("Parse(%s) = %v %v %v, want one %v", body, msgs, batch, err, want)
			continue
		}
		if string(msgs[0].Raw) != body {
			t.Errorf("Raw %q is not the body", msgs[0].Raw)
		}
	}
}

func TestParseRefusesWhatIsNotJSONRPCWithInvalidRequest(t *testing.T) {
	for _, body := range []string{`[]`, `1`, `"x"`, `{}`, `{"jsonrpc":"1.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":true,"method":"x"}`, `{"jsonrpc":"2.0","id":null,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`, `{"jsonrpc":"2.0","id":1,"result":1,"error":{}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},3]`} {
		if e := parseErr(t, body); e.Code != CodeInvalidRequest {
			t.Errorf("%s: code %d, want -32600", body, e.Code)
		}
	}
}

func TestParseErrorsNameTheOffset(t *testing.T) {
	e := parseErr(t, `{"jsonrpc":"2.0","id":1,}`)
	if e.Code != CodeParseError || !strings.Contains(e.Message, "offset") {
		t.Fatalf("syntax error: %+v", e)
	}
	body := "{\"a\":\"\xe2\x82\"}"
	e = parseErr(t, body)
	if e.Code != CodeParseError || e.Data.(map[string]any)["offset"] != 6 {
		t.Fatalf("bad UTF-8: %+v, want offset 6", e)
	}
	if e := parseErr(t, "  "); e.Code != CodeParseError {
		t.Fatalf("empty body: %+v", e)
	}
}

func TestInvalidUTF8OffsetFindsTheFirstBadByte(t *testing.T) {
	for s, want := range map[string]int{"ok é 𝄞": -1, "\xff": 0, "ab\xc3(": 2, "é\xed\xa0\x80": 2, "a\xf0\x9f\x98": 1} {
		if got := InvalidUTF8Offset([]byte(s)); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

func TestBatchKeepsMembersInOrder(t *testing.T) {
	msgs, batch, err := Parse([]byte(`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":3,"method":"c"}]`))
	if err != nil || !batch || len(msgs) != 3 || msgs[0].Method != "a" || msgs[1].Kind != Notification || msgs[2].IDKey() != "n:3" {
		t.Fatalf("batch: %+v %v %v", msgs, batch, err)
	}
}

func TestIDKeysMatchNumbersByValueAndNeverStringsToNumbers(t *testing.T) {
	if IDKey(json.RawMessage(`7`)) != IDKey(json.RawMessage(`7.0`)) {
		t.Error("7 and 7.0 should match")
	}
	if IDKey(json.RawMessage(`"7"`)) == IDKey(json.RawMessage(`7`)) {
		t.Error(`"7" and 7 must not match`)
	}
	if IDKey(json.RawMessage(`"a\u00e9"`)) != IDKey(json.RawMessage(`"aé"`)) {
		t.Error("escaped and literal strings should match")
	}
}

func TestCancelledRequestIDAndProtocolVersionReaders(t *testing.T) {
	id, ok := CancelledRequestID(json.RawMessage(`{"requestId":"x","reason":"r"}`))
	if !ok || string(id) != `"x"` {
		t.Fatalf("requestId %s %v", id, ok)
	}
	if _, ok := CancelledRequestID(json.RawMessage(`{"reason":"r"}`)); ok {
		t.Fatal("no requestId accepted")
	}
	if v := ProtocolVersionOf("result", []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}`)); v != "2025-06-18" {
		t.Fatalf("protocolVersion %q", v)
	}
}

func TestErrorResponseUsesNullIDWhenUnknown(t *testing.T) {
	got := string(ErrorResponse(nil, &Error{Code: -32700, Message: "m", Data: map[string]any{"kind": "k"}}))
	if got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m","data":{"kind":"k"}}}` {
		t.Fatalf("%s", got)
	}
}

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

func TestParseClassifiesEachMessage(t *testing.T) {
	cases := map[string]Kind{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:              Request,
		`{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}`:      Request,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:      Notification,
		`{"jsonrpc":"2.0","id":"srv-1","result":{}}`:                  Response,
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":""}}`: Response,
	}
	for body, want := range cases {
		t.Run(body, func(t *testing.T) {
			msgs, batch, err := Parse([]byte(body))
			if err != nil || batch || len(msgs) != 1 || msgs[0].Kind != want {
				t.Fatalf("Parse(%s) = %v %v %v, want one %v", body, msgs, batch, err, want)
			}
			if string(msgs[0].Raw) != body {
				t.Errorf("Raw %q is not the body", msgs[0].Raw)
			}
		})
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
	if err != nil || !batch || len(msgs) != 3 || msgs[0].Method != "a" || msgs[1].Kind != Notification || msgs[2].IDKey() != "3" {
		t.Fatalf("batch: %+v %v %v", msgs, batch, err)
	}
}

func TestIDKeysAreTheExactJSONText(t *testing.T) {
	// Each pair collided when ids were decoded first: lone surrogates both became U+FFFD,
	// 2^53+1 rounded to 2^53, and 1e400 had no key at all.
	for _, p := range [][2]string{{`"\ud800"`, `"\udc00"`}, {`9007199254740993`, `9007199254740992`},
		{`7`, `7.0`}, {`"7"`, `7`}, {`1e400`, `1e401`}} {
		a, b := IDKey(json.RawMessage(p[0])), IDKey(json.RawMessage(p[1]))
		if a == b || a == "" || b == "" {
			t.Errorf("ids %s and %s have keys %q and %q: want two different non-empty keys", p[0], p[1], a, b)
		}
	}
}

func TestAResponseEchoingItsRequestsIDHasTheRequestsKey(t *testing.T) {
	// The key is the id's own text: the whitespace and member order around it do not count.
	req, _, err := Parse([]byte(`{"jsonrpc":"2.0", "id" :  "x\u0041" ,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, _, err := Parse([]byte(`{"result":{},"id":"x\u0041","jsonrpc":"2.0"}`))
	if err != nil {
		t.Fatal(err)
	}
	if req[0].Kind != Request || resp[0].Kind != Response {
		t.Fatalf("parsed kinds %v and %v, want a request and a response", req[0].Kind, resp[0].Kind)
	}
	if a, b := req[0].IDKey(), resp[0].IDKey(); a != b || a == "" {
		t.Errorf("the request's key %q and its response's key %q: want the same non-empty key", a, b)
	}
}

func TestParseRefusesMembersNotSpelledExactlyOrGivenTwice(t *testing.T) {
	for body, want := range map[string]string{
		`{"JSONRPC":"2.0","id":1,"METHOD":"ping"}`:                       "case-sensitive",
		`{"jsonrpc":"2.0","ID":1,"method":"tools/call"}`:                 "case-sensitive",
		`{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call"}`: "case-sensitive",
		`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call"}`: "given twice",
		`{"jsonrpc":"2.0","id":1,"method":"ping","\u006dethod":"x"}`:     "given twice",
		`{"jsonrpc":"2.0","id":1,"method":"x","extra":1,"extra":2}`:      "given twice",
	} {
		t.Run(body, func(t *testing.T) {
			e := parseErr(t, body)
			if e.Code != CodeInvalidRequest || !strings.Contains(e.Message, want) {
				t.Errorf("%s: %+v, want -32600 saying %q", body, e, want)
			}
		})
	}
}

func TestParseReadsEscapedMemberNamesAsTheMembersTheySpell(t *testing.T) {
	msgs, _, err := Parse([]byte(`{"jsonrpc":"2.0","\u0069d":1,"method":"\u0070ing"}`))
	if err != nil || msgs[0].Kind != Request || msgs[0].Method != "ping" || string(msgs[0].ID) != "1" {
		t.Fatalf("escaped member names are the members they spell: %+v %v", msgs, err)
	}
}

func TestParseRefusesAnIDLongerThanTheBound(t *testing.T) {
	long := `"` + strings.Repeat("a", MaxIDBytes) + `"`
	if e := parseErr(t, `{"jsonrpc":"2.0","id":`+long+`,"method":"ping"}`); e.Code != CodeInvalidRequest || !strings.Contains(e.Message, "ids of up to") {
		t.Fatalf("long id: %+v", e)
	}
	ok := `"` + strings.Repeat("a", MaxIDBytes-2) + `"`
	if _, _, err := Parse([]byte(`{"jsonrpc":"2.0","id":` + ok + `,"method":"ping"}`)); err != nil {
		t.Fatalf("an id of exactly the bound: %v", err)
	}
}

func TestMembersAreExact(t *testing.T) {
	if _, err := Members([]byte(`{"sub":"carol","sub":"alice"}`)); !errors.Is(err, ErrDuplicateMember) {
		t.Fatalf("duplicate: %v", err)
	}
	m, err := Members([]byte(` {"sub":"carol","SUB":"alice"} `))
	if err != nil || string(m["sub"]) != `"carol"` || string(m["SUB"]) != `"alice"` {
		t.Fatalf("case-distinct names are distinct members: %v %v", m, err)
	}
	if _, err := Members([]byte(`[1]`)); err == nil {
		t.Fatal("an array is not an object")
	}
}

func TestCancelledRequestIDReadsRequestIdExactly(t *testing.T) {
	for _, c := range []struct {
		name, params, want string // want "" means no request is named
	}{
		{"beside a reason", `{"requestId":"x","reason":"r"}`, `"x"`},
		{"absent", `{"reason":"r"}`, ""},
		{"beside a differently cased member", `{"requestId":1,"REQUESTID":2}`, `1`},
		{"given twice", `{"requestId":1,"requestId":2}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, ok := CancelledRequestID(json.RawMessage(c.params))
			if ok != (c.want != "") || string(id) != c.want {
				t.Errorf("CancelledRequestID(%s) = %s, %v; want %q", c.params, id, ok, c.want)
			}
		})
	}
}

func TestProtocolVersionOfReadsTheResultsVersion(t *testing.T) {
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

// TestTheReadersOfValidJSONReadAsMembersReads: MembersOfValid, MemberOfValid and StringOf skip
// the validation, never the exactness (duplicates refused, names compared after their escapes).
func TestTheReadersOfValidJSONReadAsMembersReads(t *testing.T) {
	objects := []string{
		`{"session":"h-1","text":"hi"}`,
		` {"text":"hi"} `,
		`{"se\u0073sion":"h-2"}`,
		`{"session":"a","session":"b"}`,
		`{"Session":"a","text":1}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
		`{}`, `[1]`, `"session"`,
	}
	for _, raw := range objects {
		t.Run(raw, func(t *testing.T) {
			want, wantErr := Members([]byte(raw))
			got, err := MembersOfValid([]byte(raw))
			if (err != nil) != (wantErr != nil) || len(got) != len(want) {
				t.Fatalf("MembersOfValid %v %v, Members %v %v", got, err, want, wantErr)
			}
			for k, v := range want {
				if string(got[k]) != string(v) {
					t.Errorf("member %q: %s, Members %s", k, got[k], v)
				}
			}
			v, found, err := MemberOfValid([]byte(raw), "session")
			wantV, wantFound := want["session"]
			if (err != nil) != (wantErr != nil) || found != wantFound || string(v) != string(wantV) {
				t.Errorf("MemberOfValid %s %v %v, Members %s %v %v", v, found, err, wantV, wantFound, wantErr)
			}
		})
	}
	strs := []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"plain"`, "plain", true},
		{`"h\u00e9\"q"`, "hé\"q", true},
		{`"héllo ✓"`, "héllo ✓", true},
		{`""`, "", true},
		{`7`, "", false},
		{`null`, "", false},
		{``, "", false},
		{`{"a":"b"}`, "", false},
	}
	for _, c := range strs {
		t.Run("StringOf "+c.raw, func(t *testing.T) {
			if got, ok := StringOf([]byte(c.raw)); got != c.want || ok != c.ok {
				t.Errorf("StringOf(%s) = %q %v, want %q %v", c.raw, got, ok, c.want, c.ok)
			}
		})
	}
}

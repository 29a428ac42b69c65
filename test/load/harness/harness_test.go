package harness

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// echoServer answers initialize, notifications and tools/call echo like an MCP server would;
// corrupt, when set, may change the answer before it is sent.
func echoServer(t *testing.T, sse bool, corrupt func(n int64, id json.RawMessage, text string) (json.RawMessage, string)) *httptest.Server {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Arguments struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		id, text := m.ID, m.Params.Arguments.Text
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "s1")
		} else if corrupt != nil {
			id, text = corrupt(n.Add(1), id, text)
		}
		result, _ := json.Marshal(map[string]any{"content": []any{map[string]string{"type": "text", "text": text}}})
		msg := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + string(result) + `}`
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, ": comment\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":{\"result\":1,\"id\":2}}}\n\n")
			_, _ = io.WriteString(w, "event: message\ndata: "+msg+"\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, msg)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func run(t *testing.T, url string) LoadResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := RunLoad(ctx, LoadOptions{URL: url + "/mcp", Sessions: 2, Workers: 4, Calls: 50})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunLoadCountsEveryCorrectAnswerOnce(t *testing.T) {
	for name, sse := range map[string]bool{"as JSON": false, "as SSE": true} {
		t.Run(name, func(t *testing.T) {
			res := run(t, echoServer(t, sse, nil).URL)
			if res.Sent != 200 || res.OK != 200 || res.Failed != 0 || res.Mismatched != 0 || res.Duplicated != 0 {
				t.Errorf("sse=%v: a correct server gave %v (%s)", sse, res, res.FirstProblem)
			}
		})
	}
}

func TestRunLoadCatchesAnAnswerWithAnotherCallsID(t *testing.T) {
	srv := echoServer(t, false, func(n int64, id json.RawMessage, text string) (json.RawMessage, string) {
		if n%10 == 0 {
			return json.RawMessage("424242"), text
		}
		return id, text
	})
	res := run(t, srv.URL)
	if res.Mismatched != 20 || res.OK != 180 || !strings.Contains(res.FirstProblem, "424242") {
		t.Errorf("20 answers carried a foreign id; the run saw %v (%s)", res, res.FirstProblem)
	}
}

func TestRunLoadCatchesAChangedByte(t *testing.T) {
	srv := echoServer(t, true, func(n int64, id json.RawMessage, text string) (json.RawMessage, string) {
		if n == 7 {
			return id, strings.Replace(text, "😀", "?", 1)
		}
		return id, text
	})
	res := run(t, srv.URL)
	if res.Mismatched != 1 || res.OK != 199 {
		t.Errorf("one answer lost a character; the run saw %v (%s)", res, res.FirstProblem)
	}
}

func TestRunLoadCountsAFailedCallAsFailedNotLost(t *testing.T) {
	var n atomic.Int64
	inner := echoServer(t, false, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != "" && n.Add(1) == 5 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, inner.URL, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	defer srv.Close()
	res := run(t, srv.URL)
	if res.Sent != 200 || res.Failed != 1 || res.OK != 199 {
		t.Errorf("one call answered 500: the run saw %v (%s)", res, res.FirstProblem)
	}
}

// NewerWireBytes exists to weigh the 2026-07-28 request's size apart from its routing, so its
// session call must be exactly as large as the stateless call it stands in for (the session
// argument aside), and must not name the newer revision.
func TestASessionCallWithTheNewerWiresBytesIsAsLargeAsAStatelessCall(t *testing.T) {
	args := EchoArgs("w1-c2" + DefaultPayload)
	sized, stateless := sessionCallBodyWithMeta(3, "echo", args), StatelessCallBody(3, "echo", args)
	if len(sized) != len(stateless) {
		t.Errorf("sized session call is %d bytes, the stateless call %d:\n%s\n%s", len(sized), len(stateless), sized, stateless)
	}
	if strings.Contains(string(sized), StatelessVersion) || !json.Valid(sized) {
		t.Errorf("sized session call is not valid JSON naming only %s: %s", ProtocolVersion, sized)
	}
}

// The load generator lays its calls out once per worker (echoBodies); what it sends must stay
// byte for byte what CallBody, StatelessCallBody and sessionCallBodyWithMeta write, on every
// wire, whatever the payload holds (HTML characters and quotes are escaped as EchoArgs does).
func TestALoadWorkersCallsAreTheBodiesTheHarnessWrites(t *testing.T) {
	for _, payload := range []string{DefaultPayload, ` <a href="x">&amp;</a> \ ` + "\u2028\t"} {
		for _, tc := range []struct {
			name string
			o    LoadOptions
			sid  string
			want func(id int64, text string) []byte
		}{
			{"session", LoadOptions{}, "sid-1", func(id int64, text string) []byte { return CallBody(id, "echo", EchoArgs(text)) }},
			{"sized session", LoadOptions{NewerWireBytes: true}, "sid-1", func(id int64, text string) []byte {
				return sessionCallBodyWithMeta(id, "echo", EchoArgs(text))
			}},
			{"stateless", LoadOptions{Stateless: true}, "", func(id int64, text string) []byte { return StatelessCallBody(id, "echo", EchoArgs(text)) }},
			{"handle", LoadOptions{Stateless: true, Handles: true}, "h-0123", func(id int64, text string) []byte {
				return StatelessCallBody(id, "echo", `{"session":"h-0123",`+EchoArgs(text)[1:])
			}},
		} {
			tc.o.Payload = payload
			bodies, headers := workerBodies(7, tc.sid, tc.o)
			for _, n := range []int{0, 9, 12345} {
				id := int64(7)*10_000_000 + int64(n) + 1
				body, text := bodies.call(id, n)
				if wantText := "w7-c" + strconv.Itoa(n) + payload; text != wantText {
					t.Errorf("%s call %d: text %q, want %q", tc.name, n, text, wantText)
				}
				if want := tc.want(id, text); string(body) != string(want) {
					t.Errorf("%s call %d:\n got %s\nwant %s", tc.name, n, body, want)
				}
			}
			if tc.o.Stateless == (headers.sid != "") {
				t.Errorf("%s: calls carry MCP session id %q", tc.name, headers.sid)
			}
		}
	}
}

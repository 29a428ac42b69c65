package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Client speaks MCP's Streamable HTTP to one endpoint, just enough for tests: POST a JSON-RPC
// body, open a GET stream, DELETE a session. It reads an answer whether it comes as
// application/json or as an SSE response stream.
type Client struct {
	URL string
	// HTTP sends the requests; nil is http.DefaultClient.
	HTTP *http.Client
	// Protocol is the Mcp-Protocol-Version sent beside a session id; "" sends none, so the
	// server falls back to the session's negotiated revision.
	Protocol string
	// Header is sent with every request (an Authorization, say); a call's own headers win.
	Header http.Header
	// Host, if set, is every request's Host header (proxies, DNS-rebinding tests).
	Host string
}

// Revision is the protocol revision Open negotiates when the client names none.
const Revision = "2025-11-25"

// Answer is one HTTP answer. Message is the JSON-RPC message it carried: the body of an
// application/json answer that starts with '{', or the first event of an SSE answer that holds
// a response. RPC is Message decoded, zero when there is none or it is not JSON-RPC (an OAuth
// refusal's JSON, say): Decode tells the two apart.
type Answer struct {
	Status  int
	Header  http.Header
	Body    []byte
	Message []byte
	RPC     RPC
	Took    time.Duration
}

// Decode answers the JSON-RPC response the answer carried, or why there is none.
func (a Answer) Decode() (RPC, error) {
	var r RPC
	if len(a.Message) == 0 {
		return r, fmt.Errorf("no JSON-RPC message in a %d answer: %q", a.Status, a.Body)
	}
	err := json.Unmarshal(a.Message, &r)
	return r, err
}

func (c *Client) http() *http.Client {
	if c.HTTP == nil {
		return http.DefaultClient
	}
	return c.HTTP
}

// Request is the request Do would send (a load generator sends it with its own reading of the
// answer).
func (c *Client) Request(ctx context.Context, method, sid string, body []byte, headers ...string) (*http.Request, error) {
	return c.request(ctx, method, sid, body, headers...)
}

// request builds a request with the MCP headers: Content-Type on a POST or a body, Accept for
// either answer form, the session id with c.Protocol, then c.Header and headers (name, value
// pairs; "Host" sets the request's host).
func (c *Client) request(ctx context.Context, method, sid string, body []byte, headers ...string) (*http.Request, error) {
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL, rdr)
	if err != nil {
		return nil, err
	}
	if body != nil || method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		if c.Protocol != "" {
			req.Header.Set("Mcp-Protocol-Version", c.Protocol)
		}
	}
	if c.Host != "" {
		req.Host = c.Host
	}
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Host") {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	return req, nil
}

// Do sends one request; sid may be empty; headers are name, value pairs. The error is the
// request's, the read's, or an event stream's that ended unanswered (the answer then holds
// what it carried): an answer that is not JSON-RPC is still an answer.
func (c *Client) Do(ctx context.Context, method, sid string, body []byte, headers ...string) (Answer, error) {
	req, err := c.request(ctx, method, sid, body, headers...)
	if err != nil {
		return Answer{}, err
	}
	start := time.Now()
	resp, err := c.http().Do(req)
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: %w", method, c.URL, err)
	}
	defer resp.Body.Close()
	a := Answer{Status: resp.StatusCode, Header: resp.Header}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		a.Body, a.Message, err = readEventResponse(resp.Body)
	} else {
		a.Body, err = io.ReadAll(resp.Body)
		if len(a.Body) > 0 && a.Body[0] == '{' {
			a.Message = a.Body
		}
	}
	a.Took = time.Since(start)
	if len(a.Message) > 0 {
		_ = json.Unmarshal(a.Message, &a.RPC)
	}
	return a, err
}

// Post sends a JSON-RPC body.
func (c *Client) Post(ctx context.Context, sid string, body []byte, headers ...string) (Answer, error) {
	return c.Do(ctx, http.MethodPost, sid, body, headers...)
}

// Delete ends a session and answers the status.
func (c *Client) Delete(ctx context.Context, sid string) (int, error) {
	a, err := c.Do(ctx, http.MethodDelete, sid, nil)
	return a.Status, err
}

// Open initializes a session on c.Protocol (Revision when it is ""), sends
// notifications/initialized, and answers the session id.
func (c *Client) Open(ctx context.Context) (string, error) {
	version := c.Protocol
	if version == "" {
		version = Revision
	}
	a, err := c.Post(ctx, "", []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+
		version+`","capabilities":{},"clientInfo":{"name":"mcptest","version":"1"}}}`))
	if err != nil {
		return "", fmt.Errorf("initialize: %w", err)
	}
	sid := a.Header.Get("Mcp-Session-Id")
	if a.Status != http.StatusOK || sid == "" {
		return "", fmt.Errorf("initialize: status %d, session %q: %s", a.Status, sid, a.Body)
	}
	if r, err := a.Decode(); err != nil || r.Error != nil {
		return "", fmt.Errorf("initialize answered %s (%v)", a.Message, err)
	}
	n, err := c.Post(ctx, sid, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		return "", fmt.Errorf("notifications/initialized: %w", err)
	}
	if n.Status != http.StatusAccepted {
		return "", fmt.Errorf("notifications/initialized: status %d: %s", n.Status, n.Body)
	}
	return sid, nil
}

// StatelessRevision is the protocol revision whose requests stand alone, their context in
// params._meta.
const StatelessRevision = "2026-07-28"

// Stateless posts one StatelessRevision request (no session) with id: params (JSON members, or
// "") and the revision's _meta (its version, the client capabilities caps, then extraMeta
// members, or ""), with the headers the revision requires: Mcp-Method, and Mcp-Name naming
// the params' name, taskId or uri. headers come last (an Accept, an Authorization).
func (c *Client) Stateless(id int, method, params, caps, extraMeta string, headers ...string) (Answer, error) {
	meta := `"io.modelcontextprotocol/protocolVersion":"` + StatelessRevision + `","io.modelcontextprotocol/clientCapabilities":` + caps
	if extraMeta != "" {
		meta += "," + extraMeta
	}
	sep := ""
	if params != "" {
		sep = ","
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s"_meta":{%s}}}`, id, method, params, sep, meta)
	routing := []string{"Mcp-Protocol-Version", StatelessRevision, "Mcp-Method", method}
	var p map[string]any
	_ = json.Unmarshal([]byte("{"+params+"}"), &p)
	for _, k := range []string{"name", "taskId", "uri"} {
		if v, ok := p[k].(string); ok {
			routing = append(routing, "Mcp-Name", v)
		}
	}
	return c.Do(context.Background(), http.MethodPost, "", []byte(body), append(routing, headers...)...)
}

// DoRPC is Do that also refuses an answer that looks like JSON and is not JSON-RPC; body ""
// sends none.
func (c *Client) DoRPC(method, sid, body string, headers ...string) (Answer, error) {
	a, err := c.Do(context.Background(), method, sid, bodyOf(body), headers...)
	if err != nil {
		return a, err
	}
	if len(a.Message) > 0 {
		if _, err := a.Decode(); err != nil {
			return a, fmt.Errorf("answer is not JSON-RPC: %v: %s", err, a.Body)
		}
	}
	return a, nil
}

// Send is DoRPC for the test's own goroutine: a failure fails the test.
func (c *Client) Send(t testing.TB, method, sid, body string, headers ...string) Answer {
	t.Helper()
	a, err := c.DoRPC(method, sid, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Initialize posts an initialize body and answers the session id it opened, failing the test
// unless the answer is 200, not an error, and names a session.
func (c *Client) Initialize(t testing.TB, body string) string {
	t.Helper()
	a := c.Send(t, http.MethodPost, "", body)
	if a.Status != http.StatusOK || a.RPC.Error != nil {
		t.Fatalf("initialize: status %d body %s", a.Status, a.Body)
	}
	sid := a.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize answered no Mcp-Session-Id")
	}
	return sid
}

// bodyOf is a request body: none for "".
func bodyOf(body string) []byte {
	if body == "" {
		return nil
	}
	return []byte(body)
}

// Response sends one request and answers the response with its body unread, for a test that
// reads an event stream as it comes; the test's cleanup closes it.
func (c *Client) Response(t testing.TB, method, sid, body string, headers ...string) *http.Response {
	t.Helper()
	return c.ResponseContext(context.Background(), t, method, sid, body, headers...)
}

// ResponseContext is Response under ctx: cancelling it hangs up.
func (c *Client) ResponseContext(ctx context.Context, t testing.TB, method, sid, body string, headers ...string) *http.Response {
	t.Helper()
	req, err := c.request(ctx, method, sid, bodyOf(body), headers...)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, c.URL, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Stream opens GET on the session's stream, resuming after lastEventID when it is not "".
func (c *Client) Stream(t testing.TB, sid, lastEventID string) *http.Response {
	t.Helper()
	return c.StreamContext(context.Background(), t, sid, lastEventID)
}

// StreamContext is Stream under ctx: cancelling it hangs up.
func (c *Client) StreamContext(ctx context.Context, t testing.TB, sid, lastEventID string) *http.Response {
	t.Helper()
	headers := []string{"Accept", "text/event-stream"}
	if lastEventID != "" {
		headers = append(headers, "Last-Event-ID", lastEventID)
	}
	return c.ResponseContext(ctx, t, http.MethodGet, sid, "", headers...)
}

// NewSession answers the session an initialize's answer opened, failing the test unless the
// answer is 200 and the id is 32 lower-case hex digits (128 bits, visible ASCII).
func NewSession(t testing.TB, a Answer) string {
	t.Helper()
	WantStatus(t, a, http.StatusOK)
	sid := a.Header.Get("Mcp-Session-Id")
	if !hex128.MatchString(sid) {
		t.Fatalf("session id %q is not 32 lower-case hex digits (128 bits)", sid)
	}
	return sid
}

// hex128 is a session id the router makes: 128 random bits in lower-case hex.
var hex128 = regexp.MustCompile(`^[0-9a-f]{32}$`)

// WantStatus fails the test unless the answer's status is status.
func WantStatus(t testing.TB, a Answer, status int) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("status %d, want %d; body %s", a.Status, status, a.Body)
	}
}

// WantError reports each way the answer differs from status and the JSON-RPC error code with
// data.kind kind ("" takes any), and answers whether it matched. A wrong status, code or kind
// lets the test go on, so one run shows every difference and every case of a table; only an
// answer with no error object ends the test, because callers go on to read that object.
func WantError(t testing.TB, a Answer, status, code int, kind string) bool {
	t.Helper()
	ok := true
	if a.Status != status {
		t.Errorf("status %d, want %d; body %s", a.Status, status, a.Body)
		ok = false
	}
	if a.RPC.Error == nil {
		t.Fatalf("want a JSON-RPC error %d, got %s", code, a.Body)
	}
	if a.RPC.Error.Code != code {
		t.Errorf("error code %d, want %d; body %s", a.RPC.Error.Code, code, a.Body)
		ok = false
	}
	if kind != "" && a.RPC.Kind() != kind {
		t.Errorf("data.kind %q, want %q; body %s", a.RPC.Kind(), kind, a.Body)
		ok = false
	}
	return ok
}

// readEventResponse reads an SSE response stream up to the first event carrying a JSON-RPC
// response (one with an id and a result or error), skipping notifications and comments. A
// stream that ends without one is an error: the call was not answered.
func readEventResponse(r io.Reader) (raw, msg []byte, err error) {
	br := bufio.NewReaderSize(r, 16<<10)
	var all, data bytes.Buffer
	for {
		line, err := br.ReadBytes('\n')
		all.Write(line)
		trimmed := bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.HasPrefix(trimmed, []byte("data:")):
			data.Write(bytes.TrimPrefix(bytes.TrimPrefix(trimmed, []byte("data:")), []byte(" ")))
		case len(trimmed) == 0 && data.Len() > 0:
			if isResponse(data.Bytes()) {
				return all.Bytes(), append([]byte(nil), data.Bytes()...), nil
			}
			data.Reset()
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return all.Bytes(), nil, errors.New("event stream ended with no response")
			}
			return all.Bytes(), nil, err
		}
	}
}

// isResponse: a JSON-RPC response has an id and a result or an error, and no method (a
// notification's params may well hold the word "result").
func isResponse(b []byte) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	return json.Unmarshal(b, &m) == nil && m.Method == "" && m.ID != nil && (m.Result != nil || m.Error != nil)
}

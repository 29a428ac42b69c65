package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// ProtocolVersion is the revision the harness negotiates.
const ProtocolVersion = "2025-11-25"

// NewHTTPClient is a client with room for many parallel connections to one host (the default
// transport keeps only 2 idle per host, which turns a load test into a connection-churn test).
func NewHTTPClient(conns int, timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConns:        conns * 2,
			MaxIdleConnsPerHost: conns * 2,
			MaxConnsPerHost:     0,
			IdleConnTimeout:     time.Minute,
			DisableCompression:  true,
		},
	}
}

// Client speaks MCP Streamable HTTP to one URL, just enough for tests: POST a body, open a
// session, DELETE it. It reads answers whether they come as application/json or as an SSE
// response stream (the Go SDK's servers answer with SSE).
type Client struct {
	URL  string
	HTTP *http.Client
	Host string // optional Host header (proxies, DNS-rebinding tests)
}

// Answer is one HTTP answer; Message is the JSON-RPC response it carried (the body itself for
// application/json; the first data event holding a response for text/event-stream).
type Answer struct {
	Status  int
	Header  http.Header
	Body    []byte
	Message []byte
}

// RPC is a decoded JSON-RPC response (Kind answers error.data.kind).
type RPC = mcptest.RPC

// Decode reads the answer's JSON-RPC message.
func (a Answer) Decode() (RPC, error) {
	var r RPC
	if len(a.Message) == 0 {
		return r, fmt.Errorf("no JSON-RPC message in a %d answer: %q", a.Status, a.Body)
	}
	err := json.Unmarshal(a.Message, &r)
	return r, err
}

// Do sends one request. sid may be empty; headers are name, value pairs.
func (c *Client) Do(ctx context.Context, method, sid string, body []byte, headers ...string) (Answer, error) {
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL, rdr)
	if err != nil {
		return Answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", ProtocolVersion)
	}
	if c.Host != "" {
		req.Host = c.Host
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return Answer{}, err
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
	return a, err
}

// readEventResponse reads an SSE response stream up to the first event carrying a JSON-RPC
// response (one with an id and a result or error), skipping notifications and comments.
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
				return all.Bytes(), nil, fmt.Errorf("event stream ended with no response")
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

// Post sends a JSON-RPC body.
func (c *Client) Post(ctx context.Context, sid string, body []byte, headers ...string) (Answer, error) {
	return c.Do(ctx, http.MethodPost, sid, body, headers...)
}

// InitializeBody is an initialize request for ProtocolVersion.
func InitializeBody(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"initialize","params":{"protocolVersion":"` +
		ProtocolVersion + `","capabilities":{},"clientInfo":{"name":"mcp-gemstone-harness","version":"1"}}}`)
}

// Open initializes a session, sends notifications/initialized, and answers the session id.
func (c *Client) Open(ctx context.Context) (string, error) {
	a, err := c.Post(ctx, "", InitializeBody(1))
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

// Delete ends a session and answers the status.
func (c *Client) Delete(ctx context.Context, sid string) (int, error) {
	a, err := c.Do(ctx, http.MethodDelete, sid, nil)
	return a.Status, err
}

// CallBody is a tools/call request; args is a JSON object.
func CallBody(id int64, tool, args string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`)
}

// StatelessVersion is the revision whose requests stand alone, their context in params._meta.
const StatelessVersion = "2026-07-28"

// StatelessCallBody is CallBody on the 2026-07-28 wire: the protocol version and (empty) client
// capabilities in params._meta, no session.
func StatelessCallBody(id int64, tool, args string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + StatelessVersion + `","io.modelcontextprotocol/clientCapabilities":{}}}}`)
}

// EchoArgs is the arguments object of an echo call carrying text.
func EchoArgs(text string) string {
	b, _ := json.Marshal(map[string]string{"text": text})
	return string(b)
}

// ToolText is the text of a tool result's first content item.
func ToolText(result json.RawMessage) (string, bool, error) {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return "", false, err
	}
	if len(r.Content) == 0 {
		return "", r.IsError, errors.New("a tool result with no content")
	}
	return r.Content[0].Text, r.IsError, nil
}

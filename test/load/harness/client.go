package harness

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/internal/mcptest"
)

// ProtocolVersion is the revision the harness negotiates.
const ProtocolVersion = mcptest.Revision

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

// Client speaks MCP Streamable HTTP to one URL: mcptest's, which reads answers whether they
// come as application/json or as an SSE response stream (the Go SDK's servers answer with SSE).
// Set Protocol to ProtocolVersion for the revision the harness negotiates.
type Client = mcptest.Client

// Answer is one HTTP answer and the JSON-RPC response it carried.
type Answer = mcptest.Answer

// RPC is a decoded JSON-RPC response (Kind answers error.data.kind).
type RPC = mcptest.RPC

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
	return callBodyWithMeta(id, tool, args, StatelessVersion)
}

// sessionCallBodyWithMeta is StatelessCallBody's call naming the session revision
// ProtocolVersion instead of StatelessVersion: as long, read by nothing as the newer revision's.
func sessionCallBodyWithMeta(id int64, tool, args string) []byte {
	return callBodyWithMeta(id, tool, args, ProtocolVersion)
}

// callBodyWithMeta is CallBody with the per-request _meta a 2026-07-28 request carries, naming
// version.
func callBodyWithMeta(id int64, tool, args, version string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}}}`)
}

// EchoArgs is the arguments object of an echo call carrying text.
func EchoArgs(text string) string {
	b, _ := json.Marshal(map[string]string{"text": text})
	return string(b)
}

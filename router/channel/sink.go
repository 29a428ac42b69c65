package channel

import (
	"encoding/json"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
)

// BindSink implements router.SinkBinder: the call's messages go to sink instead of an HTTP
// answer (the 2026-07-28 wire, where the router turns a worker's question into an
// input_required result). A session without an endpoint binds nothing.
func (m *Mode) BindSink(sess *session.Session, id json.RawMessage, sink router.CallSink) (unbind func()) {
	ep := endpointOf(sess)
	if ep == nil {
		return func() {}
	}
	return ep.Bind(id, sink)
}

// Package router is the MCP Streamable HTTP front end: it owns the /mcp endpoint, every
// session id and every network policy, and forwards each client message to that client's
// worker gem untouched (docs/transport.md has the verb × condition table).
//
//	request ─▶ recover ─▶ readTimeout ─▶ trace ─▶ Host ─▶ Origin ─▶ [auth] ─▶ body limit ─▶ byVersion
//
//	byVersion reads MCP-Protocol-Version once and picks the era:
//	  absent or 2025-*               ─▶ session lookup [+ owner] ─▶ POST / GET / DELETE ─▶ session.Session ─FIFO─▶ worker.Gem
//	  2026-07-28                     ─▶ statelessServer, POST only ─▶ a pool gem, or the gem open_session named ─▶ worker.Gem
//	  unsupported, POST, no session  ─▶ postUnsupportedVersion: the refusal the body calls for
//	  unsupported otherwise          ─▶ 400 unsupportedProtocolVersion
//
// The gates are composed in one place, Server.Handler, so their order can be read there.
// Which goroutine runs what: a POSTed request runs its worker call on its own HTTP
// goroutine, queued behind earlier calls of the same session; ping, cancellation and
// POSTed responses are answered by the front end without queueing; a GET stream runs on its
// request's goroutine until the client leaves, the session ends or the server shuts down.
//
// Seams (docs/transport.md): StreamOpener serves GET /mcp (by default the session's own
// stream, which the channel wraps to resume a POST stream); Lifetime is the session-lifetime
// policy the router starts on its sessions; Auth and Identity make the network-facing mode (a
// principal per request, sessions bound to it, gems logged in as it); Public serves documents
// outside the gates (the OAuth metadata); Observer and Metrics feed /metrics. Answers to
// POSTed requests go through ResponseMode (JSON until the worker speaks: router/channel,
// docs/channel.md).
//
// Files, by era and concern. Both eras enter through the same gates and the same POST; the
// MCP-Protocol-Version header decides which family serves the rest.
//
//	router.go                   Server, Options, New, Handler (the gates in order), shutdown
//	versions.go                 the protocol versions: the era decided once, every version refusal
//	plugins.go                  every seam's interface (Identity, Grants, StreamOpener, ResponseMode, Observer, ...)
//	gates.go                    recover, read timeout, Host, Origin, body limit, protocol version, session lookup
//	health.go                   /healthz and /readyz, outside every gate
//	forward.go                  a POST's body read, the methods never forwarded, a message run on a gem, its outcome
//	reply.go                    JSON answers and error bodies
//	spans.go                    OpenTelemetry: one span per message, traceparent into params._meta
//	observe.go                  what the Observer hears of each call
//	sessions.go                 the session table's hooks, owners, the lifetime policy's view of a session
//	launch_refusal.go           a failed gem launch in words a client may read
//	grants.go                   toolsets granted per token, the 403 step-up
//	resources.go                resource-update watches (session streams and 2026-07-28 listeners)
//	opensession.go              open_session / close_session: GemStone sessions a tools/call names by argument, either era
//
//	2025-03-26 .. 2025-11-25: Streamable HTTP with sessions (MCP-Session-Id)
//	streamable_post.go          POST: one message (a batch on 2025-03-26), queued on the session's gem
//	streamable_initialize.go    initialize: a slot, a gem launched and prepared, the session id
//	streamable_stream.go        GET (the session's standalone stream) and DELETE
//
//	2026-07-28: no sessions; version, capabilities and client info in each request's _meta
//	stateless.go                statelessServer (the revision and its state); the envelope: parse, check, refuse, discover, dispatch
//	stateless_headers.go        Mcp-Method, Mcp-Name and Mcp-Param-* against the body
//	stateless_pool.go           the pool of gems that serve requests carrying no state
//	stateless_calls.go          a call in flight: input_required, requestState, resumption, cancellation
//	departures.go               the sweep that notices a client leave a call running on its request's goroutine
//	stateless_tasks.go          tasks/get, tasks/result, tasks/cancel, tasks/update
//	stateless_subscriptions.go  subscriptions/listen streams
//	stateless_resultmeta.go     the shape of a reply, read without parsing it, for stamping results
package router

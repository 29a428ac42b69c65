// Package session is the front end's per-client state: one Session per MCP session, the one
// record of everything that session holds, and the Table that maps MCP-Session-Id values to
// them under a cap. Nothing else in the front end keeps a table keyed by session id.
//
//	Table ──id──▶ Session ──one call at a time (FIFO)──▶ worker.Gem
//	                 │
//	                 ├─ calls: outstanding requests by id (queued or running), so a
//	                 │  notifications/cancelled can end the one it names
//	                 ├─ pending: the server's own outstanding requests (srv-N)
//	                 ├─ stream: its GET stream (router/internal/sse: outbox, replay)
//	                 ├─ owner: the principal that opened it (network mode)
//	                 ├─ parts: what plug-ins and the lifetime policy keep on it (Hold, Held)
//	                 └─ activity clock, in-flight flag, Done: what the lifetime policy reads
//
// Goroutines: a call runs on the goroutine of the HTTP request that carried it; a forwarded
// notification runs on a goroutine of its own but takes its place in the queue before its
// POST is answered, so a client's next request can never overtake it. A session ends once
// (End): it is unmapped, its calls are cancelled with the reason as their cause, its gem is
// logged out, its stream and parts are closed, and only then does its slot in the table come
// free, so the cap counts logins, not map entries.
package session

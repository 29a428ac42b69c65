// Package channel is the router's half of the worker-to-router channel
// (docs/worker-contract.md, "The worker-to-router channel"): how a worker gem, in the middle
// of a call, reaches the client that made the call with progress, log messages and questions
// (elicitation, sampling), and gets the client's answers back.
//
//	worker gem ──TCP loopback, framed JSON──▶ Hub ──secret──▶ Endpoint (one per MCP session)
//	                                                              │ call id
//	                                  notifications, requests ──▶ CallStream (the POST's answer)
//	                                  unbound notifications   ──▶ standalone GET stream
//	                                  client's answers (pending table) ──▶ back to the worker
//
// One Hub per router listens on a loopback port. Each session gets an Endpoint and a secret
// (256 bits from the system CSPRNG) that go to its worker in the prepare config; a connection
// is served only after its first frame names a live session's secret. Nothing else is
// trusted: frames are bounded in size, every write to a worker has a deadline, every question
// to the client is bounded by the pending table's timeout and by the end of the call that
// asked it, and every refusal is logged (never with the secret).
//
// The router never reads a message's params: it checks the JSON-RPC envelope, rewrites the id
// of a worker's request into the session's own "srv-N" namespace on the way out and back on
// the way in, and relays the bytes.
//
// Answer is the response mode that goes with it: a POSTed request's answer stays
// application/json unless the worker speaks during the call, in which case it turns into a
// text/event-stream (priming event on 2025-11-25, then the messages in the order the worker
// sent them, then the response). A worker may ask for the stream to be closed mid-call
// (SEP-1699 polling); what follows is kept for a GET carrying Last-Event-ID (Endpoint.Resume).
package channel

// Package sse is one MCP session's server-to-client pathway: the outbox that holds
// server-initiated messages until a stream can carry them, the standalone GET stream that
// carries them, and the replay buffer that lets a client which lost its stream resume with
// Last-Event-ID.
//
// Two layers, kept apart so a POST answered as an SSE stream can reuse the first without the
// second:
//
//   - EventWriter writes single SSE frames (events, the SEP-1699 priming event, comments) on
//     an http.ResponseWriter, each one bounded by a write deadline and flushed at once.
//   - Stream is the standalone-stream policy: one stream at a time (the newest GET wins and
//     the previous one ends), an outbox bounded at 256 that drops the oldest and logs the gap,
//     event ids on every event, a bounded replay buffer, keepalive comments, and a stream
//     generation that lets the liveness policy tie a probe to the stream it went down.
//
// Event ids have the form "<lane>-<generation>-<sequence>". The sequence numbers one session's
// messages in the order they were sent, so a Last-Event-ID names a position in that order; the
// generation names the GET stream that wrote it, which keeps ids unique across streams (the
// priming event of a new stream reuses the position it starts from); the lane is 0 for the
// standalone stream and is left for POST response streams to claim.
package sse

package fixtureworker

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The flood tool exists for the load-and-faults proofs: it lets a test make a real gem pour
// notifications down the worker-to-router channel, so the router's handling of a client that
// stops reading is exercised with the data arriving the way it does in production.

// Flood limits: a notification must fit in one channel frame (1 MiB), and a flood must end.
const (
	maxFloodCount = 100_000
	maxFloodSize  = 512 << 10
)

// Flood kinds, and the stream docs/channel.md routes each to.
const (
	floodProgress        = "progress"        // notifications/progress bound to the call: its POST stream
	floodLog             = "log"             // notifications/message at info bound to the call: its POST stream
	floodResourceUpdated = "resourceUpdated" // notifications/resources/updated bound to no call: the GET stream
)

func floodTool() *tool {
	return &tool{name: "flood",
		doc: "Sends count notifications of the given kind, each padded with size bytes, through the worker-to-router channel during the call, then answers how many it sent.",
		args: []argSpec{
			{name: "kind", kind: argString, required: true,
				doc: "progress (needs _meta.progressToken) or log: bound to the call, on its POST stream; resourceUpdated: bound to no call, on the session's GET stream"},
			{name: "count", kind: argInteger, required: true, min: 1, max: maxFloodCount, doc: "how many notifications"},
			{name: "size", kind: argInteger, required: true, min: 0, max: maxFloodSize, doc: "padding bytes in each notification"}},
		run: (*call).flood}
}

// flood sends the notifications one after another, as fast as the channel takes them. A
// break or a stop ends it between two notifications, as any Smalltalk loop would end.
func (c *call) flood(a map[string]any) (any, error) {
	kind := a["kind"].(string)
	count, size := a["count"].(int64), a["size"].(int64)
	if c.w.channel == nil {
		return toolError("channelUnavailable", "flood needs the worker-to-router channel, and the prepare config offered none"), nil
	}
	pad := strings.Repeat("x", int(size))
	var bound json.RawMessage
	var message func(i int64) map[string]any
	switch kind {
	case floodProgress:
		if c.progressToken == nil {
			return toolError("invalidParams", "flood kind progress needs the call's params._meta.progressToken"), nil
		}
		bound = c.id
		message = func(i int64) map[string]any {
			return notification("notifications/progress",
				map[string]any{"progressToken": c.progressToken, "progress": i, "total": count, "message": pad})
		}
	case floodLog:
		if min := c.w.currentLogLevel(); levelRank("info") < levelRank(min) {
			return c.text(fmt.Sprintf("flood: 0 of %d log notifications sent: the session's logging level is %s, above info", count, min)), nil
		}
		bound = c.id
		message = func(int64) map[string]any {
			return notification("notifications/message", map[string]any{"level": "info", "logger": "flood", "data": pad})
		}
	case floodResourceUpdated:
		message = func(i int64) map[string]any {
			return notification("notifications/resources/updated",
				map[string]any{"uri": fmt.Sprintf("test://flood/%d", i), "_meta": map[string]any{"pad": pad}})
		}
	default:
		return toolError("invalidParams", fmt.Sprintf("flood kind %q: want %s, %s or %s", kind, floodProgress, floodLog, floodResourceUpdated)), nil
	}
	var sent, failed int64
	for i := int64(1); i <= count; i++ {
		if err := c.interrupted(); err != nil {
			return nil, err
		}
		frame := map[string]any{"message": message(i)}
		if bound != nil {
			frame["call"] = bound
		}
		if c.w.channel.send(frame) != nil {
			failed++
		} else {
			sent++
		}
	}
	return c.text(fmt.Sprintf("flood: %d of %d %s notifications sent (%d padding bytes each), %d not sent",
		sent, count, kind, size, failed)), nil
}

func (w *Worker) currentLogLevel() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.logLevel
}

func notification(method string, params map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
}

// interrupted answers the error that ends the call when a break has arrived or the call was
// stopped, without waiting; nil otherwise.
func (c *call) interrupted() error {
	select {
	case <-c.ctx.Done():
		return fmt.Errorf("%w: %w", ErrStopped, c.ctx.Err())
	default:
	}
	if c.breaks == nil {
		return nil
	}
	select {
	case b, ok := <-c.breaks:
		if ok {
			return &BreakError{Break: b}
		}
		c.breaks = nil
	default:
	}
	return nil
}

package wiring

import (
	"net/http"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime"
	"github.com/gemstone-mcp/mcp-gemstone/router/lifetime/wire"
	"github.com/gemstone-mcp/mcp-gemstone/router/metrics"
	"github.com/gemstone-mcp/mcp-gemstone/router/session"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
)

// withLifetime gives every session its server-to-client stream (router/sse: outbox, replay,
// keepalive, bounded writes) and puts the sessions under the lifetime policy
// (docs/session-lifetime.md). It must run before withChannel, which wraps the Streams and
// Hooks set here. The answer binds the policy to the router once it exists and starts it;
// the engine is stopped by the caller before shutdown begins.
func withLifetime(o *router.Options, cfg lifetime.Config, stone lifetime.StoneReader, rec metrics.Recorder, log zerolog.Logger) (start func(*router.Server) (*lifetime.Engine, error)) {
	streams := wire.New(wire.Options{Log: log, SSE: sse.Options{OnDrop: func() { rec.OutboxDropped(1) }}})
	o.Streams = countedStreams{Streams: streams, rec: rec}
	o.Hooks = streams.Hooks(o.Hooks)
	return func(srv *router.Server) (*lifetime.Engine, error) {
		eng, err := lifetime.New(cfg, countedReaps{Streams: streams, rec: rec}, stone, lifetime.WithLogger(log))
		if err != nil {
			return nil, err
		}
		streams.Bind(srv.Sessions(), eng)
		eng.Start()
		return eng, nil
	}
}

// countedStreams follows the open GET streams in the metrics. It keeps wire.Streams' Stream
// method visible, so the channel can still find each session's standalone stream.
type countedStreams struct {
	*wire.Streams
	rec metrics.Recorder
}

func (c countedStreams) ServeStream(w http.ResponseWriter, r *http.Request, sess *session.Session) {
	c.rec.StreamOpened()
	defer c.rec.StreamClosed()
	c.Streams.ServeStream(w, r, sess)
}

// Stream is wire.Streams' own, named here so the promotion is visible to a reader of withChannel.
func (c countedStreams) Stream(id string) (*sse.Session, bool) { return c.Streams.Stream(id) }

// countedReaps is the engine's host with every reap counted in the metrics by its reason.
type countedReaps struct {
	*wire.Streams
	rec metrics.Recorder
}

func (c countedReaps) Reap(id string, why lifetime.Reason) {
	if _, live := c.Streams.Session(id); live {
		c.rec.Reaped(why.Kind)
	}
	c.Streams.Reap(id, why)
}

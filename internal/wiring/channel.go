package wiring

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router"
	"github.com/gemstone-mcp/mcp-gemstone/router/channel"
	"github.com/gemstone-mcp/mcp-gemstone/router/sse"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

// standaloneStreams is what a stream opener offers when it can carry server-initiated
// messages on a session's GET stream (router/lifetime/wire.Streams does).
type standaloneStreams interface {
	Stream(id string) (*sse.Session, bool)
}

// withChannel opens the worker-to-router channel (docs/worker-contract.md) on a free loopback
// port and plugs it into the router's seams: the prepare config, the response mode, the GET
// stream (resumption of a POST stream closed mid-call) and the session hooks. It must run
// after every other wiring of Streams and Hooks, since it wraps them. Without a channel the
// server still serves (answers stay application/json), so a failure is logged, not fatal.
func withChannel(o *router.Options, progressKeepalive time.Duration, log zerolog.Logger) *channel.Hub {
	hub, err := channel.Listen(channel.Options{Log: log})
	if err != nil {
		log.Error().Err(err).Msg("worker-to-router channel not opened: tools cannot report progress, log or ask the client")
		return nil
	}
	streams := o.Streams
	if streams == nil {
		streams = router.KeepaliveStream{Interval: 15 * time.Second} // the router's own default
	}
	mode := &channel.Mode{Hub: hub, Streams: streams, Unclaimed: o.LoginTimeout + time.Minute, ProgressKeepalive: progressKeepalive}
	if s, ok := streams.(standaloneStreams); ok {
		mode.Standalone = s.Stream
	}
	o.PrepareSession = chainPrepare(o.PrepareSession, mode.PrepareSession)
	o.Responses = mode
	o.Streams = mode
	o.Hooks = mode.Hooks(o.Hooks)
	log.Info().Str("address", hub.Address()).Msg("worker-to-router channel listening")
	return hub
}

// chainPrepare runs both adjustments of a session's prepare config, first then second.
func chainPrepare(first, second func(context.Context, string, *worker.PrepareConfig) error) func(context.Context, string, *worker.PrepareConfig) error {
	if first == nil {
		return second
	}
	return func(ctx context.Context, id string, cfg *worker.PrepareConfig) error {
		if err := first(ctx, id, cfg); err != nil {
			return err
		}
		return second(ctx, id, cfg)
	}
}
